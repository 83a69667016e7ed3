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
  }
}

export type RequestState = { context: AppLoadContext; d1Session: D1DatabaseSession | null };

/**
 * Builds the per-request context. D1 read replication: anonymous requests read from any replica;
 * a signed-in user's bookmark (a cookie) makes their reads at least as new as their last write.
 */
export function createLoadContext(request: Request, env: Env, ctx: ExecutionContext): RequestState {
  const config = parseConfig(env);
  const queries: QueryCounter = { count: 0 };
  const signedIn = Boolean(readCookie(request, SESSION_COOKIE));
  const bookmark = decodeURIComponentSafe(readCookie(request, BOOKMARK_COOKIE));
  const constraint = signedIn ? (bookmark ?? "first-primary") : "first-unconstrained";
  const d1Session = typeof env.DB.withSession === "function" ? env.DB.withSession(constraint) : null;
  const context: AppLoadContext = {
    config,
    db: createDatabase(d1Session ?? env.DB, queries),
    primaryDb: createDatabase(env.DB, queries),
    cache: env.CACHE,
    media: env.MEDIA,
    requestId: request.headers.get("cf-ray") ?? crypto.randomUUID(),
    cspNonce: createNonce(),
    queries,
    waitUntil: (promise) => ctx.waitUntil(promise),
    now: () => Date.now(),
  };
  return { context, d1Session };
}

function decodeURIComponentSafe(value: string | undefined) {
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}
