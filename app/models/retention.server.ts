import { and, inArray, isNull, lt, or, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "~/db/client.server";
import {
  cronRuns,
  emailOutbox,
  loginThrottle,
  rateLimits,
  stripeEvents,
  trustedSignInNetworks,
} from "~/db/schema.server";

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long the records nobody needs for good are kept: enough to look into a problem afterwards. */
export const RETENTION = {
  /** The admins' run history, e-mails already settled, and Stripe events (Stripe retries for 3 days). */
  recordsMs: 30 * DAY_MS,
  /** Throttle and rate-limit counters whose window has long closed. */
  countersMs: DAY_MS,
} as const;

/** At most this many rows per table per run: a first run after a long time cannot hit the CPU limit. */
const PRUNE_BATCH = 1000;

/** Deletes up to PRUNE_BATCH rows of `table` matching `where`, returning their keys. */
function pruneStatement(db: Database, table: SQLiteTable, key: AnySQLiteColumn, where: SQL | undefined) {
  return db
    .delete(table)
    .where(inArray(key, db.select({ key }).from(table).where(where).limit(PRUNE_BATCH)))
    .returning({ key });
}

/**
 * Deletes what has outlived its use (run by the Cron Trigger): old run reports, sent or given-up
 * e-mails (which hold an address and a message), processed Stripe event ids, and stale counters.
 * Returns how many rows went.
 */
export async function pruneOldRecords(db: Database, now: Date): Promise<number> {
  const recordsBefore = new Date(now.getTime() - RETENTION.recordsMs);
  const countersBefore = new Date(now.getTime() - RETENTION.countersMs);
  const results = await db.batch([
    pruneStatement(db, cronRuns, cronRuns.id, lt(cronRuns.startedAt, recordsBefore)),
    pruneStatement(
      db,
      emailOutbox,
      emailOutbox.id,
      and(
        inArray(emailOutbox.status, ["sent", "logged", "failed"]),
        lt(emailOutbox.createdAt, recordsBefore),
      ),
    ),
    pruneStatement(db, stripeEvents, stripeEvents.id, lt(stripeEvents.processedAt, recordsBefore)),
    pruneStatement(
      db,
      loginThrottle,
      loginThrottle.key,
      and(
        lt(loginThrottle.windowStartedAt, countersBefore),
        or(isNull(loginThrottle.lockedUntil), lt(loginThrottle.lockedUntil, now)),
      ),
    ),
    pruneStatement(db, rateLimits, rateLimits.key, lt(rateLimits.windowStartedAt, countersBefore)),
    pruneStatement(
      db,
      trustedSignInNetworks,
      trustedSignInNetworks.key,
      lt(trustedSignInNetworks.trustedUntil, now),
    ),
  ]);
  return results.reduce((total, rows) => total + (rows as unknown[]).length, 0);
}
