import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { questions } from "~/db/schema.server";
import { getEarningsSummary } from "~/models/earnings.server";
import { confirmQuestionPayment } from "~/models/questions.server";
import { deleteUserAccount } from "~/models/users.server";
import { concat, id3Tag, randomBytes } from "../../audio-files";
import { db, get, postForm } from "../support/accounts";
import { depsAt } from "../support/bookings";
import {
  getLedger,
  getQuestion,
  newAdmin,
  newClient,
  newExpert,
  notificationsOf,
  type Person,
  postJson,
  postMultipart,
  toastFrom,
} from "../support/questions";
import { changedBeforeFirstBatch } from "../support/races";
import { refundedCharge, sendWebhook, stripeEvent, stripeFake } from "../support/stripe";

const questionsOf = (userId: number) => db().select().from(questions).where(eq(questions.userId, userId));

const QUESTION = "Should I raise a small angel round or keep bootstrapping for another year?";
const ANSWER = "Keep bootstrapping while revenue grows 10% a month; raise when a channel needs fuel.";

type Asked = {
  status: string;
  questionId: number;
  paymentIntentId: string;
  clientSecret: string;
  amount: number;
};

async function ask(client: Person, expertId: number, extra: Record<string, unknown> = {}): Promise<Asked> {
  const response = await postJson(
    "/api/questions",
    { question: QUESTION, expertId, ...extra },
    client.cookie,
  );
  expect(response.status).toBe(200);
  return (await response.json()) as Asked;
}

const confirm = (client: Person, questionId: number, paymentIntentId: string) =>
  postJson(`/api/questions/${questionId}/payment`, { paymentIntentId }, client.cookie);

/** Asked, authorised at Stripe (the browser confirmed the card) and confirmed with the server. */
async function paidQuestion(rate = 1500) {
  const expert = await newExpert("paid", rate);
  const client = await newClient();
  const asked = await ask(client, expert.expertId);
  await stripeFake.setStatus(asked.paymentIntentId, "requires_capture");
  expect((await confirm(client, asked.questionId, asked.paymentIntentId)).status).toBe(200);
  return { expert, client, asked };
}

const answer = (questionId: number, cookie: string) =>
  postForm(`/questions/${questionId}/answer`, { answer: ANSWER, status: "answered" }, { cookie });

describe("asking with Stripe configured", () => {
  it("shows the real price and the card payment box, without the test-mode texts", async () => {
    const expert = await newExpert("price", 2500);
    const client = await newClient();
    const html = await (await get(`/ask/${expert.expertId}`, client.cookie)).text();
    expect(html).toContain("Pay $25.00 and get your personalized expert answer within 24 hours");
    expect(html).toContain("One-time question");
    expect(html).toContain("Preparing payment form...");
    expect(html).not.toContain("Test Mode");
  });

  it("writes the question unpaid, then a manual-capture PaymentIntent shaped as Stripe documents", async () => {
    const expert = await newExpert("shape", 1500);
    const client = await newClient();
    // A price in the request is ignored: the server computes the amount.
    const asked = await ask(client, expert.expertId, { amount: 100 });
    expect(asked).toMatchObject({ status: "requires_payment", amount: 1500 });
    expect(asked.clientSecret).toMatch(new RegExp(`^${asked.paymentIntentId}_secret_`));

    expect(await getQuestion(asked.questionId)).toMatchObject({
      status: "awaiting_payment",
      paymentState: "none",
      paymentIntentId: asked.paymentIntentId,
      amount: 1500,
      paidAt: null,
    });
    expect(await getLedger(asked.questionId)).toMatchObject({
      kind: "question",
      status: "pending",
      amount: 1500,
      stripePaymentIntentId: asked.paymentIntentId,
    });

    const [create] = await stripeFake.requests(asked.paymentIntentId);
    expect(create).toMatchObject({
      method: "POST",
      path: "/v1/payment_intents",
      contentType: "application/x-www-form-urlencoded",
      idempotencyKey: `question-${asked.questionId}-create`,
      status: 200,
      params: {
        amount: "1500",
        currency: "usd",
        capture_method: "manual",
        automatic_payment_methods: { enabled: "true" },
        metadata: { kind: "question", questionId: String(asked.questionId), userId: String(client.userId) },
      },
    });

    // Unpaid questions are not the expert's yet.
    expect(await (await get("/expert/questions", expert.cookie)).text()).not.toContain(QUESTION);
    expect(await notificationsOf(expert.userId)).toEqual([]);
  });

  it("makes the question pending with its 24-hour deadline once the browser's return shows it authorised", async () => {
    const { expert, client, asked } = await paidQuestion();
    const question = await getQuestion(asked.questionId);
    expect(question).toMatchObject({ status: "pending", paymentState: "authorized" });
    expect(question.deadlineAt!.getTime() - question.paidAt!.getTime()).toBe(24 * 60 * 60 * 1000);
    expect(await getLedger(asked.questionId)).toMatchObject({ status: "authorized" });
    expect(await notificationsOf(expert.userId)).toEqual([expect.objectContaining({ kind: "question_new" })]);
    // Confirming again is harmless.
    const again = await confirm(client, asked.questionId, asked.paymentIntentId);
    expect(again.status).toBe(200);
    expect((await getQuestion(asked.questionId)).paidAt).toEqual(question.paidAt);
    expect(await notificationsOf(expert.userId)).toHaveLength(1);
  });

  it("pays for the same question again after a declined card, with the same PaymentIntent", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const asked = await ask(client, expert.expertId);
    await stripeFake.setStatus(asked.paymentIntentId, "requires_payment_method", {
      message: "Your card was declined.",
      code: "card_declined",
    });
    const declined = await confirm(client, asked.questionId, asked.paymentIntentId);
    expect(declined.status).toBe(400);
    expect(await declined.json()).toMatchObject({ error: "Your card was declined.", reason: "failed" });
    expect((await getQuestion(asked.questionId)).status).toBe("awaiting_payment");
    expect(await getLedger(asked.questionId)).toMatchObject({
      status: "failed",
      lastError: "Your card was declined.",
    });

    const retry = await ask(client, expert.expertId, { questionId: asked.questionId });
    expect(retry).toMatchObject({ questionId: asked.questionId, paymentIntentId: asked.paymentIntentId });
    await stripeFake.setStatus(asked.paymentIntentId, "requires_capture");
    expect((await confirm(client, asked.questionId, asked.paymentIntentId)).status).toBe(200);
    expect(await getQuestion(asked.questionId)).toMatchObject({ status: "pending" });
    // The retry asks Stripe for the PaymentIntent as it is now; it never creates another.
    const calls = await stripeFake.requests(asked.paymentIntentId);
    expect(calls.filter((r) => r.path === "/v1/payment_intents").map((r) => r.replayed)).toEqual([false]);
    expect(calls.some((r) => r.path === `/v1/payment_intents/${asked.paymentIntentId}`)).toBe(true);
  });

  it("returns from a bank page's failed payment to the form filled with the question, for its asker only", async () => {
    const expert = await newExpert();
    const other = await newExpert();
    const client = await newClient();
    const stranger = await newClient();
    const asked = await ask(client, expert.expertId, { requestAudioResponse: true });
    await stripeFake.setStatus(asked.paymentIntentId, "requires_payment_method", {
      message: "The bank refused the payment.",
      code: "payment_method_provider_decline",
    });
    const back = await get(
      `/ask/return?question=${asked.questionId}&payment_intent=${asked.paymentIntentId}`,
      client.cookie,
    );
    expect(back.status).toBe(302);
    const retryPath = `/ask/${expert.expertId}?retry=${asked.questionId}`;
    expect(back.headers.get("Location")).toBe(retryPath);
    // To anyone else the question is one that does not exist: its expert is not given away either.
    const strangersReturn = await get(
      `/ask/return?question=${asked.questionId}&payment_intent=${asked.paymentIntentId}`,
      stranger.cookie,
    );
    const unknownReturn = await get(`/ask/return?question=999999&payment_intent=pi_x`, stranger.cookie);
    expect(strangersReturn.headers.get("Location")).toBe("/ask");
    expect(unknownReturn.headers.get("Location")).toBe("/ask");

    const switchOf = (html: string, name: string) =>
      html.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`))?.[0];
    const html = await (await get(retryPath, client.cookie)).text();
    expect(html).toContain(QUESTION);
    expect(switchOf(html, "requestAudioResponse")).toContain('checked=""');
    expect(switchOf(html, "showOnProfile")).not.toContain('checked=""');
    // Nobody else's question, and never on another expert's form.
    expect(await (await get(retryPath, stranger.cookie)).text()).not.toContain(QUESTION);
    const elsewhere = await get(`/ask/${other.expertId}?retry=${asked.questionId}`, client.cookie);
    expect(await elsewhere.text()).not.toContain(QUESTION);

    // Paying again from that form reuses the question and its PaymentIntent.
    const retry = await ask(client, expert.expertId, { questionId: asked.questionId });
    expect(retry).toMatchObject({ questionId: asked.questionId, paymentIntentId: asked.paymentIntentId });
    await stripeFake.setStatus(asked.paymentIntentId, "requires_capture");
    expect((await confirm(client, asked.questionId, asked.paymentIntentId)).status).toBe(200);
    // A paid question is never offered for paying again.
    expect(await (await get(retryPath, client.cookie)).text()).not.toContain(QUESTION);
    expect(await questionsOf(client.userId)).toHaveLength(1);
  });

  it("sends the asker to their questions, not an error page, when Stripe can't be reached on the return", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const asked = await ask(client, expert.expertId);
    const intent = await stripeFake.setStatus(asked.paymentIntentId, "requires_capture");
    await stripeFake.failRetrieves(asked.paymentIntentId);
    const back = await get(
      `/ask/return?question=${asked.questionId}&payment_intent=${asked.paymentIntentId}`,
      client.cookie,
    );
    expect(back.status).toBe(302);
    expect(back.headers.get("Location")).toBe("/dashboard/questions");
    expect(toastFrom(back)).toMatchObject({ title: "Payment not confirmed yet" });
    expect((await getQuestion(asked.questionId)).status).toBe("awaiting_payment");
    // Stripe's webhook records it when it comes.
    await sendWebhook(stripeEvent("payment_intent.amount_capturable_updated", intent));
    expect((await getQuestion(asked.questionId)).status).toBe("pending");
  });

  it("takes a retry after an authorisation whose confirmation was lost as the paid question", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const asked = await ask(client, expert.expertId);
    // The card was authorised, but the browser never heard back from the confirmation.
    await stripeFake.setStatus(asked.paymentIntentId, "requires_capture");
    const retry = await postJson(
      "/api/questions",
      { question: QUESTION, expertId: expert.expertId, questionId: asked.questionId },
      client.cookie,
    );
    expect(retry.status).toBe(201);
    expect(await retry.json()).toMatchObject({ status: "pending", questionId: asked.questionId });
    expect(await getQuestion(asked.questionId)).toMatchObject({ status: "pending" });
    // Once the question is paid, a further retry gets it back too: never a second question or hold.
    const again = await postJson(
      "/api/questions",
      { question: QUESTION, expertId: expert.expertId, questionId: asked.questionId },
      client.cookie,
    );
    expect(await again.json()).toMatchObject({ status: "pending", questionId: asked.questionId });
    expect(await questionsOf(client.userId)).toHaveLength(1);
    const creates = (await stripeFake.requests(asked.paymentIntentId)).filter(
      (r) => r.path === "/v1/payment_intents",
    );
    expect(creates).toHaveLength(1);
  });

  it("says SPEC.md's 'Failed to initialize payment' when Stripe cannot make the PaymentIntent", async () => {
    const expert = await newExpert();
    const client = await newClient();
    await stripeFake.failNextCreate(client.userId);
    const response = await postJson(
      "/api/questions",
      { question: QUESTION, expertId: expert.expertId },
      client.cookie,
    );
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ error: "Failed to initialize payment. Please try again." });
    // Nothing half-made is left behind, and the next try works.
    expect((await (await get("/api/questions", client.cookie)).json()) as unknown[]).toEqual([]);
    expect((await ask(client, expert.expertId)).status).toBe("requires_payment");
  });
});

describe("a question being paid for when its expert deletes their account", () => {
  it("expires, its PaymentIntent is cancelled, and a late confirmation is refused", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const asked = await ask(client, expert.expertId);
    expect((await postForm("/expert/account", { intent: "delete" }, { cookie: expert.cookie })).status).toBe(
      302,
    );
    expect(await getQuestion(asked.questionId)).toMatchObject({
      status: "expired",
      paymentState: "cancelled",
    });
    expect(await getLedger(asked.questionId)).toMatchObject({ status: "cancelled" });
    expect((await stripeFake.intent(asked.paymentIntentId)).status).toBe("canceled");
    const late = await confirm(client, asked.questionId, asked.paymentIntentId);
    expect(late.status).toBeGreaterThanOrEqual(400);
    expect((await getQuestion(asked.questionId)).status).toBe("expired");
  });
});

describe("attacks on the payment", () => {
  it("keeps at most three questions waiting for payment per client, each with its own PaymentIntent", async () => {
    const expert = await newExpert("unpaid-cap", 1500);
    const client = await newClient();
    const askNumber = (n: number) =>
      postJson(
        "/api/questions",
        { question: `Unpaid question number ${n}: how do I price a retainer?`, expertId: expert.expertId },
        client.cookie,
      );
    // Sent at once: the first three are kept, and no more.
    const sent = await Promise.all([1, 2, 3, 4, 5, 6].map(askNumber));
    expect(sent.map((response) => response.status).sort()).toEqual([200, 200, 200, 409, 409, 409]);
    const refused = sent.find((response) => response.status === 409)!;
    expect(await refused.json()).toMatchObject({
      error:
        "You already have 3 questions waiting for payment. Please finish paying for one, or try again in an hour.",
    });
    const unpaid = await questionsOf(client.userId);
    expect(unpaid).toHaveLength(3);
    const intents = await Promise.all(unpaid.map((row) => stripeFake.requests(row.paymentIntentId!)));
    expect(
      intents.every((calls) => calls.filter((call) => call.path === "/v1/payment_intents").length === 1),
    ).toBe(true);

    // Paying for one makes room for another.
    const [first] = unpaid;
    await stripeFake.setStatus(first.paymentIntentId!, "requires_capture");
    expect((await confirm(client, first.id, first.paymentIntentId!)).status).toBe(200);
    expect((await askNumber(7)).status).toBe(200);
    expect((await askNumber(8)).status).toBe(409);
    // So does an hour: a payment form left that long no longer counts.
    await db()
      .update(questions)
      .set({ createdAt: new Date(Date.now() - 61 * 60 * 1000) })
      .where(eq(questions.userId, client.userId));
    expect((await askNumber(9)).status).toBe(200);
  });

  it("pays for the same unpaid question when it is sent again, and lets a dead one go", async () => {
    const expert = await newExpert("unpaid-again", 1500);
    const client = await newClient();
    const first = await ask(client, expert.expertId);
    // The Ask screen sent again without its retry (a reload after a declined card): the same
    // question and PaymentIntent, as often as it takes, and no place used up.
    for (let time = 0; time < 4; time += 1) {
      expect(await ask(client, expert.expertId)).toMatchObject({
        questionId: first.questionId,
        paymentIntentId: first.paymentIntentId,
      });
    }
    const others = [1, 2].map((n) =>
      postJson(
        "/api/questions",
        { question: `Another unpaid question, number ${n}.`, expertId: expert.expertId },
        client.cookie,
      ),
    );
    expect((await Promise.all(others)).map((response) => response.status)).toEqual([200, 200]);
    expect(await questionsOf(client.userId)).toHaveLength(3);

    // Its PaymentIntent cancelled at Stripe, paying again makes a new question in its place, which
    // the cap allows: the old one can never be paid for, and expires.
    await stripeFake.setStatus(first.paymentIntentId, "canceled");
    const again = await ask(client, expert.expertId, { questionId: first.questionId });
    expect(again.questionId).not.toBe(first.questionId);
    expect(await getQuestion(first.questionId)).toMatchObject({
      status: "expired",
      paymentState: "cancelled",
    });
    expect(await getLedger(first.questionId)).toMatchObject({ status: "cancelled" });
  });

  it("refuses another question's PaymentIntent", async () => {
    const { asked: paidA } = await paidQuestion();
    const expert = await newExpert();
    const thief = await newClient("thief");
    const askedB = await ask(thief, expert.expertId);
    const response = await confirm(thief, askedB.questionId, paidA.paymentIntentId);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "This payment does not match your question." });
    expect(await getQuestion(askedB.questionId)).toMatchObject({
      status: "awaiting_payment",
      paymentIntentId: askedB.paymentIntentId,
    });
    expect(await getQuestion(paidA.questionId)).toMatchObject({ status: "pending" });
  });

  it("refuses an unpaid PaymentIntent (the card was never confirmed)", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const asked = await ask(client, expert.expertId);
    const response = await confirm(client, asked.questionId, asked.paymentIntentId);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: "Your payment has not been completed yet.",
      reason: "not_paid",
    });
    expect((await getQuestion(asked.questionId)).status).toBe("awaiting_payment");
  });

  it("refuses a foreign PaymentIntent, even an authorised one", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const asked = await ask(client, expert.expertId);
    const foreign = await stripeFake.createForeign({ amount: 1500, status: "requires_capture" });
    const response = await confirm(client, asked.questionId, foreign.id);
    expect(response.status).toBe(400);
    expect((await getQuestion(asked.questionId)).status).toBe("awaiting_payment");
  });

  it("refuses a PaymentIntent for $1 that claims to pay for the question", async () => {
    const expert = await newExpert("rate", 1500);
    const client = await newClient();
    const asked = await ask(client, expert.expertId);
    const cheap = await stripeFake.createForeign({
      amount: 100,
      status: "requires_capture",
      metadata: { kind: "question", questionId: String(asked.questionId), userId: String(client.userId) },
    });
    const response = await confirm(client, asked.questionId, cheap.id);
    expect(response.status).toBe(400);
    expect(await getQuestion(asked.questionId)).toMatchObject({
      status: "awaiting_payment",
      paymentIntentId: asked.paymentIntentId,
    });
  });

  it("does not let one client confirm another client's question", async () => {
    const expert = await newExpert();
    const owner = await newClient("owner");
    const other = await newClient("other");
    const asked = await ask(owner, expert.expertId);
    await stripeFake.setStatus(asked.paymentIntentId, "requires_capture");
    const response = await confirm(other, asked.questionId, asked.paymentIntentId);
    expect(response.status).toBe(404);
    expect((await getQuestion(asked.questionId)).status).toBe("awaiting_payment");
  });

  it("refuses a confirmation that is not a PaymentIntent id, and one without a session", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const asked = await ask(client, expert.expertId);
    expect((await confirm(client, asked.questionId, "'; drop table questions; --")).status).toBe(400);
    expect(
      (
        await postJson(`/api/questions/${asked.questionId}/payment`, {
          paymentIntentId: asked.paymentIntentId,
        })
      ).status,
    ).toBe(401);
  });
});

describe("capturing and cancelling", () => {
  it("captures the authorised payment when the expert answers, with an idempotency key", async () => {
    const { expert, client, asked } = await paidQuestion();
    const response = await answer(asked.questionId, expert.cookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, payment: "captured" });
    expect(await getQuestion(asked.questionId)).toMatchObject({
      status: "answered",
      paymentState: "captured",
    });
    const line = await getLedger(asked.questionId);
    expect(line).toMatchObject({ status: "captured", lastError: null });
    expect(line.settledAt).toBeInstanceOf(Date);
    expect((await stripeFake.intent(asked.paymentIntentId)).status).toBe("succeeded");
    const capture = (await stripeFake.requests(asked.paymentIntentId)).find((r) =>
      r.path.endsWith("/capture"),
    );
    expect(capture).toMatchObject({
      method: "POST",
      idempotencyKey: `question-${asked.questionId}-capture`,
      status: 200,
    });
    // The asker sees they were charged.
    expect(await (await get(`/questions/${asked.questionId}`, client.cookie)).text()).toContain(
      "Your card was charged $15.00 for this answer.",
    );
  });

  it("does not capture the card for an audio answer nobody could play", async () => {
    const { expert, asked } = await paidQuestion();
    for (const bytes of [new Uint8Array([0x1a, 0x45, 0xdf, 0xa3]), concat(id3Tag(0), randomBytes(2000))]) {
      const form = new FormData();
      form.set("status", "answered");
      form.set("audio", new File([bytes], "answer.webm", { type: "audio/webm" }));
      const response = await postMultipart(`/api/questions/${asked.questionId}/audio`, form, expert.cookie);
      expect(response.status).toBe(415);
      expect(await response.json()).toMatchObject({
        error: "This audio file could not be read. Please record your answer again or choose another file.",
      });
    }
    expect(await getQuestion(asked.questionId)).toMatchObject({
      status: "pending",
      paymentState: "authorized",
      audioResponse: null,
    });
    expect(await getLedger(asked.questionId)).toMatchObject({ status: "authorized" });
    expect((await stripeFake.intent(asked.paymentIntentId)).status).toBe("requires_capture");
    const calls = await stripeFake.requests(asked.paymentIntentId);
    expect(calls.some((r) => r.path.endsWith("/capture"))).toBe(false);
    expect((await env.MEDIA.list({ prefix: `audio/questions/${asked.questionId}/` })).objects).toEqual([]);
  });

  it("keeps the answer when Stripe refuses the capture, shows admins, and captures on retry", async () => {
    const { expert, asked } = await paidQuestion();
    await stripeFake.failNext(asked.paymentIntentId, "capture", "The charge has expired.");
    const response = await answer(asked.questionId, expert.cookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, payment: "capture_failed" });
    expect(await getQuestion(asked.questionId)).toMatchObject({
      status: "answered",
      answer: ANSWER,
      paymentState: "capture_failed",
    });
    expect(await getLedger(asked.questionId)).toMatchObject({
      status: "authorized",
      lastError: "Capture failed: The charge has expired.",
    });

    const admin = await newAdmin();
    const adminPage = await (await get("/admin", admin.cookie)).text();
    expect(adminPage).toContain("Payments needing attention");
    expect(adminPage).toContain(`Question #${asked.questionId}`);
    expect(adminPage).toContain("Capture failed: The charge has expired.");

    expect(
      (await postForm(`/questions/${asked.questionId}/capture`, {}, { cookie: expert.cookie })).status,
    ).toBe(403);
    const retry = await postForm(`/questions/${asked.questionId}/capture`, {}, { cookie: admin.cookie });
    expect(retry.status).toBe(200);
    expect(await getQuestion(asked.questionId)).toMatchObject({ paymentState: "captured" });
    expect(await getLedger(asked.questionId)).toMatchObject({ status: "captured", lastError: null });
    // Stripe replays a saved error for a reused key, so the retry must use a new one.
    const keys = (await stripeFake.requests(asked.paymentIntentId))
      .filter((r) => r.path.endsWith("/capture"))
      .map((r) => r.idempotencyKey);
    expect(keys[0]).toBe(`question-${asked.questionId}-capture`);
    expect(keys.at(-1)).toMatch(new RegExp(`^question-${asked.questionId}-capture-retry-\\d+$`));
    expect(await (await get("/admin", admin.cookie)).text()).not.toContain("Payments needing attention");
  });

  it("never credits the expert for a payment refunded at Stripe before its capture was recorded", async () => {
    const { expert, asked } = await paidQuestion();
    // The capture goes through at Stripe, but its answer is lost: the app records a failed capture.
    await stripeFake.failNext(asked.paymentIntentId, "capture", "Stripe could not be reached.");
    expect(await (await answer(asked.questionId, expert.cookie)).json()).toMatchObject({
      payment: "capture_failed",
    });
    const intent = await stripeFake.setStatus(asked.paymentIntentId, "succeeded");
    // Support refunds the charge in the Dashboard; that event comes before the capture's own.
    const refund = stripeEvent("charge.refunded", refundedCharge(asked.paymentIntentId, 1500));
    expect(await (await sendWebhook(refund)).json()).toMatchObject({ result: "processed" });
    expect(await getLedger(asked.questionId)).toMatchObject({ status: "refunded" });

    await sendWebhook(stripeEvent("payment_intent.succeeded", intent));
    expect(await getLedger(asked.questionId)).toMatchObject({ status: "refunded" });
    // Nor does the admin's retry (Stripe answers "already captured") count it again.
    const admin = await newAdmin();
    await postForm(`/questions/${asked.questionId}/capture`, {}, { cookie: admin.cookie });
    expect(await getLedger(asked.questionId)).toMatchObject({ status: "refunded" });
    expect(await getEarningsSummary(db(), expert.expertId)).toMatchObject({ totalCents: 0 });
  });

  it("takes an authorisation released at Stripe as cancelled, not refunded", async () => {
    const { asked } = await paidQuestion();
    const released = refundedCharge(asked.paymentIntentId, 1500, { captured: false });
    await sendWebhook(stripeEvent("charge.refunded", released));
    expect(await getLedger(asked.questionId)).toMatchObject({ status: "cancelled" });
  });

  it("never puts to the expert a question whose authorisation was released before it was recorded", async () => {
    const expert = await newExpert("released-first", 1500);
    const client = await newClient();
    const asked = await ask(client, expert.expertId);
    const intent = await stripeFake.setStatus(asked.paymentIntentId, "requires_capture");
    const released = refundedCharge(asked.paymentIntentId, 1500, { captured: false });
    await sendWebhook(stripeEvent("charge.refunded", released));
    await sendWebhook(stripeEvent("payment_intent.amount_capturable_updated", intent));
    expect(await getQuestion(asked.questionId)).toMatchObject({ status: "awaiting_payment" });
    expect(await getLedger(asked.questionId)).toMatchObject({ status: "cancelled" });
  });

  it("cancels the authorisation when the expert declines: the asker is never charged", async () => {
    const { expert, client, asked } = await paidQuestion();
    const response = await postForm(`/questions/${asked.questionId}/decline`, {}, { cookie: expert.cookie });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, payment: "cancelled" });
    expect(await getQuestion(asked.questionId)).toMatchObject({
      status: "rejected",
      paymentState: "cancelled",
    });
    expect(await getLedger(asked.questionId)).toMatchObject({ status: "cancelled" });
    const intent = await stripeFake.intent(asked.paymentIntentId);
    expect(intent).toMatchObject({
      status: "canceled",
      amount_received: 0,
      cancellation_reason: "abandoned",
    });
    const cancel = (await stripeFake.requests(asked.paymentIntentId)).find((r) => r.path.endsWith("/cancel"));
    expect(cancel).toMatchObject({
      idempotencyKey: `question-${asked.questionId}-cancel`,
      params: { cancellation_reason: "abandoned" },
    });
    const notes = await notificationsOf(client.userId);
    expect(notes.find((note) => note.kind === "question_declined")?.body).toContain("You were not charged.");
    expect(await (await get(`/questions/${asked.questionId}`, client.cookie)).text()).toContain(
      "The authorisation on your card was cancelled: you were not charged.",
    );
  });

  it("keeps the refusal of a cancellation for a retry, and the question stays declined", async () => {
    const { expert, asked } = await paidQuestion();
    await stripeFake.failNext(asked.paymentIntentId, "cancel", "Stripe is unavailable.");
    const response = await postForm(`/questions/${asked.questionId}/decline`, {}, { cookie: expert.cookie });
    expect(await response.json()).toMatchObject({ ok: true, payment: "cancel_failed" });
    expect(await getQuestion(asked.questionId)).toMatchObject({
      status: "rejected",
      paymentState: "authorized",
    });
    expect(await getLedger(asked.questionId)).toMatchObject({
      status: "authorized",
      lastError: "Cancel failed: Stripe is unavailable.",
    });
  });
});

describe("the card's return and Stripe's webhook at the same moment", () => {
  it("confirms the payment the webhook recorded while Stripe was being asked", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const asked = await ask(client, expert.expertId);
    const intent = await stripeFake.setStatus(asked.paymentIntentId, "requires_capture");
    // The webhook's batch commits between the return's read of the question and its own batch.
    const db = changedBeforeFirstBatch(() =>
      sendWebhook(stripeEvent("payment_intent.amount_capturable_updated", intent)),
    );
    const result = await confirmQuestionPayment(
      { ...depsAt(new Date()), db },
      { userId: client.userId, questionId: asked.questionId, paymentIntentId: asked.paymentIntentId },
    );
    expect(result).toEqual({ ok: true, questionId: asked.questionId });
    expect(await getQuestion(asked.questionId)).toMatchObject({ status: "pending" });
    expect(await getLedger(asked.questionId)).toMatchObject({ status: "authorized" });
  });
});

describe("a question whose asker closes their account as it is paid", () => {
  it("is not made pending, recorded as paid or announced to its expert", async () => {
    const expert = await newExpert();
    const client = await newClient();
    const asked = await ask(client, expert.expertId);
    // The window inside closeAccount: the questions were withdrawn, then the account was deleted; the
    // card's authorisation lands after that.
    await deleteUserAccount(db(), client.userId);
    const intent = await stripeFake.setStatus(asked.paymentIntentId, "requires_capture");
    expect((await sendWebhook(stripeEvent("payment_intent.amount_capturable_updated", intent))).status).toBe(
      200,
    );
    expect((await getQuestion(asked.questionId)).status).toBe("awaiting_payment");
    expect((await getLedger(asked.questionId))?.status ?? "none").not.toBe("authorized");
    expect((await notificationsOf(expert.userId)).map((row) => row.kind)).not.toContain("question_new");
  });
});
