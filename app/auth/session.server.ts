import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
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

async function newSessionRow(userId: number, request: Request, now: number) {
  const token = newToken();
  const row = {
    id: await sessionIdFor(token),
    userId,
    expiresAt: new Date(now + SESSION_MS),
    lastSeenAt: new Date(now),
    userAgent: request.headers.get("User-Agent")?.slice(0, 200) ?? null,
  };
  return { row, cookie: sessionCookie(token, SESSION_MS / 1000) };
}

/** Starts a new session (a new id at every sign-in) and returns its Set-Cookie header. */
export async function startSession(db: Database, userId: number, request: Request, now = Date.now()) {
  const { row, cookie } = await newSessionRow(userId, request, now);
  await db.insert(sessions).values(row);
  return cookie;
}

/**
 * startSession for a sign-in that checked `verifiedHash`, only while the account still has that
 * password: one with the old password that finishes just after a password change (which ends every
 * other session) starts none. Null then.
 */
export async function startSessionIfPasswordIs(
  db: Database,
  userId: number,
  request: Request,
  now: number,
  verifiedHash: string,
): Promise<string | null> {
  const { row, cookie } = await newSessionRow(userId, request, now);
  // insert ... select names every column, in the table's order.
  const started = await db
    .insert(sessions)
    .select(
      db
        .select({
          id: sql<string>`${row.id}`.as("id"),
          userId: users.id,
          expiresAt: sql<number>`${row.expiresAt.getTime()}`.as("expires_at"),
          lastSeenAt: sql<number>`${now}`.as("last_seen_at"),
          userAgent: sql<string | null>`${row.userAgent}`.as("user_agent"),
          createdAt: sql<number>`cast(unixepoch('subsec') * 1000 as integer)`.as("created_at"),
        })
        .from(users)
        .where(and(eq(users.id, userId), eq(users.passwordHash, verifiedHash), isNull(users.deletedAt))),
    )
    .returning({ id: sessions.id });
  return started.length > 0 ? cookie : null;
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

/**
 * A read about the signed-in user written before the user is known: it joins `sessions` on the id
 * itself, so it can ride in the session lookup's D1 batch (see readWithSession). Any drizzle query
 * that can go in `db.batch` and resolves to T.
 */
export type SessionQuery<T> = (db: Database, sessionId: string) => BatchItem<"sqlite"> & PromiseLike<T>;

type Rider = {
  query: SessionQuery<unknown>;
  settle: (result: unknown) => void;
  fail: (error: unknown) => void;
};

type SessionRead = {
  sessionId: Promise<string | null>;
  user: Promise<SessionUser | null>;
  /** Reads asked for before the lookup is sent, to go in its batch; null once it has gone. */
  riders: Rider[] | null;
};

const readByContext = new WeakMap<AppLoadContext, SessionRead>();

/** This request's session lookup, started on first use (the first await sends it). */
function sessionRead(context: AppLoadContext, request: Request): SessionRead {
  let read = readByContext.get(context);
  if (!read) {
    const started: SessionRead = {
      sessionId: currentSessionId(request),
      user: Promise.resolve(null),
      riders: [],
    };
    started.user = lookUpSession(context, started);
    // A failed lookup still rejects for everyone who awaits the user; this only stops it being
    // reported as unhandled when just riders (which get the error themselves) asked.
    started.user.catch(() => undefined);
    readByContext.set(context, started);
    read = started;
  }
  return read;
}

async function lookUpSession(context: AppLoadContext, read: SessionRead): Promise<SessionUser | null> {
  const id = await read.sessionId;
  const riders = read.riders ?? [];
  read.riders = null;
  try {
    if (!id) {
      for (const rider of riders) rider.settle(null);
      return null;
    }
    const now = context.now();
    const db = context.primaryDb;
    const lookup = db
      .select({ ...sessionUserColumns, sessionLastSeenAt: sessions.lastSeenAt })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .leftJoin(experts, and(eq(experts.userId, users.id), isNull(experts.deletedAt)))
      .where(and(eq(sessions.id, id), gt(sessions.expiresAt, new Date(now)), isNull(users.deletedAt)))
      .limit(1);
    // One round trip (and one consistent snapshot) for the lookup and every read riding with it.
    const [[row], ...riderResults] = await db.batch([lookup, ...riders.map((rider) => rider.query(db, id))]);
    // A rider answers only for a live session: the lookup's conditions decide, not the rider's SQL.
    for (const [index, rider] of riders.entries()) rider.settle(row ? riderResults[index] : null);
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
  } catch (error) {
    for (const rider of riders) rider.fail(error);
    throw error;
  }
}

/** The signed-in user, read once per request however many loaders ask. */
export function getOptionalUser(context: AppLoadContext, request: Request): Promise<SessionUser | null> {
  return sessionRead(context, request).user;
}

/**
 * `query`'s result for the signed-in user, or null when no one is signed in. Asked for in the same
 * turn as the request's first session lookup (before any await), it goes in that lookup's batch:
 * one D1 round trip for both. Asked for later, it costs a round trip of its own.
 */
export async function readWithSession<T>(
  context: AppLoadContext,
  request: Request,
  query: SessionQuery<T>,
): Promise<T | null> {
  const read = sessionRead(context, request);
  if (read.riders) {
    const riders = read.riders;
    return new Promise<T | null>((resolve, reject) => {
      riders.push({ query, settle: (result) => resolve(result as T | null), fail: reject });
    });
  }
  const [id, user] = await Promise.all([read.sessionId, read.user]);
  if (!id || !user) return null;
  return await query(context.primaryDb, id);
}

/** Forget the cached user after sign-in, sign-out or a profile change within the same request. */
export function forgetCachedUser(context: AppLoadContext) {
  readByContext.delete(context);
}
