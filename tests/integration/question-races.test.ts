/**
 * A question changed by someone else between a request's read and its write (an answer that lands as
 * the scheduled task expires the question, or as an admin declines it): the request that lost the race
 * changes nothing and tells nobody anything, so no one reads "you were not charged" for a charged answer.
 * The scheduled reminders and video links too: none for a question just answered or a session just
 * cancelled.
 */

import { env } from "cloudflare:test";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase, type Database } from "~/db/client.server";
import { bookings, payments, questions } from "~/db/schema.server";
import { expireQuestions, remindExperts, sendMeetingLinks } from "~/models/deadlines.server";
import { answerQuestion, askQuestion, declineQuestion } from "~/models/questions.server";
import { submitAnswer } from "~/services/answers.server";
import { insertBooking, insertQuestion } from "../factories";
import { newClient, newExpert, notificationsOf, WEBM_BYTES } from "./support/questions";
import { changedBeforeFirstBatch } from "./support/races";

const HOUR = 60 * 60 * 1000;

const answerNow = (questionId: number) => (db: Database) =>
  db
    .update(questions)
    .set({ status: "answered", answer: "Here is what I would do.", answeredAt: new Date() })
    .where(eq(questions.id, questionId));

const declineNow = (questionId: number) => (db: Database) =>
  db
    .update(questions)
    .set({ status: "rejected", declinedAt: new Date() })
    .where(eq(questions.id, questionId));

async function openQuestion(overdue = false) {
  const expert = await newExpert("racer");
  const client = await newClient("race-client");
  const paidAt = new Date(Date.now() - (overdue ? 25 * HOUR : 0));
  const question = await insertQuestion(createDatabase(env.DB), {
    userId: client.userId,
    expertId: expert.expertId,
    paidAt,
    createdAt: paidAt,
    deadlineAt: new Date(paidAt.getTime() + 24 * HOUR),
  });
  const actor = { userId: expert.userId, expertId: expert.expertId, isAdmin: false };
  return { expert, client, question, actor };
}

const kinds = async (userId: number) => (await notificationsOf(userId)).map((row) => row.kind);

describe("a question that changed under a request", () => {
  it("is not expired, and nobody is told it was, when the answer lands first", async () => {
    const { expert, client, question } = await openQuestion(true);
    const db = changedBeforeFirstBatch(answerNow(question.id));
    const report = await expireQuestions({ db, stripe: null, now: new Date() });
    expect(report.changed).toBe(0);
    expect((await db.select().from(questions).where(eq(questions.id, question.id)))[0].status).toBe(
      "answered",
    );
    expect(await kinds(client.userId)).not.toContain("question_expired");
    expect(await kinds(expert.userId)).not.toContain("question_expired");
  });

  it("is not declined, and the asker is not told so, when the answer lands first", async () => {
    const { client, question, actor } = await openQuestion();
    const db = changedBeforeFirstBatch(answerNow(question.id));
    const result = await declineQuestion(
      { db, stripe: null, now: new Date() },
      { actor, questionId: question.id },
    );
    expect(result.ok).toBe(false);
    expect(await kinds(client.userId)).not.toContain("question_declined");
  });

  it("brings no reminder to the expert when their answer lands first", async () => {
    const { expert, question } = await openQuestion();
    await createDatabase(env.DB)
      .update(questions)
      .set({ paidAt: new Date(Date.now() - 13 * HOUR) })
      .where(eq(questions.id, question.id));
    const db = changedBeforeFirstBatch(answerNow(question.id));
    const report = await remindExperts(db, new Date());
    expect(report.changed).toBe(0);
    expect(await kinds(expert.userId)).not.toContain("question_reminder");
  });

  it("sends no video link for a session cancelled as the link was about to go", async () => {
    const { expert, client } = await openQuestion();
    const startsAt = new Date(Date.now() + 10 * 60 * 1000);
    const booking = await insertBooking(createDatabase(env.DB), {
      expertId: expert.expertId,
      userId: client.userId,
      startsAt,
      endsAt: new Date(startsAt.getTime() + HOUR),
    });
    const db = changedBeforeFirstBatch((target) =>
      target
        .update(bookings)
        .set({ status: "cancelled", cancelledAt: new Date() })
        .where(eq(bookings.id, booking.id)),
    );
    const report = await sendMeetingLinks(db, new Date());
    expect(report.changed).toBe(0);
    expect(await kinds(client.userId)).not.toContain("meeting_link");
    expect(await kinds(expert.userId)).not.toContain("meeting_link");
  });

  it("is not answered, and the asker is not told so, when a decline lands first", async () => {
    const { client, question, actor } = await openQuestion();
    const db = changedBeforeFirstBatch(declineNow(question.id));
    const result = await answerQuestion(
      { db, stripe: null, now: new Date() },
      { actor, questionId: question.id, answer: "Too late.", status: "answered" },
    );
    expect(result.ok).toBe(false);
    expect(await kinds(client.userId)).not.toContain("question_answered");
  });

  it("is not answered when its recording finishes uploading after the deadline, and keeps no recording", async () => {
    const { client, question, actor } = await openQuestion();
    const deadline = question.deadlineAt!.getTime();
    let clock = deadline - 1000;
    // The upload to R2 is where a slow connection spends its time: the deadline passes during it.
    const media = new Proxy(env.MEDIA, {
      get(target, property) {
        if (property === "put") {
          return async (...args: Parameters<R2Bucket["put"]>) => {
            clock = deadline + 1000;
            return target.put(...args);
          };
        }
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const context = {
      primaryDb: createDatabase(env.DB),
      config: { paymentsTestMode: true },
      media,
      cache: env.CACHE,
      now: () => clock,
    } as unknown as AppLoadContext;
    const result = await submitAnswer(context, actor, question.id, {
      who: "expert",
      answer: undefined,
      status: "answered",
      file: new File([WEBM_BYTES], "answer.webm", { type: "audio/webm" }),
    });
    expect(result).toMatchObject({ ok: false, status: 409 });
    const [stored] = await createDatabase(env.DB)
      .select()
      .from(questions)
      .where(eq(questions.id, question.id));
    expect(stored.status).toBe("pending");
    expect(stored.audioResponse).toBeNull();
    expect((await env.MEDIA.list({ prefix: `audio/questions/${question.id}/` })).objects).toEqual([]);
    expect(await kinds(client.userId)).not.toContain("question_answered");
  });

  it("is not recorded as paid, nor announced, when its expert's closing expires it as it is paid", async () => {
    const expert = await newExpert("closing");
    const client = await newClient("asks-closing");
    // What closing the expert's account does to their unpaid questions, just before the payment's batch.
    const db = changedBeforeFirstBatch((target) =>
      target
        .update(questions)
        .set({ status: "expired", expiredAt: new Date(), paymentState: "cancelled" })
        .where(and(eq(questions.expertId, expert.expertId), eq(questions.status, "awaiting_payment"))),
    );
    const result = await askQuestion(
      { db, stripe: null, now: new Date() },
      {
        asker: {
          id: client.userId,
          username: client.username,
          name: null,
          email: `${client.username}@example.com`,
        },
        expertId: expert.expertId,
        ask: {
          question: "Is a waitlist worth it for a small launch?",
          requestAudioResponse: false,
          showOnProfile: false,
        },
      },
    );
    expect(result.status).toBe("refused");
    const [asked] = await db.select().from(questions).where(eq(questions.userId, client.userId));
    expect(asked.status).toBe("expired");
    expect(await db.select().from(payments).where(eq(payments.questionId, asked.id))).toEqual([]);
    expect(await kinds(expert.userId)).not.toContain("question_new");
  });
});
