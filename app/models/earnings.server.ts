import { and, desc, eq, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { bookings, experts, payments, questions } from "~/db/schema.server";
import { lastMonthKeys, startOfMonth } from "~/lib/months";
import { instantToLocal } from "~/lib/slots";

/**
 * An expert's earnings, read from the payments ledger (DESIGN.md "earnings read two ways"):
 * - earned = captured question lines (one-time and subscription questions: captured when answered)
 *   + captured session lines whose session was held (booking completed);
 * - upcoming = captured session lines whose session is confirmed and not yet held.
 * Refunded, cancelled, failed and merely authorised lines never count.
 */

const isQuestionLine = sql`${payments.kind} in ('question', 'subscription_question')`;
const isHeldSessionLine = sql`(${payments.kind} = 'booking' and ${bookings.status} = 'completed')`;
const isUpcomingSessionLine = sql`(${payments.kind} = 'booking' and ${bookings.status} = 'confirmed')`;
/** When a line was earned: a question when it was answered (captured), a session when it ended. */
const earnedAt = sql`(case when ${payments.kind} = 'booking' then ${bookings.endsAt} else coalesce(${payments.settledAt}, ${payments.createdAt}) end)`;
const utcMonth = (instantMs: ReturnType<typeof sql>) =>
  sql<string>`strftime('%Y-%m', ${instantMs} / 1000, 'unixepoch')`;

const sumWhen = (condition: ReturnType<typeof sql>) =>
  sql<number>`coalesce(sum(case when ${condition} then ${payments.amount} else 0 end), 0)`;
const countWhen = (condition: ReturnType<typeof sql>) =>
  sql<number>`count(case when ${condition} then 1 end)`;

export type RevenueSourceKey = "questions" | "subscription_questions" | "sessions";

export type EarningsSummary = {
  totalCents: number;
  questions: { cents: number; count: number };
  sessions: { cents: number; count: number };
  upcoming: { cents: number; count: number };
  /** Every source with money in it, largest first, with its share of the total in whole percent. */
  sources: Array<{ key: RevenueSourceKey; label: string; cents: number; count: number; percent: number }>;
};

export type MonthlyEarnings = {
  month: string;
  questionsCents: number;
  sessionsCents: number;
  totalCents: number;
  questionsAnswered: number;
  sessionsCompleted: number;
};

function summaryStatement(db: Database, expertId: number) {
  return db
    .select({
      oneTimeCents: sumWhen(sql`${payments.kind} = 'question'`),
      oneTimeCount: countWhen(sql`${payments.kind} = 'question'`),
      subscriptionCents: sumWhen(sql`${payments.kind} = 'subscription_question'`),
      subscriptionCount: countWhen(sql`${payments.kind} = 'subscription_question'`),
      sessionsCents: sumWhen(isHeldSessionLine),
      sessionsCount: countWhen(isHeldSessionLine),
      upcomingCents: sumWhen(isUpcomingSessionLine),
      upcomingCount: countWhen(isUpcomingSessionLine),
    })
    .from(payments)
    .leftJoin(bookings, eq(bookings.id, payments.bookingId))
    .where(and(eq(payments.expertId, expertId), eq(payments.status, "captured")));
}

type SummaryRow = Awaited<ReturnType<typeof summaryStatement>>[number];

function toSummary(row: SummaryRow | undefined): EarningsSummary {
  const n = (value: number | undefined) => Number(value ?? 0);
  const oneTime = { cents: n(row?.oneTimeCents), count: n(row?.oneTimeCount) };
  const subscription = { cents: n(row?.subscriptionCents), count: n(row?.subscriptionCount) };
  const sessions = { cents: n(row?.sessionsCents), count: n(row?.sessionsCount) };
  const questionsTotal = {
    cents: oneTime.cents + subscription.cents,
    count: oneTime.count + subscription.count,
  };
  const totalCents = questionsTotal.cents + sessions.cents;
  const sources = (
    [
      { key: "questions", label: "One-time questions", ...oneTime },
      { key: "subscription_questions", label: "Subscription questions", ...subscription },
      { key: "sessions", label: "Sessions", ...sessions },
    ] as const
  )
    .filter((source) => source.cents > 0)
    .map((source) => ({ ...source, percent: Math.round((source.cents / totalCents) * 100) }))
    .sort((a, b) => b.cents - a.cents);
  return {
    totalCents,
    questions: questionsTotal,
    sessions,
    upcoming: { cents: n(row?.upcomingCents), count: n(row?.upcomingCount) },
    sources,
  };
}

function monthlyStatements(db: Database, expertId: number, fromMs: number) {
  return [
    db
      .select({
        month: utcMonth(earnedAt),
        questionsCents: sumWhen(isQuestionLine),
        sessionsCents: sumWhen(isHeldSessionLine),
      })
      .from(payments)
      .leftJoin(bookings, eq(bookings.id, payments.bookingId))
      .where(
        and(
          eq(payments.expertId, expertId),
          eq(payments.status, "captured"),
          sql`(${isQuestionLine} or ${isHeldSessionLine})`,
          sql`${earnedAt} >= ${fromMs}`,
        ),
      )
      .groupBy(sql`1`),
    db
      .select({ month: utcMonth(sql`${questions.answeredAt}`), n: sql<number>`count(*)` })
      .from(questions)
      .where(
        and(
          eq(questions.expertId, expertId),
          eq(questions.status, "answered"),
          sql`${questions.answeredAt} >= ${fromMs}`,
        ),
      )
      .groupBy(sql`1`),
    db
      .select({ month: utcMonth(sql`${bookings.endsAt}`), n: sql<number>`count(*)` })
      .from(bookings)
      .where(
        and(
          eq(bookings.expertId, expertId),
          eq(bookings.status, "completed"),
          sql`${bookings.endsAt} >= ${fromMs}`,
        ),
      )
      .groupBy(sql`1`),
  ] as const;
}

type MonthlyRows = [
  Array<{ month: string; questionsCents: number; sessionsCents: number }>,
  Array<{ month: string; n: number }>,
  Array<{ month: string; n: number }>,
];

function toMonthly(keys: string[], [money, answered, completed]: MonthlyRows): MonthlyEarnings[] {
  const moneyByMonth = new Map(money.map((row) => [row.month, row]));
  const answeredByMonth = new Map(answered.map((row) => [row.month, Number(row.n)]));
  const completedByMonth = new Map(completed.map((row) => [row.month, Number(row.n)]));
  return keys.map((month) => {
    const questionsCents = Number(moneyByMonth.get(month)?.questionsCents ?? 0);
    const sessionsCents = Number(moneyByMonth.get(month)?.sessionsCents ?? 0);
    return {
      month,
      questionsCents,
      sessionsCents,
      totalCents: questionsCents + sessionsCents,
      questionsAnswered: answeredByMonth.get(month) ?? 0,
      sessionsCompleted: completedByMonth.get(month) ?? 0,
    };
  });
}

/** The lifetime summary (the Earnings cards and the Revenue Breakdown). */
export async function getEarningsSummary(db: Database, expertId: number): Promise<EarningsSummary> {
  const rows = await summaryStatement(db, expertId);
  return toSummary(rows[0]);
}

/** Earned money and work done in each of the last `months` UTC months (zeros included), oldest first. */
export async function getMonthlyEarnings(
  db: Database,
  { expertId, now, months }: { expertId: number; now: Date; months: number },
): Promise<MonthlyEarnings[]> {
  const [money, answered, completed] = await db.batch(
    monthlyStatements(db, expertId, startOfMonth(now, months - 1).getTime()),
  );
  return toMonthly(lastMonthKeys(now, months), [money, answered, completed]);
}

/** The summary and the monthly series in one round trip (the Earnings screens). */
export async function getEarningsOverview(
  db: Database,
  { expertId, now, months }: { expertId: number; now: Date; months: number },
) {
  const [summary, money, answered, completed] = await db.batch([
    summaryStatement(db, expertId),
    ...monthlyStatements(db, expertId, startOfMonth(now, months - 1).getTime()),
  ]);
  return {
    summary: toSummary(summary[0]),
    monthly: toMonthly(lastMonthKeys(now, months), [money, answered, completed]),
  };
}

export type LedgerLine = {
  id: number;
  createdAt: Date;
  settledAt: Date | null;
  kind: (typeof payments.$inferSelect)["kind"];
  status: (typeof payments.$inferSelect)["status"];
  amount: number;
  currency: string;
  questionId: number | null;
  bookingId: number | null;
  bookingStatus: string | null;
  clientName: string | null;
  question: string | null;
  /** The session's date (yyyy-MM-dd) and start (HH:MM) in the expert's current zone. */
  sessionDate: string | null;
  sessionStartTime: string | null;
};

/** Every ledger line of the expert, newest first, with what it paid for (the CSV export). */
export async function listLedgerLines(db: Database, expertId: number): Promise<LedgerLine[]> {
  const rows = await db
    .select({
      id: payments.id,
      createdAt: payments.createdAt,
      settledAt: payments.settledAt,
      kind: payments.kind,
      status: payments.status,
      amount: payments.amount,
      currency: payments.currency,
      questionId: payments.questionId,
      bookingId: payments.bookingId,
      bookingStatus: bookings.status,
      clientName: sql<string | null>`coalesce(${questions.name}, ${bookings.name})`,
      question: questions.question,
      sessionStartsAt: bookings.startsAt,
      timeZone: experts.timeZone,
    })
    .from(payments)
    .innerJoin(experts, eq(experts.id, payments.expertId))
    .leftJoin(questions, eq(questions.id, payments.questionId))
    .leftJoin(bookings, eq(bookings.id, payments.bookingId))
    .where(
      and(
        eq(payments.expertId, expertId),
        // Only what reached the expert: a question once paid for, a session once confirmed (or money
        // that moved). A checkout the client walked away from is theirs alone, as on the desk.
        or(isNull(payments.questionId), isNotNull(questions.paidAt)),
        or(
          isNull(payments.bookingId),
          isNotNull(bookings.confirmedAt),
          inArray(payments.status, ["captured", "refunded"]),
        ),
      ),
    )
    .orderBy(desc(payments.createdAt), desc(payments.id));
  // From the instant, not the wall clock stored at booking time: the expert may have changed zone.
  return rows.map(({ sessionStartsAt, timeZone, ...line }) => {
    const start = sessionStartsAt === null ? null : instantToLocal(sessionStartsAt, timeZone);
    return { ...line, sessionDate: start?.date ?? null, sessionStartTime: start?.time ?? null };
  });
}

/** How a ledger line counts: earned, upcoming (a paid session not yet held) or not at all. */
export function ledgerLineStanding(line: Pick<LedgerLine, "kind" | "status" | "bookingStatus">) {
  if (line.status !== "captured") return "not counted" as const;
  if (line.kind === "question" || line.kind === "subscription_question") return "earned" as const;
  if (line.kind === "booking" && line.bookingStatus === "completed") return "earned" as const;
  if (line.kind === "booking" && line.bookingStatus === "confirmed") return "upcoming" as const;
  return "not counted" as const;
}
