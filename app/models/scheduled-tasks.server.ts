import { parseConfig } from "~/config.server";
import { createDatabase } from "~/db/client.server";
import { cronRuns } from "~/db/schema.server";
import { freeExpiredHolds } from "~/models/bookings.server";
import {
  completeEndedSessions,
  expireQuestions,
  remindExperts,
  retryQuestionPayments,
  sendMeetingLinks,
  settleUnconfirmedQuestionPayments,
  type TaskFailure,
} from "~/models/deadlines.server";
import { deliverOutbox } from "~/models/email-outbox.server";
import { pruneOldRecords } from "~/models/retention.server";
import { lapseEndedSubscriptions } from "~/models/subscriptions.server";
import type { FetchLike } from "~/services/email.server";
import { getOptionalStripe } from "~/services/stripe.server";

export const CRON = "*/5 * * * *";

export type ScheduledOptions = {
  /** Outbound fetch for the e-mail provider (tests pass a local fake). */
  fetch?: FetchLike;
  cron?: string;
};

export type RunSummary = Record<string, number>;

/** The Worker's bindings and variables, as the Cron Trigger receives them (workers/env.ts). */
export type ScheduledEnv = { DB: D1Database; [variable: string]: unknown };

/**
 * The Cron Trigger (every 5 minutes). `scheduledTime` is the run's clock: every deadline is measured
 * against it (Cloudflare passes the trigger's time; tests pass the instant they want).
 *
 * Each task is idempotent: every change is a conditional UPDATE on the current state, so overlapping
 * runs find nothing left to do. A failing task or row is logged with its id, recorded in the run's
 * row for the admins (/admin/runs) and retried by the next run; the other tasks go on.
 */
export async function runScheduledTasks(
  env: ScheduledEnv,
  scheduledTime: number,
  options: ScheduledOptions = {},
) {
  const config = parseConfig(env);
  const db = createDatabase(env.DB);
  const startedAt = new Date();
  const now = new Date(scheduledTime);
  const stripe = getOptionalStripe({ config });
  const deps = { db, stripe, now };
  const summary: RunSummary = {};
  const failures: TaskFailure[] = [];

  const task = async (name: string, run: () => Promise<void>) => {
    try {
      await run();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      failures.push({ task: name, message });
      console.error(
        JSON.stringify({ level: "error", message: `scheduled task ${name} failed`, error: message }),
      );
    }
  };

  await task("remind", async () => {
    const report = await remindExperts(db, now);
    summary.remindersSent = report.changed;
    failures.push(...report.failures);
  });
  await task("expire", async () => {
    const report = await expireQuestions(deps);
    summary.questionsExpired = report.changed;
    failures.push(...report.failures);
  });
  await task("settle-payments", async () => {
    const report = await settleUnconfirmedQuestionPayments(deps);
    summary.questionPaymentsSettled = report.changed;
    failures.push(...report.failures);
  });
  await task("retry-payments", async () => {
    const report = await retryQuestionPayments(deps);
    summary.paymentsRetried = report.changed;
    failures.push(...report.failures);
  });
  await task("meeting-links", async () => {
    const report = await sendMeetingLinks(db, now);
    summary.meetingLinksSent = report.changed;
    failures.push(...report.failures);
  });
  await task("complete-sessions", async () => {
    summary.sessionsCompleted = await completeEndedSessions(db, now);
  });
  await task("free-holds", async () => {
    const sweep = await freeExpiredHolds({ ...deps, meetingRoomBase: config.meetingRoomBase }, { limit: 20 });
    summary.holdsFreed = sweep.expired;
    summary.holdsConfirmed = sweep.confirmed;
    summary.refunds = sweep.refunded;
    failures.push(...sweep.failures.map((message) => ({ task: "free-holds", id: idIn(message), message })));
  });
  await task("lapse-subscriptions", async () => {
    summary.subscriptionsLapsed = (await lapseEndedSubscriptions(db, now)).length;
  });
  await task("prune", async () => {
    summary.recordsPruned = await pruneOldRecords(db, now);
  });
  // Last, so the messages the tasks above queued go out in this run.
  await task("email", async () => {
    const report = await deliverOutbox({
      db,
      now,
      config,
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    });
    summary.emailsSent = report.sent;
    summary.emailsLogged = report.logged;
    summary.emailsRetrying = report.retrying;
    summary.emailsFailed = report.failed;
    failures.push(...report.failures);
  });

  const [run] = await db
    .insert(cronRuns)
    .values({
      cron: options.cron ?? CRON,
      startedAt,
      finishedAt: new Date(),
      summary: JSON.stringify(summary),
      failures: JSON.stringify(failures),
    })
    .returning({ id: cronRuns.id });
  console.log(
    JSON.stringify({
      level: "info",
      message: "scheduled run",
      runId: run?.id,
      summary,
      failures: failures.length,
    }),
  );
  return { id: run?.id ?? null, summary, failures };
}

/** "booking 12: refund failed" → 12. */
function idIn(message: string) {
  const match = /\b(\d+)\b/.exec(message);
  return match ? Number(match[1]) : undefined;
}
