import { eq, inArray, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { loginThrottle } from "~/db/schema.server";

/**
 * Sign-in throttling per username and per client address. Failures inside a 15-minute window are
 * counted; from the 4th on each attempt is slowed, and at the limit the key is locked for 15 minutes.
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

/** How long to hold this attempt back, or "locked" when it must be refused. */
export async function checkThrottle(db: Database, keys: ThrottleKeys, now: number) {
  const entries = keysOf(keys);
  const rows = await db
    .select()
    .from(loginThrottle)
    .where(
      inArray(
        loginThrottle.key,
        entries.map((entry) => entry.key),
      ),
    );
  let failures = 0;
  for (const row of rows) {
    if (row.lockedUntil && row.lockedUntil.getTime() > now) return { locked: true as const, delayMs: 0 };
    if (now - row.windowStartedAt.getTime() < WINDOW_MS && row.key.startsWith("user:"))
      failures = row.failures;
  }
  const delayMs =
    failures >= SLOW_FROM ? Math.min(MAX_DELAY_MS, (failures - SLOW_FROM + 1) * STEP_DELAY_MS) : 0;
  return { locked: false as const, delayMs };
}

/** Counts a failure atomically (one upsert per key: no read-then-write race). */
export async function recordFailure(db: Database, keys: ThrottleKeys, now: number) {
  const statements = keysOf(keys).map(({ key, limit }) =>
    db
      .insert(loginThrottle)
      .values({ key, failures: 1, windowStartedAt: new Date(now) })
      .onConflictDoUpdate({
        target: loginThrottle.key,
        set: {
          failures: sql`case when ${loginThrottle.windowStartedAt} < ${now - WINDOW_MS} then 1 else ${loginThrottle.failures} + 1 end`,
          windowStartedAt: sql`case when ${loginThrottle.windowStartedAt} < ${now - WINDOW_MS} then ${now} else ${loginThrottle.windowStartedAt} end`,
          lockedUntil: sql`case when ${loginThrottle.windowStartedAt} >= ${now - WINDOW_MS} and ${loginThrottle.failures} + 1 >= ${limit} then ${now + LOCK_MS} else ${loginThrottle.lockedUntil} end`,
        },
      }),
  );
  await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
}

export async function clearFailures(db: Database, username: string) {
  await db.delete(loginThrottle).where(eq(loginThrottle.key, `user:${username.trim().toLowerCase()}`));
}
