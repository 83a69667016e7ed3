import { beforeAll, describe, expect, it } from "vitest";
import { payments } from "~/db/schema.server";
import { lastMonthKeys, startOfMonth } from "~/lib/months";
import { getEarningsOverview } from "~/models/earnings.server";
import { getExpertDashboard } from "~/models/experts.server";
import {
  bookingTimes,
  buildPayment,
  insertBooking,
  insertExpert,
  insertQuestion,
  insertReview,
  insertUser,
  type NewPayment,
} from "../factories";
import { db, get, signIn } from "./support/accounts";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const now = new Date();
const thisMonth = startOfMonth(now);
const lastMonth = startOfMonth(now, 1);
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

async function signedInExpert() {
  const password = "expert-pass-1";
  const inserted = await insertExpert(db(), { user: { password } });
  return { ...inserted, cookie: await signIn(inserted.user.username, password) };
}

const pay = (line: Partial<NewPayment> & Pick<NewPayment, "kind" | "amount">) =>
  db().insert(payments).values(buildPayment(line));

/**
 * A ledger with every kind of line: what counts (captured questions, a held session), what is
 * upcoming (a paid session not yet held), and what never counts (refunds, cancellations,
 * authorisations, another expert's money, subscriptions).
 */
async function seedLedger(expertId: number, otherExpertId: number) {
  const client = await insertUser(db(), { name: '=HYPERLINK("http://evil.example","click")' });
  const q1 = await insertQuestion(db(), {
    expertId,
    userId: client.id,
    name: client.name,
    status: "answered",
    answer: "Do this.",
    answeredAt: new Date(thisMonth.getTime() + 60_000),
  });
  const q2 = await insertQuestion(db(), {
    expertId,
    status: "answered",
    answer: "And that.",
    paymentState: "subscription",
    answeredAt: new Date(lastMonth.getTime() + DAY),
  });
  const q3 = await insertQuestion(db(), { expertId, status: "pending" });
  const q4 = await insertQuestion(db(), { expertId, status: "rejected" });
  const q5 = await insertQuestion(db(), { expertId, status: "answered", answer: "Refunded anyway." });
  await pay({
    kind: "question",
    amount: 1500,
    status: "captured",
    expertId,
    questionId: q1.id,
    settledAt: new Date(thisMonth.getTime() + 60_000),
  });
  await pay({
    kind: "subscription_question",
    amount: 800,
    status: "captured",
    expertId,
    questionId: q2.id,
    settledAt: new Date(lastMonth.getTime() + DAY),
  });
  await pay({ kind: "question", amount: 1500, status: "authorized", expertId, questionId: q3.id });
  await pay({ kind: "question", amount: 1500, status: "cancelled", expertId, questionId: q4.id });
  await pay({ kind: "question", amount: 1500, status: "refunded", expertId, questionId: q5.id });

  const held = await insertBooking(db(), {
    expertId,
    status: "completed",
    name: "Held Client",
    ...bookingTimes(isoDay(new Date(lastMonth.getTime() + 2 * DAY)), "10:00"),
  });
  const upcoming = await insertBooking(db(), { expertId, status: "confirmed" });
  const cancelled = await insertBooking(db(), { expertId, status: "cancelled" });
  const refundedHeld = await insertBooking(db(), {
    expertId,
    status: "completed",
    ...bookingTimes(isoDay(new Date(lastMonth.getTime() + 3 * DAY)), "11:00"),
  });
  await pay({ kind: "booking", amount: 10000, status: "captured", expertId, bookingId: held.id });
  await pay({ kind: "booking", amount: 12000, status: "captured", expertId, bookingId: upcoming.id });
  await pay({ kind: "booking", amount: 10000, status: "refunded", expertId, bookingId: cancelled.id });
  await pay({ kind: "booking", amount: 9000, status: "refunded", expertId, bookingId: refundedHeld.id });

  const foreign = await insertQuestion(db(), {
    expertId: otherExpertId,
    status: "answered",
    answer: "Not yours.",
  });
  await pay({
    kind: "question",
    amount: 99900,
    status: "captured",
    expertId: otherExpertId,
    questionId: foreign.id,
  });
  await pay({ kind: "subscription", amount: 2000, status: "captured", userId: client.id });
}

describe("earnings from the payments ledger", () => {
  let expert: Awaited<ReturnType<typeof signedInExpert>>;
  let other: Awaited<ReturnType<typeof signedInExpert>>;
  beforeAll(async () => {
    expert = await signedInExpert();
    other = await signedInExpert();
    await seedLedger(expert.expert.id, other.expert.id);
  });

  it("counts captured questions and held sessions, shows paid sessions not yet held as upcoming, and excludes refunds", async () => {
    const { summary } = await getEarningsOverview(db(), { expertId: expert.expert.id, now, months: 6 });
    expect(summary.questions).toEqual({ cents: 2300, count: 2 });
    expect(summary.sessions).toEqual({ cents: 10000, count: 1 });
    expect(summary.totalCents).toBe(12300);
    expect(summary.upcoming).toEqual({ cents: 12000, count: 1 });
    expect(summary.sources).toEqual([
      { key: "sessions", label: "Sessions", cents: 10000, count: 1, percent: 81 },
      { key: "questions", label: "One-time questions", cents: 1500, count: 1, percent: 12 },
      { key: "subscription_questions", label: "Subscription questions", cents: 800, count: 1, percent: 7 },
    ]);
  });

  it("puts each earning in the month it was earned, with the work done that month", async () => {
    const { monthly } = await getEarningsOverview(db(), { expertId: expert.expert.id, now, months: 6 });
    expect(monthly.map((month) => month.month)).toEqual(lastMonthKeys(now, 6));
    const current = monthly[5];
    const previous = monthly[4];
    // q5 has no answeredAt, so only q1 was answered this month.
    expect(current).toMatchObject({
      questionsCents: 1500,
      sessionsCents: 0,
      totalCents: 1500,
      questionsAnswered: 1,
    });
    expect(previous).toMatchObject({
      questionsCents: 800,
      sessionsCents: 10000,
      totalCents: 10800,
      sessionsCompleted: 2,
    });
    expect(monthly.slice(0, 4).every((month) => month.totalCents === 0)).toBe(true);
  });

  it("shows the cards in dollars with 2 decimals, the breakdown tiles and the tips", async () => {
    const html = await (await get("/expert/earnings", expert.cookie)).text();
    expect(html).toContain("Total Earnings");
    expect(html).toContain("$123.00");
    expect(html).toContain("$23.00");
    expect(html).toContain("from <!-- -->2 answered questions");
    expect(html).toContain("$100.00");
    expect(html).toContain("from <!-- -->1 completed session");
    expect(html).toContain("$120.00");
    expect(html).toContain("Revenue Breakdown");
    // Each source's count in words that agree with it (one of each here).
    expect(html).toContain('<span class="source-tile__count">1 session</span>');
    expect(html).toContain('<span class="source-tile__count">1 question</span>');
    expect(html).toContain("Tips for increasing your revenue");
    expect(html).not.toContain("$999.00");
    // Months are UTC months, which the charts say (an evening's earning may fall in the next one).
    expect(html).toContain("Earnings by month (UTC), last 6 months");
    const dashboard = await (await get("/expert/dashboard", expert.cookie)).text();
    expect(dashboard).toContain("months, by UTC month");
    // Why a subscriber's question may show $0.00.
    expect(html).toContain(
      "A subscriber&#x27;s daily question earns $5.00, until that subscriber&#x27;s questions have earned $20.00 (their monthly price) within 30 days",
    );
  });

  it("says No earnings data available yet when the ledger has nothing earned", async () => {
    const fresh = await signedInExpert();
    const html = await (await get("/expert/earnings", fresh.cookie)).text();
    expect(html).toContain("No earnings data available yet");
    expect(html).toContain("$0.00");
    const analytics = await get("/expert/earnings/analytics", fresh.cookie);
    expect(analytics.status).toBe(200);
    // With nothing to show, the money axis reads $0 to $1 and the count axis 0 to 1, in whole steps.
    const ticks = [...(await analytics.text()).matchAll(/class="bar-chart__tick"[^>]*>([^<]*)</g)].map(
      ([, tick]) => tick,
    );
    expect(ticks).toEqual(["$0", "$1", "0", "1"]);
  });

  it("exports the expert's own ledger lines as CSV, formula-like cells neutralised", async () => {
    // Checkouts the client walked away from never reached the expert, so they are not in the file.
    const unpaid = await insertQuestion(db(), {
      expertId: expert.expert.id,
      status: "awaiting_payment",
      paidAt: null,
      deadlineAt: null,
      name: "Walked Away Asker",
      question: "A confidential question that was never paid for",
    });
    await pay({
      kind: "question",
      amount: 1500,
      status: "pending",
      expertId: expert.expert.id,
      questionId: unpaid.id,
    });
    const hold = await insertBooking(db(), {
      expertId: expert.expert.id,
      status: "expired",
      confirmedAt: null,
      name: "Walked Away Booker",
    });
    await pay({
      kind: "booking",
      amount: 12000,
      status: "cancelled",
      expertId: expert.expert.id,
      bookingId: hold.id,
    });

    const response = await get("/expert/earnings/export", expert.cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="earnings-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const text = (await response.text()).replace(/^\uFEFF/, "");
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "Date (UTC),Settled (UTC),Type,Status,Counts as,Amount,Currency,Reference,Client,Details",
    );
    expect(lines).toHaveLength(1 + 9);
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
    expect(lines.some((line) => line.includes(",refunded,not counted,100.00,USD,"))).toBe(true);
    expect(lines.some((line) => line.includes(",captured,upcoming,120.00,USD,"))).toBe(true);
    expect(text).not.toContain("999.00");
    expect(text).not.toContain("Subscription,");
    expect(text).not.toContain("Walked Away");
    expect(text).not.toContain("never paid for");
  });

  it("cuts a long question to 200 characters, never through the middle of an emoji", async () => {
    const writer = await signedInExpert();
    const question = await insertQuestion(db(), {
      expertId: writer.expert.id,
      status: "answered",
      answer: "Answered.",
      question: `${"a".repeat(199)}😀 and more after the cut`,
    });
    await pay({
      kind: "question",
      amount: 1500,
      status: "captured",
      expertId: writer.expert.id,
      questionId: question.id,
    });
    const response = await get("/expert/earnings/export", writer.cookie);
    const text = await response.text();
    // A cut through the emoji would leave its first half, which the response writes as U+FFFD.
    expect(text).not.toContain("\uFFFD");
    expect(text).toContain(`${"a".repeat(199)}😀`);
    expect(text).not.toContain("and more after the cut");
  });

  it("gives another expert only their own lines", async () => {
    const text = await (await get("/expert/earnings/export", other.cookie)).text();
    expect(text.trimEnd().split("\r\n")).toHaveLength(2);
    expect(text).toContain("999.00");
  });
});

describe("the dashboard's figures", () => {
  it("counts open questions and upcoming confirmed sessions, averages response time and rating", async () => {
    const { expert, cookie } = await signedInExpert();
    const expertId = expert.id;
    const paidAt = new Date(now.getTime() - 3 * DAY);
    for (let n = 0; n < 5; n++) {
      await insertQuestion(db(), {
        expertId,
        status: "pending",
        name: `Asker ${n}`,
        paidAt: new Date(now.getTime() - (n + 1) * HOUR),
      });
    }
    await insertQuestion(db(), {
      expertId,
      status: "in_progress",
      name: "Working On It",
      paidAt: new Date(now.getTime() - 10 * HOUR),
    });
    const a1 = await insertQuestion(db(), {
      expertId,
      status: "answered",
      answer: "a",
      paidAt,
      answeredAt: new Date(paidAt.getTime() + 2 * HOUR),
    });
    await insertQuestion(db(), {
      expertId,
      status: "answered",
      answer: "b",
      paidAt,
      answeredAt: new Date(paidAt.getTime() + 5 * HOUR),
    });
    // Answered without a payment time (e.g. imported): not part of the mean.
    await insertQuestion(db(), { expertId, status: "answered", answer: "c", paidAt: null, answeredAt: now });
    await insertQuestion(db(), { expertId, status: "expired" });

    for (let n = 0; n < 4; n++)
      await insertBooking(db(), { expertId, status: "confirmed", name: `Client ${n}` });
    await insertBooking(db(), {
      expertId,
      status: "confirmed",
      ...bookingTimes(isoDay(new Date(now.getTime() - 5 * DAY)), "09:00"),
    });
    await insertBooking(db(), { expertId, status: "cancelled" });
    await insertReview(db(), { expertId, rating: 4, questionId: a1.id });
    await insertReview(db(), { expertId, rating: 5 });

    const dashboard = await getExpertDashboard(db(), { expertId, now });
    expect(dashboard).toMatchObject({
      pendingQuestions: 6,
      upcomingBookings: 4,
      averageResponseHours: 3.5,
      answeredCount: 2,
      averageRating: 4.5,
      reviewCount: 2,
    });
    // The first 5 open questions, most urgent first, and the next 3 sessions, soonest first.
    expect(dashboard.pendingList).toHaveLength(5);
    expect(dashboard.pendingList[0].name).toBe("Working On It");
    expect(dashboard.upcomingList).toHaveLength(3);
    const starts = dashboard.upcomingList.map((booking) => new Date(booking.startsAt).getTime());
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(starts[0]).toBeGreaterThan(now.getTime());

    const html = await (await get("/expert/dashboard", cookie)).text();
    expect(html).toContain("3.5 hours");
    expect(html).toContain("4.5");
    expect(html).toContain("Performance Overview");
    expect(html).not.toContain("6.3 hours");
  });

  it("shows N/A before the first answer and the first review", async () => {
    const { expert, cookie } = await signedInExpert();
    const dashboard = await getExpertDashboard(db(), { expertId: expert.id, now });
    expect(dashboard).toMatchObject({
      averageResponseHours: null,
      averageRating: null,
      reviewCount: 0,
      pendingQuestions: 0,
    });
    const html = await (await get("/expert/dashboard", cookie)).text();
    expect(html.match(/N\/A/g)?.length).toBe(2);
    expect(html).toContain("No pending questions");
    expect(html).toContain("No upcoming sessions");
  });
});
