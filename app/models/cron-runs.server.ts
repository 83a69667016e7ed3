import { desc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { cronRuns, emailOutbox } from "~/db/schema.server";
import { parseJsonColumn, type RunFailure } from "~/lib/cron-runs";

export const RUNS_SHOWN = 50;

/** The last runs of the scheduled handler, newest first, and the e-mails given up on. */
export async function listCronRuns(db: Database, { limit = RUNS_SHOWN } = {}) {
  const [rows, [failedEmails]] = await db.batch([
    db.select().from(cronRuns).orderBy(desc(cronRuns.startedAt), desc(cronRuns.id)).limit(limit),
    db
      .select({ count: sql<number>`count(*)`.mapWith(Number) })
      .from(emailOutbox)
      .where(eq(emailOutbox.status, "failed")),
  ]);
  return {
    failedEmails: failedEmails?.count ?? 0,
    runs: rows.map((row) => ({
      id: row.id,
      cron: row.cron,
      startedAt: row.startedAt.getTime(),
      durationMs: row.finishedAt ? row.finishedAt.getTime() - row.startedAt.getTime() : null,
      summary: parseJsonColumn<Record<string, number>>(row.summary, {}),
      failures: parseJsonColumn<RunFailure[]>(row.failures, []),
    })),
  };
}
