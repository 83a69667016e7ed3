/**
 * The Cron Trigger's handler with Stripe configured (the local fake of its API), driven directly with
 * a controlled clock: 24-hour expiry with the authorisation cancelled once, overlapping runs, Stripe
 * refusing a cancellation or a capture (kept for the next run, shown to admins), an answer a second
 * before the deadline, reminders, meeting links, completed sessions, holds, lapses, and a clock at a
 * daylight-saving change.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookings, notifications, questions, users } from "~/db/schema.server";
import { captureQuestionPayment, listQuestionsAwaitingCapture } from "~/models/questions.server";
import { bookingTimes, insertBooking, insertQuestion } from "../../factories";
import { db, get, postForm } from "../support/accounts";
import { book, bookableDate, depsAt, getBooking, newBookableExpert } from "../support/bookings";
import {
  getLedger,
  getQuestion,
  newAdmin,
  newClient,
  newExpert,
  notificationsOf,
  type Person,
  postJson,
} from "../support/questions";
import { kindsOf, lastRun, runAt } from "../support/scheduled";
import { stripeFake } from "../support/stripe";

const HOUR = 60 * 60 * 1000;
const QUESTION = "How do I price a retainer for a two-person design studio's first big client?";

/** Asked with a card: the question and its PaymentIntent, nothing paid or confirmed yet. */
async function askedWithCard(expertPrefix: string) {
  const expert = await newExpert(expertPrefix, 1500);
  const client = await newClient();
  const asked = await postJson(
    "/api/questions",
    { question: QUESTION, expertId: expert.expertId },
    client.cookie,
  );
  const { questionId, paymentIntentId } = (await asked.json()) as {
    questionId: number;
    paymentIntentId: string;
  };
  return { expert, client, questionId, paymentIntentId };
}

/** Asked, authorised at Stripe and confirmed with the server: pending, due 24 hours after payment. */
async function paidQuestion() {
  const { expert, client, questionId, paymentIntentId } = await askedWithCard("deadline");
  await stripeFake.setStatus(paymentIntentId, "requires_capture");
  const confirmed = await postJson(
    `/api/questions/${questionId}/payment`,
    { paymentIntentId },
    client.cookie,
  );
  expect(confirmed.status).toBe(200);
  const question = await getQuestion(questionId);
  return { expert, client, questionId, paymentIntentId, deadline: question.deadlineAt!.getTime() };
}

const cancelRequests = async (paymentIntentId: string) =>
  (await stripeFake.requests(paymentIntentId)).filter((request) => request.path.endsWith("/cancel"));

const answer = (questionId: number, expert: Person) =>
  postForm(
    `/questions/${questionId}/answer`,
    { answer: "Charge a monthly retainer of two days' work, billed in advance.", status: "answered" },
    { cookie: expert.cookie },
  );

describe("the 24-hour deadline", () => {
  it("expires a question nobody answered: cancels the authorisation with an idempotency key and tells both", async () => {
    const { expert, client, questionId, paymentIntentId, deadline } = await paidQuestion();

    await runAt(deadline - 1000);
    expect((await getQuestion(questionId)).status).toBe("pending");

    const run = await runAt(deadline);
    expect(run.summary.questionsExpired).toBeGreaterThanOrEqual(1);
    expect(await getQuestion(questionId)).toMatchObject({
      status: "expired",
      paymentState: "cancelled",
      expiredAt: new Date(deadline),
    });
    expect(await getLedger(questionId)).toMatchObject({ status: "cancelled", lastError: null });
    expect(await stripeFake.intent(paymentIntentId)).toMatchObject({ status: "canceled" });
    const [cancel] = await cancelRequests(paymentIntentId);
    expect(cancel).toMatchObject({ status: 200, idempotencyKey: `question-${questionId}-cancel` });
    expect(await kindsOf(client.userId)).toContain("question_expired");
    expect(await kindsOf(expert.userId)).toEqual(
      expect.arrayContaining(["question_new", "question_expired"]),
    );
  });

  it("does the work once when two runs overlap: one cancellation, one message each", async () => {
    const { expert, client, questionId, paymentIntentId, deadline } = await paidQuestion();
    await Promise.all([runAt(deadline + 1000), runAt(deadline + 1000)]);
    expect((await getQuestion(questionId)).status).toBe("expired");
    expect(await cancelRequests(paymentIntentId)).toHaveLength(1);
    expect((await kindsOf(client.userId)).filter((kind) => kind === "question_expired")).toHaveLength(1);
    expect((await kindsOf(expert.userId)).filter((kind) => kind === "question_expired")).toHaveLength(1);
  });

  it("never expires a question answered a second before its deadline, and charges it", async () => {
    const { expert, questionId, paymentIntentId } = await paidQuestion();
    // The deadline is a second and a half away when the expert answers.
    const deadline = Date.now() + 1500;
    await db()
      .update(questions)
      .set({ paidAt: new Date(deadline - 24 * HOUR), deadlineAt: new Date(deadline) })
      .where(eq(questions.id, questionId));
    expect((await answer(questionId, expert)).status).toBe(200);
    await runAt(deadline + 1);
    expect(await getQuestion(questionId)).toMatchObject({ status: "answered", paymentState: "captured" });
    expect(await cancelRequests(paymentIntentId)).toEqual([]);
  });

  it("keeps a cancellation Stripe refused for the next run, and shows the failure to admins", async () => {
    const { questionId, paymentIntentId, deadline } = await paidQuestion();
    await stripeFake.failNext(paymentIntentId, "cancel", "Stripe is having a moment.");
    const first = await runAt(deadline);
    expect(await getQuestion(questionId)).toMatchObject({ status: "expired", paymentState: "authorized" });
    expect(first.failures).toContainEqual(
      expect.objectContaining({
        task: "expire",
        id: questionId,
        message: expect.stringContaining("Stripe is having a moment."),
      }),
    );
    expect(JSON.parse((await lastRun()).failures!)).toContainEqual(
      expect.objectContaining({ id: questionId }),
    );
    const admin = await newAdmin();
    const page = await (await get("/admin/runs", admin.cookie)).text();
    expect(page).toContain(`question ${questionId}`);
    expect(page).toContain("Stripe is having a moment.");

    // The next run (five minutes later) cancels it, with a fresh key since Stripe replays saved errors.
    const second = await runAt(deadline + 5 * 60 * 1000);
    expect(second.summary.paymentsRetried).toBeGreaterThanOrEqual(1);
    expect(await getQuestion(questionId)).toMatchObject({ paymentState: "cancelled" });
    expect(await stripeFake.intent(paymentIntentId)).toMatchObject({ status: "canceled" });
    expect((await cancelRequests(paymentIntentId)).filter((request) => request.status === 200)).toHaveLength(
      1,
    );
  });

  it("goes on with the other questions when Stripe refuses one cancellation", async () => {
    const refused = await paidQuestion();
    const fine = await paidQuestion();
    await stripeFake.failNext(refused.paymentIntentId, "cancel");
    const run = await runAt(Math.max(refused.deadline, fine.deadline));
    expect(run.failures).toContainEqual(expect.objectContaining({ task: "expire", id: refused.questionId }));
    expect(await getQuestion(refused.questionId)).toMatchObject({
      status: "expired",
      paymentState: "authorized",
    });
    expect(await getQuestion(fine.questionId)).toMatchObject({
      status: "expired",
      paymentState: "cancelled",
    });
    expect(await kindsOf(refused.client.userId)).toContain("question_expired");
  });

  it("retries a capture Stripe refused until it goes through, recording each refusal", async () => {
    const { expert, questionId, paymentIntentId } = await paidQuestion();
    await stripeFake.failNext(paymentIntentId, "capture");
    expect((await answer(questionId, expert)).status).toBe(200);
    expect((await getQuestion(questionId)).paymentState).toBe("capture_failed");

    await stripeFake.failNext(paymentIntentId, "capture", "Still declined.");
    const refused = await runAt(Date.now() + 5 * 60 * 1000);
    expect(refused.failures).toContainEqual(
      expect.objectContaining({
        task: "retry-capture",
        id: questionId,
        message: expect.stringContaining("Still declined."),
      }),
    );
    expect((await getQuestion(questionId)).paymentState).toBe("capture_failed");

    await runAt(Date.now() + 10 * 60 * 1000);
    expect((await getQuestion(questionId)).paymentState).toBe("captured");
    expect(await getLedger(questionId)).toMatchObject({ status: "captured", lastError: null });
    expect(await stripeFake.intent(paymentIntentId)).toMatchObject({ status: "succeeded" });
  });

  it("takes a capture out of the queue once Stripe says its payment was cancelled", async () => {
    const { expert, questionId, paymentIntentId } = await paidQuestion();
    await stripeFake.failNext(paymentIntentId, "capture");
    expect((await answer(questionId, expert)).status).toBe(200);
    // Cancelled at Stripe (the Dashboard, a fraud review) with no webhook heard.
    await stripeFake.setStatus(paymentIntentId, "canceled");
    await runAt(Date.now() + 5 * 60 * 1000);
    expect(await getQuestion(questionId)).toMatchObject({ status: "answered", paymentState: "cancelled" });
    expect(await getLedger(questionId)).toMatchObject({ status: "cancelled" });
    const captures = async () =>
      (await stripeFake.requests(paymentIntentId)).filter((request) => request.path.endsWith("/capture"));
    const tried = (await captures()).length;
    await runAt(Date.now() + 10 * 60 * 1000);
    expect(await captures()).toHaveLength(tried);
  });

  it("tries the capture tried least recently first, so one that keeps failing blocks no other", async () => {
    const first = await paidQuestion();
    const second = await paidQuestion();
    await stripeFake.failNext(first.paymentIntentId, "capture");
    expect((await answer(first.questionId, first.expert)).status).toBe(200);
    await stripeFake.failNext(second.paymentIntentId, "capture");
    expect((await answer(second.questionId, second.expert)).status).toBe(200);
    const queue = (await listQuestionsAwaitingCapture(db(), { limit: 1000 })).map((row) => row.id);
    expect(queue.indexOf(first.questionId)).toBeLessThan(queue.indexOf(second.questionId));
    // The first is tried again and refused again: it goes behind the second.
    await stripeFake.failNext(first.paymentIntentId, "capture", "Still declined.");
    expect((await captureQuestionPayment(depsAt(new Date(Date.now() + 60_000)), first.questionId)).ok).toBe(
      false,
    );
    const after = (await listQuestionsAwaitingCapture(db(), { limit: 1000 })).map((row) => row.id);
    expect(after.indexOf(second.questionId)).toBeLessThan(after.indexOf(first.questionId));
  });

  it("frees a subscriber's day, and promises no question back today (that day has passed)", async () => {
    const expert = await newExpert("sub-deadline");
    const client = await newClient();
    const paidAt = new Date(Date.now() - 25 * HOUR);
    const question = await insertQuestion(db(), {
      userId: client.userId,
      expertId: expert.expertId,
      paymentState: "subscription",
      subscriptionDay: paidAt.toISOString().slice(0, 10),
      paidAt,
    });
    await runAt(Date.now());
    expect(await getQuestion(question.id)).toMatchObject({ status: "expired", subscriptionDay: null });
    const expired = (await notificationsOf(client.userId)).find((note) => note.kind === "question_expired");
    expect(expired?.body).toBe(
      "The expert did not answer within 24 hours. You can ask again with your next daily question.",
    );
  });

  it("measures 24 hours as instants across a daylight-saving change", async () => {
    const expert = await newExpert("dst");
    const client = await newClient();
    // 01:30 in New York on the night the clocks go forward (2026-03-08): 24 real hours, not 23 or 25.
    const paidAt = new Date("2026-03-08T06:30:00Z");
    const question = await insertQuestion(db(), { userId: client.userId, expertId: expert.expertId, paidAt });
    await runAt(new Date("2026-03-09T05:30:00Z"));
    expect((await getQuestion(question.id)).status).toBe("pending");
    await runAt(new Date("2026-03-09T06:29:59Z"));
    expect((await getQuestion(question.id)).status).toBe("pending");
    await runAt(new Date("2026-03-09T06:30:00Z"));
    expect((await getQuestion(question.id)).status).toBe("expired");
  });
});

describe("payments nobody confirmed", () => {
  const MINUTE = 60 * 1000;

  /** Asked and given a PaymentIntent; neither the browser's return nor a webhook follows. */
  async function askedWithoutReturn() {
    const { expert, questionId, paymentIntentId } = await askedWithCard("unconfirmed");
    const askedAt = (await getQuestion(questionId)).createdAt.getTime();
    return { expert, questionId, paymentIntentId, askedAt };
  }

  it("confirms a question whose card Stripe authorised, once the return and the webhook had their time", async () => {
    const { expert, questionId, paymentIntentId, askedAt } = await askedWithoutReturn();
    await stripeFake.setStatus(paymentIntentId, "requires_capture");

    await runAt(askedAt + 9 * MINUTE);
    expect((await getQuestion(questionId)).status).toBe("awaiting_payment");

    const settledAt = askedAt + 11 * MINUTE;
    const run = await runAt(settledAt);
    expect(run.summary.questionPaymentsSettled).toBeGreaterThanOrEqual(1);
    expect(await getQuestion(questionId)).toMatchObject({
      status: "pending",
      paymentState: "authorized",
      paidAt: new Date(settledAt),
      deadlineAt: new Date(settledAt + 24 * HOUR),
    });
    expect(await getLedger(questionId)).toMatchObject({ status: "authorized", amount: 1500 });
    expect(await kindsOf(expert.userId)).toEqual(["question_new"]);

    // The late webhook, or another run, changes nothing more.
    await runAt(settledAt + 5 * MINUTE);
    expect(await kindsOf(expert.userId)).toEqual(["question_new"]);
  });

  it("leaves an abandoned payment form alone, and stops asking about it after an hour", async () => {
    const { questionId, paymentIntentId, askedAt } = await askedWithoutReturn();
    const retrievals = async () =>
      (await stripeFake.requests(paymentIntentId)).filter((request) => request.method === "GET").length;

    await runAt(askedAt + 11 * MINUTE);
    expect((await getQuestion(questionId)).status).toBe("awaiting_payment");
    expect((await getLedger(questionId))?.status ?? "pending").toBe("pending");
    const asked = await retrievals();
    expect(asked).toBeGreaterThanOrEqual(1);

    await runAt(askedAt + 61 * MINUTE);
    expect(await retrievals()).toBe(asked);
    expect((await getQuestion(questionId)).status).toBe("awaiting_payment");
  });
});

describe("reminders", () => {
  it("reminds the expert once, 12 hours after payment", async () => {
    const { expert, questionId } = await paidQuestion();
    const paidAt = (await getQuestion(questionId)).paidAt!.getTime();
    await runAt(paidAt + 12 * HOUR - 60_000);
    expect(await kindsOf(expert.userId)).not.toContain("question_reminder");
    await Promise.all([runAt(paidAt + 12 * HOUR), runAt(paidAt + 12 * HOUR)]);
    await runAt(paidAt + 13 * HOUR);
    expect((await kindsOf(expert.userId)).filter((kind) => kind === "question_reminder")).toHaveLength(1);
    expect((await getQuestion(questionId)).reminderSentAt).toEqual(new Date(paidAt + 12 * HOUR));
  });
});

describe("sessions", () => {
  it("sends the meeting link to both parties 15 minutes before, once, even from overlapping runs", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    // 01:30 New York on the night the clocks go back (2026-11-01), the first of the two 01:30s.
    const startsAt = new Date("2026-11-01T05:30:00Z");
    await db().update(users).set({ name: "Ada Lovelace" }).where(eq(users.id, expert.userId));
    const booking = await insertBooking(db(), {
      expertId: expert.expertId,
      userId: client.userId,
      ...bookingTimes("2026-11-01", "01:30", "UTC"),
      startsAt,
      endsAt: new Date(startsAt.getTime() + HOUR),
      name: "Cy Booker",
    });
    await runAt(startsAt.getTime() - 16 * 60 * 1000);
    expect((await getBooking(booking.id)).linkSentAt).toBeNull();
    await Promise.all([
      runAt(startsAt.getTime() - 15 * 60 * 1000),
      runAt(startsAt.getTime() - 15 * 60 * 1000),
    ]);
    expect((await getBooking(booking.id)).linkSentAt).toEqual(new Date(startsAt.getTime() - 15 * 60 * 1000));
    expect(await kindsOf(client.userId)).toEqual(["meeting_link"]);
    expect(await kindsOf(expert.userId)).toEqual(["meeting_link"]);
    // Each says which session it is and when, in words no time zone can get wrong.
    const bodyOf = async (userId: number) =>
      (
        await db()
          .select({ body: notifications.body })
          .from(notifications)
          .where(eq(notifications.userId, userId))
      )[0].body;
    expect(await bodyOf(client.userId)).toMatch(
      /^Your 60-minute session with Ada Lovelace starts in 15 minutes\. Join the video call: \S+/,
    );
    expect(await bodyOf(expert.userId)).toMatch(
      /^Your 60-minute session with Cy Booker starts in 15 minutes\. Join the video call: \S+/,
    );

    // When its hour is over, the session is completed.
    await runAt(startsAt.getTime() + HOUR - 1);
    expect((await getBooking(booking.id)).status).toBe("confirmed");
    await runAt(startsAt.getTime() + HOUR);
    expect(await getBooking(booking.id)).toMatchObject({ status: "completed" });
  });

  it("frees a hold nobody paid after 15 minutes", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    const held = await book(client, {
      expertId: expert.expertId,
      date: bookableDate({ n: 35 }),
      time: "11:00",
    });
    const { bookingId, paymentIntentId } = (await held.json()) as {
      bookingId: number;
      paymentIntentId: string;
    };
    const run = await runAt(Date.now() + 16 * 60 * 1000);
    expect(run.summary.holdsFreed).toBeGreaterThanOrEqual(1);
    expect((await getBooking(bookingId)).status).toBe("expired");
    expect(await stripeFake.intent(paymentIntentId)).toMatchObject({ status: "canceled" });
    void bookings;
  });
});

describe("subscriptions", () => {
  it("lapses a subscription past its end date that Stripe did not renew", async () => {
    const client = await newClient();
    await db()
      .update(users)
      .set({ subscriptionStatus: "active", subscriptionEndDate: new Date(Date.now() - 1000) })
      .where(eq(users.id, client.userId));
    const run = await runAt(Date.now());
    expect(run.summary.subscriptionsLapsed).toBeGreaterThanOrEqual(1);
    const [row] = await db().select().from(users).where(eq(users.id, client.userId));
    expect(row.subscriptionStatus).toBe("lapsed");
  });
});
