import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { experts, sessions, users } from "~/db/schema.server";
import { toBase64, toHex } from "~/lib/bytes";
import { readCookie } from "~/lib/cookies";
import { type SessionUser, sessionUserColumns, toSessionUser } from "~/models/users.server";

/**
 * Server-side sessions (DESIGN.md "Sessions"): the cookie holds a random token, D1 holds its
 * SHA-256. Revoking a row ends the session everywhere at once.
 */
export const SESSION_COOKIE = "__session";
const SESSION_DAYS = 30;
const SESSION_MS = SESSION_DAYS * 24 * 60 * 60 * 1000;
/** Sliding expiry: extend a session at most once a day to keep writes off the hot path. */
const TOUCH_AFTER_MS = 24 * 60 * 60 * 1000;

async function sessionIdFor(token: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)));
}

function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return toBase64(bytes).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
}

function sessionCookie(value: string, maxAgeSeconds: number) {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=${maxAgeSeconds}`;
}

export const clearSessionCookie = () => sessionCookie("", 0);

/** Starts a new session (a new id at every sign-in) and returns its Set-Cookie header. */
export async function startSession(db: Database, userId: number, request: Request, now = Date.now()) {
  const token = newToken();
  await db.insert(sessions).values({
    id: await sessionIdFor(token),
    userId,
    expiresAt: new Date(now + SESSION_MS),
    lastSeenAt: new Date(now),
    userAgent: request.headers.get("User-Agent")?.slice(0, 200) ?? null,
  });
  return sessionCookie(token, SESSION_MS / 1000);
}

/** The stored id of the request's session, or null. */
export async function currentSessionId(request: Request): Promise<string | null> {
  const token = readCookie(request, SESSION_COOKIE);
  if (!token || token.length > 100) return null;
  return sessionIdFor(token);
}

export async function endSession(db: Database, request: Request) {
  const id = await currentSessionId(request);
  if (id) await db.delete(sessions).where(eq(sessions.id, id));
  return clearSessionCookie();
}

async function loadSessionUser(context: AppLoadContext, request: Request): Promise<SessionUser | null> {
  const id = await currentSessionId(request);
  if (!id) return null;
  const now = context.now();
  const db = context.primaryDb;
  const [row] = await db
    .select({ ...sessionUserColumns, sessionLastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(experts, and(eq(experts.userId, users.id), isNull(experts.deletedAt)))
    .where(and(eq(sessions.id, id), gt(sessions.expiresAt, new Date(now)), isNull(users.deletedAt)))
    .limit(1);
  if (!row) return null;
  if (!row.sessionLastSeenAt || now - row.sessionLastSeenAt.getTime() > TOUCH_AFTER_MS) {
    context.waitUntil(
      db
        .update(sessions)
        .set({ lastSeenAt: new Date(now), expiresAt: new Date(now + SESSION_MS) })
        .where(eq(sessions.id, id))
        .then(() => db.delete(sessions).where(lt(sessions.expiresAt, new Date(now)))),
    );
  }
  return toSessionUser(row);
}

const userByContext = new WeakMap<AppLoadContext, Promise<SessionUser | null>>();

/** The signed-in user, read once per request however many loaders ask. */
export function getOptionalUser(context: AppLoadContext, request: Request): Promise<SessionUser | null> {
  let pending = userByContext.get(context);
  if (!pending) {
    pending = loadSessionUser(context, request);
    userByContext.set(context, pending);
  }
  return pending;
}

/** Forget the cached user after sign-in, sign-out or a profile change within the same request. */
export function forgetCachedUser(context: AppLoadContext) {
  userByContext.delete(context);
}
