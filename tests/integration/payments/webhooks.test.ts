import { SELF } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { notifications, questions, stripeEvents } from "~/db/schema.server";
import { listQuestionsAwaitingCapture } from "~/models/questions.server";
import { insertQuestion } from "../../factories";
import { BASE, db } from "../support/accounts";
import {
  getLedger,
  getQuestion,
  newClient,
  newExpert,
  notificationsOf,
  postJson,
} from "../support/questions";
import { postWebhook, sendWebhook, stripeEvent, stripeFake } from "../support/stripe";

type Asked = { questionId: number; paymentIntentId: string };

async function unpaidQuestion(rate = 1500) {
  const expert = await newExpert("hook", rate);
  const client = await newClient();
  const response = await postJson(
    "/api/questions",
    { question: "Which bookkeeping setup suits a one-person studio?", expertId: expert.expertId },
    client.cookie,
  );
  const asked = (await response.json()) as Asked;
  if (!asked.paymentIntentId) throw new Error(`asking failed: ${response.status} ${JSON.stringify(asked)}`);
  return { expert, client, asked };
}

const eventCount = async (id: string) =>
  (await db().select({ n: sql<number>`count(*)` }).from(stripeEvents).where(eq(stripeEvents.id, id)))[0].n;

describe("the Stripe webhook (/webhooks/stripe)", () => {
  it("makes a question pending when Stripe says the card is authorised (the browser never came back)", async () => {
    const { expert, asked } = await unpaidQuestion();
    const intent = await stripeFake.setStatus(asked.paymentIntentId, "requires_capture");
    const event = stripeEvent("payment_intent.amount_capturable_updated", intent);
    const response = await sendWebhook(event);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ received: true, result: "processed" });
    const question = await getQuestion(asked.questionId);
    expect(question).toMatchObject({ status: "pending", paymentState: "authorized" });
    expect(question.deadlineAt!.getTime() - question.paidAt!.getTime()).toBe(24 * 60 * 60 * 1000);
    expect(await getLedger(asked.questionId)).toMatchObject({ status: "authorized" });
    expect(await notificationsOf(expert.userId)).toHaveLength(1);
    expect(await eventCount(event.id as string)).toBe(1);
  });

  it("processes the same event delivered twice once", async () => {
    const { expert, asked } = await unpaidQuestion();
    const intent = await stripeFake.setStatus(asked.paymentIntentId, "requires_capture");
    const event = stripeEvent("payment_intent.amount_capturable_updated", intent);
    expect((await sendWebhook(event)).status).toBe(200);
    const paidAt = (await getQuestion(asked.questionId)).paidAt;
    const second = await sendWebhook(event);
    expect(second.status).toBe(200);
    expect(await second.json()).toMatchObject({ result: "duplicate" });
    expect((await getQuestion(asked.questionId)).paidAt).toEqual(paidAt);
    expect(await notificationsOf(expert.userId)).toHaveLength(1);
    expect(await eventCount(event.id as string)).toBe(1);
  });

  it("processes the same event delivered twice at the same instant once", async () => {
    const { expert, asked } = await unpaidQuestion();
    const intent = await stripeFake.setStatus(asked.paymentIntentId, "requires_capture");
    const event = stripeEvent("payment_intent.amount_capturable_updated", intent);
    const responses = await Promise.all([sendWebhook(event), sendWebhook(event)]);
    expect(responses.map((response) => response.status)).toEqual([200, 200]);
    const results = await Promise.all(
      responses.map((response) => response.json() as Promise<{ result: string }>),
    );
    expect(results.map((result) => result.result).sort()).toEqual(["duplicate", "processed"]);
    expect(await notificationsOf(expert.userId)).toHaveLength(1);
  });

  it("agrees with the browser's return: whichever comes second changes nothing", async () => {
    const { expert, client, asked } = await unpaidQuestion();
    const intent = await stripeFake.setStatus(asked.paymentIntentId, "requires_capture");
    expect(
      (
        await postJson(
          `/api/questions/${asked.questionId}/payment`,
          { paymentIntentId: intent.id },
          client.cookie,
        )
      ).status,
    ).toBe(200);
    const paidAt = (await getQuestion(asked.questionId)).paidAt;
    const response = await sendWebhook(stripeEvent("payment_intent.amount_capturable_updated", intent));
    expect(response.status).toBe(200);
    expect((await getQuestion(asked.questionId)).paidAt).toEqual(paidAt);
    expect(await notificationsOf(expert.userId)).toHaveLength(1);
  });

  it("refuses a bad signature with 400 and changes nothing", async () => {
    const { asked } = await unpaidQuestion();
    const intent = await stripeFake.setStatus(asked.paymentIntentId, "requires_capture");
    const event = stripeEvent("payment_intent.amount_capturable_updated", intent);
    const payload = JSON.stringify(event);
    const attempts = [
      await sendWebhook(event, { secret: "whsec_not_the_right_secret" }),
      await sendWebhook(event, { signatureFor: JSON.stringify({ ...event, id: "evt_other" }) }),
      await postWebhook(payload, "t=1700000000,v1=deadbeef"),
      await postWebhook(payload, null),
    ];
    for (const response of attempts) {
      expect(response.status).toBe(400);
      expect(await response.text()).toBe("Invalid signature");
    }
    expect(await getQuestion(asked.questionId)).toMatchObject({ status: "awaiting_payment", paidAt: null });
    expect(await eventCount(event.id as string)).toBe(0);
  });

  it("accepts POST only, and says so", async () => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const response = await SELF.fetch(`${BASE}/webhooks/stripe`, { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.get("Allow"), method).toBe("POST");
    }
  });

  it("acknowledges events nobody handles", async () => {
    const event = stripeEvent("customer.created", { id: "cus_test", object: "customer", metadata: {} });
    const response = await sendWebhook(event);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ received: true, result: "ignored" });
    expect(await eventCount(event.id as string)).toBe(1);
  });

  it("refuses a signed event whose PaymentIntent does not match the question ($1, another id)", async () => {
    const { asked } = await unpaidQuestion(1500);
    const real = await stripeFake.intent(asked.paymentIntentId);
    const cheapSameId = { ...real, amount: 100, amount_capturable: 100, status: "requires_capture" };
    const cheap = await stripeFake.createForeign({
      amount: 100,
      status: "requires_capture",
      metadata: real.metadata,
    });
    const otherCurrency = { ...real, currency: "eur", status: "requires_capture" };
    for (const intent of [cheapSameId, cheap, otherCurrency]) {
      const response = await sendWebhook(stripeEvent("payment_intent.amount_capturable_updated", intent));
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ result: "ignored" });
    }
    expect(await getQuestion(asked.questionId)).toMatchObject({
      status: "awaiting_payment",
      paymentIntentId: asked.paymentIntentId,
    });
  });

  it("never lets one PaymentIntent pay for two questions, even in a signed event", async () => {
    const { asked: paid } = await unpaidQuestion();
    const intent = await stripeFake.setStatus(paid.paymentIntentId, "requires_capture");
    expect((await sendWebhook(stripeEvent("payment_intent.amount_capturable_updated", intent))).status).toBe(
      200,
    );
    // A second question that never learnt its PaymentIntent, and an event naming it with the first one's.
    const other = await newClient("other");
    const orphan = await insertQuestion(db(), {
      userId: other.userId,
      status: "awaiting_payment",
      paymentState: "none",
      amount: intent.amount,
      paidAt: null,
      deadlineAt: null,
    });
    const reused = {
      ...intent,
      metadata: { kind: "question", questionId: String(orphan.id), userId: String(other.userId) },
    };
    const response = await sendWebhook(stripeEvent("payment_intent.amount_capturable_updated", reused));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ result: "refused" });
    expect(await getQuestion(orphan.id)).toMatchObject({ status: "awaiting_payment", paymentIntentId: null });
  });

  it("records a failed payment on the ledger, and drops an unpaid question whose PaymentIntent was cancelled", async () => {
    const { asked } = await unpaidQuestion();
    const failed = await stripeFake.setStatus(asked.paymentIntentId, "requires_payment_method", {
      message: "Your card has insufficient funds.",
    });
    expect((await sendWebhook(stripeEvent("payment_intent.payment_failed", failed))).status).toBe(200);
    expect(await getLedger(asked.questionId)).toMatchObject({
      status: "failed",
      lastError: "Your card has insufficient funds.",
    });
    expect((await getQuestion(asked.questionId)).status).toBe("awaiting_payment");

    const cancelled = await stripeFake.setStatus(asked.paymentIntentId, "canceled");
    expect((await sendWebhook(stripeEvent("payment_intent.canceled", cancelled))).status).toBe(200);
    expect(await getQuestion(asked.questionId)).toMatchObject({
      status: "expired",
      paymentState: "cancelled",
    });
    expect(await getLedger(asked.questionId)).toMatchObject({ status: "cancelled" });
  });

  it("withdraws an open question whose authorisation was cancelled at Stripe, telling its asker", async () => {
    const { asked } = await unpaidQuestion();
    const authorised = await stripeFake.setStatus(asked.paymentIntentId, "requires_capture");
    await sendWebhook(stripeEvent("payment_intent.amount_capturable_updated", authorised));
    expect((await getQuestion(asked.questionId)).status).toBe("pending");
    const cancelled = await stripeFake.setStatus(asked.paymentIntentId, "canceled");
    expect((await sendWebhook(stripeEvent("payment_intent.canceled", cancelled))).status).toBe(200);
    const question = await getQuestion(asked.questionId);
    expect(question).toMatchObject({ status: "expired", paymentState: "cancelled" });
    expect(await getLedger(asked.questionId)).toMatchObject({ status: "cancelled" });
    const notices = await db().select().from(notifications).where(eq(notifications.userId, question.userId!));
    expect(notices.map((notice) => notice.title)).toContain("Your question was withdrawn");
  });

  it("takes an answered question whose authorisation Stripe cancelled out of the capture retries", async () => {
    const { asked } = await unpaidQuestion();
    const authorised = await stripeFake.setStatus(asked.paymentIntentId, "requires_capture");
    await sendWebhook(stripeEvent("payment_intent.amount_capturable_updated", authorised));
    // Answered, but the capture was refused and the authorisation later ran out at Stripe.
    await db()
      .update(questions)
      .set({ status: "answered", answer: "Late.", answeredAt: new Date(), paymentState: "capture_failed" })
      .where(eq(questions.id, asked.questionId));
    const queued = async () =>
      (await listQuestionsAwaitingCapture(db(), { limit: 1000 })).map((row) => row.id);
    expect(await queued()).toContain(asked.questionId);
    const cancelled = await stripeFake.setStatus(asked.paymentIntentId, "canceled");
    expect((await sendWebhook(stripeEvent("payment_intent.canceled", cancelled))).status).toBe(200);
    expect(await getQuestion(asked.questionId)).toMatchObject({
      status: "answered",
      paymentState: "cancelled",
    });
    expect(await getLedger(asked.questionId)).toMatchObject({ status: "cancelled" });
    expect(await queued()).not.toContain(asked.questionId);
  });
});
