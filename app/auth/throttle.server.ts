import { and, eq, gte, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { loginThrottle, trustedSignInNetworks } from "~/db/schema.server";

/**
 * Sign-in throttling (password changes count too). Within a 15-minute window, from the 4th failure on
 * each attempt is slowed, and at a limit its key is locked for 15 minutes. Three keys:
 * - the username from this address (10): one address guessing one account. Attempts are counted as
 *   they start (so attempts sent at once cannot all slip under the limit) and forgiven on success;
 * - the address (50): one address trying many accounts, counted the same way;
 * - the username from everywhere (100): guessing spread over many addresses. It counts only wrong
 *   passwords actually checked, never attempts refused by the keys above, so a stranger's flood
 *   from one address locks that address, not the owner out of their own account.
 * A flood spread over many networks (an IPv6 /48 holds 65,536 of them) can reach the account's
 * limit, so it does not stop sign-ins from a network the account signed in from in the last 30
 * days; and it never stops the signed-in owner checking their password to change it, whose own key
 * is their user id (only someone holding the session can count against it).
 */
const WINDOW_MS = 15 * 60 * 1000;
const LOCK_MS = 15 * 60 * 1000;
const SLOW_FROM = 3;
const STEP_DELAY_MS = 250;
const MAX_DELAY_MS = 2000;
export const USERNAME_FAILURE_LIMIT = 10;
export const USERNAME_EVERYWHERE_FAILURE_LIMIT = 100;
export const ADDRESS_FAILURE_LIMIT = 50;

export const THROTTLED_MESSAGE = "Too many sign-in attempts. Please wait 15 minutes and try again.";

/** `sessionUserId`: a signed-in person checking their own password (to change it), not a sign-in. */
export type ThrottleKeys = { username: string; address: string | null; sessionUserId?: number };

const normalized = (username: string) => username.trim().toLowerCase();

const TRUSTED_NETWORK_MS = 30 * 24 * 60 * 60 * 1000;
const trustedNetworkKey = ({ username, address }: ThrottleKeys) =>
  address ? `${normalized(username)}|${address}` : null;

/** The keys counted as attempts start; the first one's count sets the delay. */
const attemptKeys = ({ username, address, sessionUserId }: ThrottleKeys) => [
  { key: `pair:${normalized(username)}|${address ?? "-"}`, limit: USERNAME_FAILURE_LIMIT },
  ...(address ? [{ key: `ip:${address}`, limit: ADDRESS_FAILURE_LIMIT }] : []),
  ...(sessionUserId === undefined
    ? []
    : [{ key: `password-check:${sessionUserId}`, limit: USERNAME_FAILURE_LIMIT }]),
];

/** The key counted as wrong passwords are found. */
const accountKey = ({ username }: ThrottleKeys) => ({
  key: `user:${normalized(username)}`,
  limit: USERNAME_EVERYWHERE_FAILURE_LIMIT,
});

/** One more in a key's window (a new window once the old one is over). */
const countStatement = (db: Database, key: string, now: number) =>
  db
    .insert(loginThrottle)
    .values({ key, failures: 1, windowStartedAt: new Date(now) })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures: sql`case when ${loginThrottle.windowStartedAt} < ${now - WINDOW_MS} then 1 else ${loginThrottle.failures} + 1 end`,
        windowStartedAt: sql`case when ${loginThrottle.windowStartedAt} < ${now - WINDOW_MS} then ${now} else ${loginThrottle.windowStartedAt} end`,
      },
    });

/**
 * Counts this attempt before its password is checked (one batch: an upsert per attempt key, and a
 * read of the account's key). The attempt is refused when a key is locked or past its limit;
 * otherwise it is told how long to wait, from the failures before it.
 */
export async function reserveAttempt(
  db: Database,
  keys: ThrottleKeys,
  now: number,
): Promise<{ locked: true } | { locked: false; delayMs: number }> {
  const entries = attemptKeys(keys);
  const account = accountKey(keys);
  const counted = entries.map(({ key }) =>
    countStatement(db, key, now).returning({
      failures: loginThrottle.failures,
      lockedUntil: loginThrottle.lockedUntil,
    }),
  );
  const trustedKey = trustedNetworkKey(keys) ?? "";
  const [accountRows, trustedRows, ...results] = await db.batch([
    db
      .select({
        failures: loginThrottle.failures,
        windowStartedAt: loginThrottle.windowStartedAt,
        lockedUntil: loginThrottle.lockedUntil,
      })
      .from(loginThrottle)
      .where(eq(loginThrottle.key, account.key)),
    db
      .select({ trustedUntil: trustedSignInNetworks.trustedUntil })
      .from(trustedSignInNetworks)
      .where(eq(trustedSignInNetworks.key, trustedKey)),
    ...counted,
  ]);
  const [accountRow] = accountRows;
  const trusted = keys.sessionUserId !== undefined || (trustedRows[0]?.trustedUntil.getTime() ?? 0) > now;
  if (
    !trusted &&
    accountRow &&
    ((accountRow.lockedUntil && accountRow.lockedUntil.getTime() > now) ||
      (accountRow.windowStartedAt.getTime() >= now - WINDOW_MS && accountRow.failures >= account.limit))
  ) {
    return { locked: true };
  }
  let attempt = 1;
  for (const [index, [row]] of results.entries()) {
    if (!row) continue;
    if ((row.lockedUntil && row.lockedUntil.getTime() > now) || row.failures > entries[index].limit) {
      return { locked: true };
    }
    if (index === 0) attempt = row.failures;
  }
  const before = attempt - 1;
  const delayMs = before >= SLOW_FROM ? Math.min(MAX_DELAY_MS, (before - SLOW_FROM + 1) * STEP_DELAY_MS) : 0;
  return { locked: false, delayMs };
}

/** After a wrong password: the account's count takes it, and any key at its limit is locked. */
export async function recordFailure(db: Database, keys: ThrottleKeys, now: number) {
  const account = accountKey(keys);
  await db.batch([
    countStatement(db, account.key, now),
    ...[...attemptKeys(keys), account].map(({ key, limit }) =>
      db
        .update(loginThrottle)
        .set({ lockedUntil: new Date(now + LOCK_MS) })
        .where(and(eq(loginThrottle.key, key), gte(loginThrottle.failures, limit))),
    ),
  ]);
}

/**
 * A successful sign-in (or password check): this address's failures on the username (and the
 * signed-in person's own) are forgiven, and the address's count takes this attempt back. The
 * account's count keeps others' wrong passwords. The network is trusted for 30 days from now.
 */
export async function clearFailures(db: Database, keys: ThrottleKeys, now: number) {
  const [pair, address, passwordCheck] = attemptKeys(keys);
  const trustedKey = trustedNetworkKey(keys);
  const trustedUntil = new Date(now + TRUSTED_NETWORK_MS);
  await db.batch([
    db.delete(loginThrottle).where(eq(loginThrottle.key, pair.key)),
    ...(passwordCheck ? [db.delete(loginThrottle).where(eq(loginThrottle.key, passwordCheck.key))] : []),
    ...(trustedKey
      ? [
          db
            .insert(trustedSignInNetworks)
            .values({ key: trustedKey, trustedUntil })
            .onConflictDoUpdate({ target: trustedSignInNetworks.key, set: { trustedUntil } }),
        ]
      : []),
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
