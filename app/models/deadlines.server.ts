/**
 * The promises the Cron Trigger keeps (DESIGN.md "Deadlines"): reminders at 12 hours, expiry at 24
 * hours with the authorisation released, retried captures, payments Stripe authorised that nobody
 * confirmed here, meeting links 15 minutes before a session, sessions marked completed.
 *
 * Every task is idempotent and safe when two runs overlap: each change is a conditional UPDATE on the
 * row's current state, and only the run whose UPDATE changed the row goes on to talk to Stripe or to
 * notify. Each task reads at most `limit` rows per run, so a backlog drains over several runs.
 */
import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Database } from "~/db/client.server";
import { personNameSql } from "~/db/person-name.server";
import { bookings, experts, questions, users } from "~/db/schema.server";
import { OPEN_QUESTION_STATUSES } from "~/lib/questions";
import { MEETING_LINK_LEAD_MINUTES } from "~/lib/slots";
import { bookingClientName } from "~/models/bookings.server";
import { notificationStatements } from "~/models/notifications.server";
import { unchargedQuestionLedgerStatements } from "~/models/payments.server";
import {
  cancelQuestionAuthorization,
  captureQuestionPayment,
  confirmQuestionPayment,
  listQuestionsAwaitingCapture,
  type QuestionDeps,
  questionMovedNow,
  subscriberAllowanceNote,
  UNPAID_QUESTION_WINDOW_MS,
} from "~/models/questions.server";

export const REMINDER_AFTER_MS = 12 * 60 * 60 * 1000;
/** Retries leave a row alone this long after its own step, so they never race the request that made it. */
export const RETRY_GRACE_MS = 60 * 1000;
/** Rows per task per run: a backlog drains over several runs, within Workers' per-invocation limits. */
export const TASK_LIMIT = 50;
/** Rows per run for the tasks that call Stripe (each row is one or two subrequests). */
export const STRIPE_TASK_LIMIT = 20;

/** One row that failed: logged, shown to admins, retried by the next run. */
export type TaskFailure = { task: string; id?: number; message: string };

export type TaskReport = { changed: number; failures: TaskFailure[] };

const open = inArray(questions.status, [...OPEN_QUESTION_STATUSES]);

function fail(report: TaskReport, task: string, id: number | undefined, error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  report.failures.push({ task, id, message });
  console.error(
    JSON.stringify({ level: "error", message: `scheduled task ${task} failed`, id, error: message }),
  );
}

async function expertUserOf(db: Database, expertId: number | null) {
  if (expertId === null) return null;
  const [row] = await db
    .select({ userId: experts.userId })
    .from(experts)
    .where(eq(experts.id, expertId))
    .limit(1);
  return row?.userId ?? null;
}

/** 12 hours after payment, the expert is reminded of each question still waiting for them, once. */
export async function remindExperts(db: Database, now: Date, { limit = TASK_LIMIT } = {}) {
  const report: TaskReport = { changed: 0, failures: [] };
  const due = await db
    .select({ id: questions.id, expertId: questions.expertId, deadlineAt: questions.deadlineAt })
    .from(questions)
    .where(
      and(
        open,
        isNull(questions.reminderSentAt),
        lte(questions.paidAt, new Date(now.getTime() - REMINDER_AFTER_MS)),
        sql`${questions.deadlineAt} > ${now.getTime()}`,
      ),
    )
    .orderBy(asc(questions.paidAt))
    .limit(limit);
  for (const question of due) {
    try {
      const expertUserId = await expertUserOf(db, question.expertId);
      const hoursLeft = question.deadlineAt
        ? Math.max(1, Math.round((question.deadlineAt.getTime() - now.getTime()) / 3_600_000))
        : 12;
      const [updated] = await db.batch([
        db
          .update(questions)
          .set({ reminderSentAt: now })
          .where(and(eq(questions.id, question.id), open, isNull(questions.reminderSentAt)))
          .returning({ id: questions.id }),
        ...(expertUserId === null
          ? []
          : notificationStatements(
              db,
              {
                userId: expertUserId,
                kind: "question_reminder",
                title: "A question is waiting for your answer",
                body: `A client is waiting for your answer: about ${hoursLeft} hours are left before the question expires and the client is not charged.`,
                link: "/expert/questions",
                dedupeKey: `question_reminder:question:${question.id}`,
              },
              // Only if this run's update took (the question was not answered in the meantime).
              {
                when: sql`exists (select 1 from ${questions} where ${questions.id} = ${question.id} and ${questions.reminderSentAt} = ${now.getTime()})`,
              },
            )),
      ]);
      report.changed += (updated as unknown[]).length;
    } catch (error) {
      fail(report, "remind", question.id, error);
    }
  }
  return report;
}

/**
 * 24 hours after payment, a question still pending or in progress expires: the client is not charged
 * (the authorisation is cancelled; a subscriber's day's slot is freed) and both are told.
 * A question answered before its deadline is never touched: the UPDATE checks the status as it runs.
 */
export async function expireQuestions(deps: QuestionDeps, { limit = STRIPE_TASK_LIMIT } = {}) {
  const { db, now } = deps;
  const report: TaskReport = { changed: 0, failures: [] };
  const due = await db
    .select({
      id: questions.id,
      userId: questions.userId,
      expertId: questions.expertId,
      paymentState: questions.paymentState,
      subscriptionDay: questions.subscriptionDay,
    })
    .from(questions)
    .where(and(open, lte(questions.deadlineAt, now)))
    .orderBy(asc(questions.deadlineAt))
    .limit(limit);
  for (const question of due) {
    try {
      const expertUserId = await expertUserOf(db, question.expertId);
      const subscriber = question.paymentState === "subscription";
      const expiredNow = questionMovedNow(question.id, "expired", now);
      const [updated] = await db.batch([
        db
          .update(questions)
          .set({ status: "expired", expiredAt: now, subscriptionDay: null })
          .where(and(eq(questions.id, question.id), open, lte(questions.deadlineAt, now)))
          .returning({ id: questions.id }),
        // Nothing to release at Stripe for test-mode and subscription questions: the expert is owed nothing.
        ...unchargedQuestionLedgerStatements(db, question, now),
        ...(question.userId === null
          ? []
          : notificationStatements(
              db,
              {
                userId: question.userId,
                kind: "question_expired",
                title: "No answer in time: you were not charged",
                body: subscriber
                  ? `The expert did not answer within 24 hours. ${subscriberAllowanceNote(question.subscriptionDay, now)}`
                  : "The expert did not answer within 24 hours, so your card was not charged.",
                link: "/dashboard/questions",
                dedupeKey: `question_expired:question:${question.id}`,
              },
              { when: expiredNow },
            )),
        ...(expertUserId === null
          ? []
          : notificationStatements(
              db,
              {
                userId: expertUserId,
                kind: "question_expired",
                title: "A question expired unanswered",
                body: "A question passed its 24-hour deadline without an answer. The client was not charged.",
                link: "/expert/questions",
                dedupeKey: `question_expired:question:${question.id}`,
              },
              { when: expiredNow },
            )),
      ]);
      if ((updated as unknown[]).length === 0) continue;
      report.changed += 1;
      if (question.paymentState === "authorized") {
        const cancelled = await cancelQuestionAuthorization(deps, question.id);
        if (!cancelled.ok) fail(report, "expire", question.id, `Cancel failed: ${cancelled.message}`);
      }
    } catch (error) {
      fail(report, "expire", question.id, error);
    }
  }
  return report;
}

/** The browser's return and the webhook get this long to confirm a question's payment themselves. */
export const UNCONFIRMED_PAYMENT_GRACE_MS = 10 * 60 * 1000;

/**
 * The net under the browser's return and the webhook: a question whose card Stripe authorised but
 * that was never confirmed here (the tab closed before the return, the webhook lost or refused) is
 * confirmed as the return would have, so it reaches its expert and the authorisation is not left to
 * lapse. Asks Stripe about unpaid questions asked between 10 and 60 minutes ago; one whose payment
 * form was abandoned stays as it is.
 */
export async function settleUnconfirmedQuestionPayments(
  deps: QuestionDeps,
  { limit = STRIPE_TASK_LIMIT } = {},
): Promise<TaskReport> {
  const { db, now } = deps;
  const report: TaskReport = { changed: 0, failures: [] };
  if (!deps.stripe) return report;
  const unconfirmed = await db
    .select({ id: questions.id, userId: questions.userId, paymentIntentId: questions.paymentIntentId })
    .from(questions)
    .where(
      and(
        eq(questions.status, "awaiting_payment"),
        isNotNull(questions.paymentIntentId),
        isNotNull(questions.userId),
        lte(questions.createdAt, new Date(now.getTime() - UNCONFIRMED_PAYMENT_GRACE_MS)),
        gt(questions.createdAt, new Date(now.getTime() - UNPAID_QUESTION_WINDOW_MS)),
      ),
    )
    .orderBy(asc(questions.createdAt))
    .limit(limit);
  for (const question of unconfirmed) {
    try {
      const result = await confirmQuestionPayment(deps, {
        questionId: question.id,
        userId: question.userId!,
        paymentIntentId: question.paymentIntentId!,
      });
      if (result.ok) report.changed += 1;
      else if (result.reason === "mismatch") fail(report, "settle-payments", question.id, result.message);
    } catch (error) {
      fail(report, "settle-payments", question.id, error);
    }
  }
  return report;
}

/**
 * Retries the money steps that did not go through: authorisations of declined or expired questions
 * still held, and captures of answered questions Stripe refused (or that were interrupted).
 */
export async function retryQuestionPayments(deps: QuestionDeps, { limit = STRIPE_TASK_LIMIT } = {}) {
  const { db, now } = deps;
  const report: TaskReport = { changed: 0, failures: [] };
  const settled = new Date(now.getTime() - RETRY_GRACE_MS);
  const toCancel = await db
    .select({ id: questions.id })
    .from(questions)
    .where(
      and(
        inArray(questions.status, ["rejected", "expired"]),
        eq(questions.paymentState, "authorized"),
        isNotNull(questions.paymentIntentId),
        or(lte(questions.expiredAt, settled), lte(questions.declinedAt, settled)),
      ),
    )
    .limit(limit);
  for (const { id } of toCancel) {
    try {
      const outcome = await cancelQuestionAuthorization(deps, id);
      if (outcome.ok) report.changed += 1;
      else fail(report, "retry-cancel", id, `Cancel failed: ${outcome.message}`);
    } catch (error) {
      fail(report, "retry-cancel", id, error);
    }
  }
  const toCapture = await listQuestionsAwaitingCapture(db, { limit });
  if (toCapture.length === 0) return report;
  const answeredAt = new Map(
    (
      await db
        .select({ id: questions.id, answeredAt: questions.answeredAt })
        .from(questions)
        .where(
          inArray(
            questions.id,
            toCapture.map((row) => row.id),
          ),
        )
    ).map((row) => [row.id, row.answeredAt?.getTime() ?? 0]),
  );
  for (const { id } of toCapture) {
    // The answer request captures right after answering: leave it its moment.
    if ((answeredAt.get(id) ?? 0) > settled.getTime()) continue;
    try {
      const outcome = await captureQuestionPayment(deps, id);
      if (outcome.ok) report.changed += 1;
      else fail(report, "retry-capture", id, `Capture failed: ${outcome.message}`);
    } catch (error) {
      fail(report, "retry-capture", id, error);
    }
  }
  return report;
}

const expertUsers = alias(users, "expert_user");
const clientUsers = alias(users, "client_user");

/** 15 minutes before a confirmed session, both parties get its video link, once. */
export async function sendMeetingLinks(db: Database, now: Date, { limit = TASK_LIMIT } = {}) {
  const report: TaskReport = { changed: 0, failures: [] };
  const due = await db
    .select({
      id: bookings.id,
      userId: bookings.userId,
      meetingLink: bookings.meetingLink,
      startsAt: bookings.startsAt,
      bookingName: bookings.name,
      expertUserId: experts.userId,
      expertName: personNameSql(expertUsers),
      clientAccountName: personNameSql(clientUsers),
    })
    .from(bookings)
    .innerJoin(experts, eq(experts.id, bookings.expertId))
    .innerJoin(expertUsers, eq(expertUsers.id, experts.userId))
    .leftJoin(clientUsers, eq(clientUsers.id, bookings.userId))
    .where(
      and(
        eq(bookings.status, "confirmed"),
        isNull(bookings.linkSentAt),
        lte(bookings.startsAt, new Date(now.getTime() + MEETING_LINK_LEAD_MINUTES * 60 * 1000)),
        sql`${bookings.endsAt} > ${now.getTime()}`,
      ),
    )
    .orderBy(asc(bookings.startsAt))
    .limit(limit);
  for (const booking of due) {
    try {
      // Which session, and when, without a time zone: "in 15 minutes" reads right everywhere.
      const minutes = Math.round((booking.startsAt.getTime() - now.getTime()) / 60_000);
      const when = minutes > 0 ? `starts in ${minutes} minute${minutes === 1 ? "" : "s"}` : "has started";
      const join = `Join the video call: ${booking.meetingLink ?? "(the link is on your bookings page)"}`;
      const clientName = bookingClientName(booking.bookingName, booking.clientAccountName);
      const people = [
        {
          userId: booking.userId,
          link: "/dashboard/bookings",
          body: `Your 60-minute session with ${booking.expertName} ${when}. ${join}`,
        },
        {
          userId: booking.expertUserId,
          link: "/expert/bookings",
          body: `Your 60-minute session with ${clientName} ${when}. ${join}`,
        },
      ].filter((person): person is { userId: number; link: string; body: string } => person.userId !== null);
      const [updated] = await db.batch([
        db
          .update(bookings)
          .set({ linkSentAt: now })
          .where(
            and(eq(bookings.id, booking.id), eq(bookings.status, "confirmed"), isNull(bookings.linkSentAt)),
          )
          .returning({ id: bookings.id }),
        ...people.flatMap((person) =>
          notificationStatements(
            db,
            {
              userId: person.userId,
              kind: "meeting_link",
              title: "Your session's video link",
              body: person.body,
              link: person.link,
              dedupeKey: `meeting_link:booking:${booking.id}`,
            },
            // Only if this run's update took (the session was not cancelled in the meantime).
            {
              when: sql`exists (select 1 from ${bookings} where ${bookings.id} = ${booking.id} and ${bookings.linkSentAt} = ${now.getTime()})`,
            },
          ),
        ),
      ]);
      report.changed += (updated as unknown[]).length;
    } catch (error) {
      fail(report, "meeting-links", booking.id, error);
    }
  }
  return report;
}

/** Confirmed sessions whose end has passed are `completed` (the client may then review them). */
export async function completeEndedSessions(db: Database, now: Date, { limit = TASK_LIMIT } = {}) {
  const ended = db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.status, "confirmed"), lte(bookings.endsAt, now)))
    .orderBy(asc(bookings.endsAt))
    .limit(limit);
  const rows = await db
    .update(bookings)
    .set({ status: "completed", completedAt: now })
    .where(and(inArray(bookings.id, ended), eq(bookings.status, "confirmed")))
    .returning({ id: bookings.id });
  return rows.length;
}
