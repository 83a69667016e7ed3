import type { AppLoadContext } from "@remix-run/cloudflare";
import { SESSION_COOKIE } from "~/auth/session.server";
import { type AppConfig, parseConfig } from "~/config.server";
import { createDatabase, type Database, type QueryCounter } from "~/db/client.server";
import { readCookie } from "~/lib/cookies";
import type { Env } from "./env";
import { createNonce } from "./security-headers";

export const BOOKMARK_COOKIE = "__d1b";

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    config: AppConfig;
    /** Reads that may come from a nearby replica (anonymous) or honour the user's bookmark. */
    db: Database;
    /** Strongly consistent: auth, sessions and payments read here. */
    primaryDb: Database;
    cache: KVNamespace;
    media: R2Bucket;
    requestId: string;
    /** This render's Content-Security-Policy nonce (workers/security-headers.ts). */
    cspNonce: string;
    queries: QueryCounter;
    waitUntil: (promise: Promise<unknown>) => void;
    /** Milliseconds since the epoch; tests replace it through the request clock header in test env. */
    now: () => number;
    /** Forgets the edge cache's copies of public pages (workers/edge-cache.ts); absent outside a request. */
    purgePublicPages?: (paths: ReadonlyArray<string>) => Promise<void>;
  }
}

export type RequestState = {
  context: AppLoadContext;
  /** The reads' session (replicas allowed, no older than the visitor's bookmark). */
  d1Session: D1DatabaseSession | null;
  /** Whether the request used `primaryDb` (the binding outside any session: always the primary). */
  usedPrimary: boolean;
};

/**
 * Builds the per-request context. D1 read replication: anonymous requests read from any replica;
 * a signed-in user's bookmark (a cookie) makes their reads at least as new as their last write.
 */
/** The configuration of an environment, parsed once per isolate (env is the same object on every request). */
const configs = new WeakMap<Env, AppConfig>();
function configOf(env: Env): AppConfig {
  let config = configs.get(env);
  if (!config) {
    config = parseConfig(env);
    configs.set(env, config);
  }
  return config;
}

/**
 * Builds the per-request context. D1 read replication: anonymous requests read from any replica;
 * a signed-in user's bookmark (a cookie) makes their reads at least as new as their last write.
 * The database clients are made on first use: a page served from the edge cache never needs one.
 */
export function createLoadContext(request: Request, env: Env, ctx: ExecutionContext): RequestState {
  const config = configOf(env);
  const queries: QueryCounter = { count: 0 };
  let d1Session: D1DatabaseSession | null = null;
  let db: Database | undefined;
  let primaryDb: Database | undefined;
  let cspNonce: string | undefined;
  const state: RequestState = {
    context: {
      config,
      get db() {
        if (!db) {
          const signedIn = Boolean(readCookie(request, SESSION_COOKIE));
          const bookmark = decodeURIComponentSafe(readCookie(request, BOOKMARK_COOKIE));
          const constraint = signedIn ? (bookmark ?? "first-primary") : "first-unconstrained";
          d1Session = typeof env.DB.withSession === "function" ? env.DB.withSession(constraint) : null;
          state.d1Session = d1Session;
          db = createDatabase(d1Session ?? env.DB, queries);
        }
        return db;
      },
      get primaryDb() {
        state.usedPrimary = true;
        primaryDb ??= createDatabase(env.DB, queries);
        return primaryDb;
      },
      cache: env.CACHE,
      media: env.MEDIA,
      requestId: request.headers.get("cf-ray") ?? crypto.randomUUID(),
      // Made on first use: a page from the edge cache is answered without one.
      get cspNonce() {
        cspNonce ??= createNonce();
        return cspNonce;
      },
      queries,
      waitUntil: (promise) => ctx.waitUntil(promise),
      now: () => Date.now(),
    },
    d1Session,
    usedPrimary: false,
  };
  return state;
}

const READ_ONLY_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The bookmark to hand a signed-in visitor after this request, so the next one reads at least what
 * this one read and wrote. Writes go through `primaryDb`, outside the reads' session, whose bookmark
 * does not cover them: after an action that used it, one `SELECT 1` in a session that starts on the
 * primary says where the primary is now. The newer bookmark wins (D1 bookmarks sort oldest first).
 */
export async function requestBookmark(state: RequestState, env: Env, method: string) {
  const bookmarks = [state.d1Session?.getBookmark()];
  if (state.usedPrimary && !READ_ONLY_METHODS.has(method) && typeof env.DB.withSession === "function") {
    try {
      const primary = env.DB.withSession("first-primary");
      state.context.queries.count++;
      await primary.prepare("SELECT 1").run();
      bookmarks.push(primary.getBookmark());
    } catch {
      // The answer is ready: without a newer bookmark the next read may only be a little stale.
    }
  }
  let newest: string | undefined;
  for (const bookmark of bookmarks) if (bookmark && (!newest || bookmark > newest)) newest = bookmark;
  return newest;
}

function decodeURIComponentSafe(value: string | undefined) {
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}
