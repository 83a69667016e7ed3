import { and, eq, gte, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { loginThrottle } from "~/db/schema.server";

/**
 * Sign-in throttling per username and per client address. Attempts inside a 15-minute window are
 * counted as they start and forgiven when they succeed; from the 4th failure on each attempt is
 * slowed, and at the limit the key is locked for 15 minutes.
 */
const WINDOW_MS = 15 * 60 * 1000;
const LOCK_MS = 15 * 60 * 1000;
const SLOW_FROM = 3;
const STEP_DELAY_MS = 250;
const MAX_DELAY_MS = 2000;
export const USERNAME_FAILURE_LIMIT = 10;
export const ADDRESS_FAILURE_LIMIT = 50;

export const THROTTLED_MESSAGE = "Too many sign-in attempts. Please wait 15 minutes and try again.";

export type ThrottleKeys = { username: string; address: string | null };

const keysOf = ({ username, address }: ThrottleKeys) => {
  const keys = [{ key: `user:${username.trim().toLowerCase()}`, limit: USERNAME_FAILURE_LIMIT }];
  if (address) keys.push({ key: `ip:${address}`, limit: ADDRESS_FAILURE_LIMIT });
  return keys;
};

/**
 * Counts this attempt before its password is checked (one upsert per key, in one batch), so attempts
 * sent at once cannot all read a count under the limit: each gets its own place in the count. The
 * attempt is refused when a key is locked or past its limit; otherwise it is told how long to wait,
 * from the failures before it. A successful sign-in takes its count back (`clearFailures`).
 */
export async function reserveAttempt(
  db: Database,
  keys: ThrottleKeys,
  now: number,
): Promise<{ locked: true } | { locked: false; delayMs: number }> {
  const entries = keysOf(keys);
  const statements = entries.map(({ key }) =>
    db
      .insert(loginThrottle)
      .values({ key, failures: 1, windowStartedAt: new Date(now) })
      .onConflictDoUpdate({
        target: loginThrottle.key,
        set: {
          failures: sql`case when ${loginThrottle.windowStartedAt} < ${now - WINDOW_MS} then 1 else ${loginThrottle.failures} + 1 end`,
          windowStartedAt: sql`case when ${loginThrottle.windowStartedAt} < ${now - WINDOW_MS} then ${now} else ${loginThrottle.windowStartedAt} end`,
        },
      })
      .returning({
        key: loginThrottle.key,
        failures: loginThrottle.failures,
        lockedUntil: loginThrottle.lockedUntil,
      }),
  );
  const results = await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
  let userAttempt = 1;
  for (const [index, [row]] of results.entries()) {
    const { limit } = entries[index];
    if (!row) continue;
    if ((row.lockedUntil && row.lockedUntil.getTime() > now) || row.failures > limit) {
      return { locked: true };
    }
    if (row.key.startsWith("user:")) userAttempt = row.failures;
  }
  const before = userAttempt - 1;
  const delayMs = before >= SLOW_FROM ? Math.min(MAX_DELAY_MS, (before - SLOW_FROM + 1) * STEP_DELAY_MS) : 0;
  return { locked: false, delayMs };
}

/** After a failed attempt (already counted): a key at its limit is locked for 15 minutes. */
export async function recordFailure(db: Database, keys: ThrottleKeys, now: number) {
  const statements = keysOf(keys).map(({ key, limit }) =>
    db
      .update(loginThrottle)
      .set({ lockedUntil: new Date(now + LOCK_MS) })
      .where(and(eq(loginThrottle.key, key), gte(loginThrottle.failures, limit))),
  );
  await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
}

/** A successful sign-in: the username's failures are forgiven and the address's count takes the attempt back. */
export async function clearFailures(db: Database, keys: ThrottleKeys) {
  const [, address] = keysOf(keys);
  await db.batch([
    db.delete(loginThrottle).where(eq(loginThrottle.key, `user:${keys.username.trim().toLowerCase()}`)),
    ...(address
      ? [
          db
            .update(loginThrottle)
            .set({ failures: sql`max(${loginThrottle.failures} - 1, 0)` })
            .where(eq(loginThrottle.key, address.key)),
        ]
      : []),
  ]);
}
