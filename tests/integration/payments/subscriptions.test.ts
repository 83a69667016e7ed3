/**
 * Subscriptions with Stripe configured (issue 7): the whole lifecycle against the local fake of
 * Stripe Billing, webhook events signed with the `stripe` library, and every case of the issue's
 * "Bad input and attacks" list.
 */

import { env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase } from "~/db/client.server";
import { notifications, payments, questions, stripeEvents, users } from "~/db/schema.server";
import { formatUtcDate } from "~/lib/utc-dates";
import { lapseEndedSubscriptions, startSubscription } from "~/models/subscriptions.server";
import { createStripeClient } from "~/services/stripe.server";
import { db, get, insertAccount, postForm } from "../support/accounts";
import {
  getLedger,
  getQuestion,
  newClient,
  newExpert,
  notificationsOf,
  pendingQuestion,
  postJson,
  toastFrom,
} from "../support/questions";
import { outboxTo } from "../support/scheduled";
import { postWebhook, sendWebhook, stripeEvent, stripeFake } from "../support/stripe";
import { FAKE_WRONG_PRICE_ID } from "../support/stripe-fake";
import {
  dashboardHtml,
  newVisitor,
  requestSubscription,
  subscriptionLines,
  userByUsername,
  userCount,
  userRow,
} from "../support/subscriptions";

const QUESTION = "How should I price a monthly retainer for a two-person design studio?";
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A new visitor's subscription, created and waiting for the browser to pay its first invoice. */
async function startAsVisitor() {
  const visitor = newVisitor();
  const { response, body, cookie } = await requestSubscription({ ...visitor, amount: 20 });
  expect(response.status, JSON.stringify(body)).toBe(200);
  const user = (await userByUsername(visitor.username))!;
  const subscription = await stripeFake.subscription(body.subscriptionId!);
  return {
    visitor,
    cookie,
    userId: user.id,
    subscriptionId: body.subscriptionId!,
    clientSecret: body.clientSecret!,
    invoiceId: subscription.latest_invoice as string,
  };
}

/** A subscriber whose first invoice the browser paid and whose return the server saw. */
async function activeSubscriber() {
  const started = await startAsVisitor();
  await stripeFake.payInvoice(started.invoiceId);
  const back = await get("/subscribe/return", started.cookie);
  expect(back.headers.get("Location")).toBe("/thank-you?subscription=true");
  return started;
}

/** Subscribing again is refused as already active, and Stripe made no second subscription. */
async function expectRefusedAsActive(subscriber: { userId: number; cookie: string }) {
  const again = await requestSubscription({}, subscriber.cookie);
  expect(again.response.status).toBe(409);
  expect(again.body.error).toContain("You already have an active subscription.");
  const creations = (await stripeFake.requests((await userRow(subscriber.userId)).stripeCustomerId!)).filter(
    (call) => call.path === "/v1/subscriptions",
  );
  expect(creations).toHaveLength(1);
}

/** The titles and bodies of what the user was told, oldest first. */
const noticesOf = async (userId: number) =>
  (await notificationsOf(userId)).map(({ title, body }) => ({ title, body }));

/** Sends Stripe's events for a change, in the order given, and returns their results. */
async function deliver(...events: Record<string, unknown>[]) {
  const results: string[] = [];
  for (const event of events) {
    const response = await sendWebhook(event);
    expect(response.status).toBe(200);
    results.push(((await response.json()) as { result: string }).result);
  }
  return results;
}

describe("/subscribe with Stripe", () => {
  it("shows SPEC.md's texts, the account fields and the Payment Element, without test-mode texts", async () => {
    const html = await (await get("/subscribe")).text();
    for (const text of [
      "Monthly Subscription",
      "Get unlimited daily questions answered by our experts for $20/month",
      "Subscribe Now",
      "Preparing payment form...",
      "$20.00/month",
    ]) {
      expect(html).toContain(text);
    }
    for (const label of ["Email", "Username", "Password"]) expect(html).toContain(`>${label}</label>`);
    expect(html).not.toContain("Test Mode");
  });

  it("creates and signs in the account first, then the customer and a default_incomplete subscription", async () => {
    const started = await startAsVisitor();
    expect(started.cookie).toMatch(/^__session=/);
    const user = await userRow(started.userId);
    expect(user).toMatchObject({
      stripeSubscriptionId: started.subscriptionId,
      subscriptionStatus: "incomplete",
      subscriptionEndDate: null,
    });
    expect(user.stripeCustomerId).toMatch(/^cus_/);

    const customerCalls = await stripeFake.requests(user.stripeCustomerId!);
    const createCustomer = customerCalls.find((call) => call.path === "/v1/customers")!;
    expect(createCustomer).toMatchObject({
      method: "POST",
      idempotencyKey: `customer-user-${started.userId}-create`,
      params: { email: started.visitor.email, metadata: { userId: String(started.userId) } },
    });
    const [createSubscription] = (await stripeFake.requests(started.subscriptionId)).filter(
      (call) => call.method === "POST" && call.path === "/v1/subscriptions",
    );
    expect(createSubscription.params).toEqual({
      customer: user.stripeCustomerId,
      items: { 0: { price: env.STRIPE_SUBSCRIPTION_PRICE_ID } },
      payment_behavior: "default_incomplete",
      payment_settings: { save_default_payment_method: "on_subscription" },
      expand: { 0: "latest_invoice.confirmation_secret" },
      metadata: { kind: "subscription", userId: String(started.userId) },
    });
    expect(createSubscription.idempotencyKey).toBe(`subscription-user-${started.userId}-create-after-none`);

    // The client secret is the first invoice's: its PaymentIntent is for $20.00, confirmed by the browser.
    const intent = await stripeFake.intent(started.clientSecret.split("_secret_")[0]);
    expect(intent).toMatchObject({ amount: 2000, currency: "usd", status: "requires_payment_method" });
    // Not active before it is paid: questions are still paid one at a time.
    expect(await (await get("/ask", started.cookie)).text()).toContain("Pay $5.00");
  });

  it("activates when the browser comes back after paying, with the invoice in the ledger", async () => {
    const started = await startAsVisitor();
    const paid = await stripeFake.payInvoice(started.invoiceId);
    const back = await get(
      "/subscribe/return?payment_intent=pi_ignored&redirect_status=succeeded",
      started.cookie,
    );
    expect(back.status).toBe(302);
    expect(back.headers.get("Location")).toBe("/thank-you?subscription=true");
    expect(toastFrom(back)).toMatchObject({ title: "Success!" });

    const periodEnd = paid.subscription!.items.data[0].current_period_end;
    expect(await userRow(started.userId)).toMatchObject({
      subscriptionStatus: "active",
      subscriptionEndDate: new Date(periodEnd * 1000),
      subscriptionCancelAtPeriodEnd: false,
    });
    expect(await subscriptionLines(started.userId)).toEqual([
      expect.objectContaining({ stripeInvoiceId: started.invoiceId, amount: 2000, status: "captured" }),
    ]);
    const thanks = await (await get("/thank-you?subscription=true", started.cookie)).text();
    expect(thanks).toContain("Subscription Activated!");
    expect(thanks).toContain("one new question per day");

    // A receipt, in the app and by e-mail; the invoice's webhook, arriving after, sends no second.
    const receipt = {
      title: "Subscription payment received",
      body: `We received $20.00 for your monthly subscription. It is paid until ${formatUtcDate(periodEnd * 1000)}.`,
    };
    expect(await noticesOf(started.userId)).toEqual([receipt]);
    await deliver(stripeEvent("invoice.paid", paid.invoice));
    expect(await noticesOf(started.userId)).toEqual([receipt]);
    expect(await outboxTo(started.visitor.email)).toEqual([
      expect.objectContaining({ subject: "Subscription payment received" }),
    ]);
  });

  it("activates from Stripe's webhooks alone when the browser never comes back", async () => {
    const started = await startAsVisitor();
    const paid = await stripeFake.payInvoice(started.invoiceId);
    expect(
      await deliver(
        stripeEvent("customer.subscription.updated", paid.subscription),
        stripeEvent("invoice.paid", paid.invoice),
      ),
    ).toEqual(["processed", "processed"]);
    const user = await userRow(started.userId);
    expect(user.subscriptionStatus).toBe("active");
    expect(user.subscriptionEndDate!.getTime()).toBe(
      paid.subscription!.items.data[0].current_period_end * 1000,
    );
    expect(await subscriptionLines(started.userId)).toHaveLength(1);
    // The browser's late return agrees and changes nothing.
    expect((await get("/subscribe/return", started.cookie)).headers.get("Location")).toBe(
      "/thank-you?subscription=true",
    );
    expect(await subscriptionLines(started.userId)).toHaveLength(1);
  });

  it("activates from the webhooks of the same second after a return that still saw the invoice unpaid", async () => {
    const started = await startAsVisitor();
    const second = nowSeconds();
    // The browser comes back a moment before Stripe has taken the payment.
    const back = await get("/subscribe/return", started.cookie);
    expect(back.headers.get("Location")).toBe("/subscribe");
    expect((await userRow(started.userId)).subscriptionStatus).toBe("incomplete");
    // Stripe's events carry whole seconds: those of the payment are of the second the return read in.
    const paid = await stripeFake.payInvoice(started.invoiceId);
    expect(
      await deliver(
        stripeEvent("customer.subscription.updated", paid.subscription, { created: second }),
        stripeEvent("invoice.paid", paid.invoice, { created: second }),
      ),
    ).toEqual(["processed", "processed"]);
    expect(await userRow(started.userId)).toMatchObject({
      subscriptionStatus: "active",
      subscriptionEndDate: new Date(paid.subscription!.items.data[0].current_period_end * 1000),
    });
    expect(await dashboardHtml(started.cookie)).not.toContain("Your first payment was not completed");
  });

  it("lets a signed-in client subscribe without account fields, ignoring any amount sent", async () => {
    const client = await newClient("signed-in");
    const { response, body } = await requestSubscription({ amount: 1 }, client.cookie);
    expect(response.status).toBe(200);
    expect(body.status).toBe("requires_payment");
    const intent = await stripeFake.intent(body.clientSecret!.split("_secret_")[0]);
    expect(intent.amount).toBe(2000);
    const html = await (await get("/subscribe", client.cookie)).text();
    expect(html).toContain("Signed in as");
    expect(html).not.toContain(">Username</label>");
  });

  it("refuses a taken username with a clear message, creating no account and no Stripe customer", async () => {
    const taken = newVisitor("taken");
    await insertAccount(taken.username, "someone-else-1");
    const visitor = { ...newVisitor(), username: taken.username.toUpperCase() };
    const before = await userCount();
    const { response, body, cookie } = await requestSubscription(visitor);
    expect(response.status).toBe(409);
    expect(body.error).toBe("That username is already taken");
    expect(body.fieldErrors).toEqual({ username: ["That username is already taken"] });
    expect(cookie).toBe("");
    expect(await userCount()).toBe(before);
    expect(await stripeFake.customersWithEmail(visitor.email)).toEqual([]);
  });

  it("refuses an invalid e-mail and a short password or username with SPEC.md's messages, changing nothing", async () => {
    const before = await userCount();
    const cases: [Record<string, string>, Record<string, string[]>][] = [
      [{ email: "not-an-email" }, { email: ["Please enter a valid email address"] }],
      [{ password: "12345" }, { password: ["Password must be at least 6 characters"] }],
      [{ username: "ab" }, { username: ["Username must be at least 3 characters"] }],
    ];
    for (const [change, fieldErrors] of cases) {
      const visitor = { ...newVisitor("bad"), ...change };
      const { response, body } = await requestSubscription(visitor);
      expect(response.status, JSON.stringify(change)).toBe(400);
      expect(body.fieldErrors).toEqual(fieldErrors);
      expect(await stripeFake.customersWithEmail(visitor.email)).toEqual([]);
    }
    expect(await userCount()).toBe(before);
    // The form post (without JavaScript) refuses the same, and says a card needs JavaScript.
    const form = await postForm("/subscribe", { email: "nope", username: "ab", password: "1" });
    expect(form.status).toBe(400);
    const html = await form.text();
    expect(html).toContain("Please enter a valid email address");
    expect(html).toContain("Username must be at least 3 characters");
    expect(html).toContain("Password must be at least 6 characters");
    const noScript = await postForm("/subscribe", newVisitor("noscript"));
    expect(noScript.status).toBe(400);
    expect(await noScript.text()).toContain("Please enable JavaScript to pay for your subscription.");
    expect(await userCount()).toBe(before);
  });

  it("refuses to subscribe twice while a subscription is active", async () => {
    const subscriber = await activeSubscriber();
    await expectRefusedAsActive(subscriber);
    const html = await (await get("/subscribe", subscriber.cookie)).text();
    expect(html).toContain("You already have an active subscription.");
    expect(html).not.toContain("Subscribe Now");
  });

  it("keeps the same subscription for a retry after a declined first payment", async () => {
    const started = await startAsVisitor();
    await stripeFake.failInvoice(started.invoiceId);
    const back = await get("/subscribe/return", started.cookie);
    expect(back.headers.get("Location")).toBe("/subscribe");
    expect(toastFrom(back)).toMatchObject({ title: "Payment Failed", variant: "destructive" });
    expect((await userRow(started.userId)).subscriptionStatus).toBe("incomplete");

    const retry = await requestSubscription({}, started.cookie);
    expect(retry.response.status).toBe(200);
    expect(retry.body).toMatchObject({
      subscriptionId: started.subscriptionId,
      clientSecret: started.clientSecret,
    });
    await stripeFake.payInvoice(started.invoiceId);
    expect((await get("/subscribe/return", started.cookie)).headers.get("Location")).toBe(
      "/thank-you?subscription=true",
    );
  });

  it("says SPEC.md's error when Stripe fails, keeps the new account signed in, and a retry works", async () => {
    const client = await newClient("stripe-down");
    // Twice: the first failure is saved under the idempotency key, the fresh key fails again.
    await stripeFake.failNextCreate(client.userId, 2);
    const failed = await requestSubscription({}, client.cookie);
    expect(failed.response.status).toBe(502);
    expect(failed.body).toEqual({
      error: "Failed to initialize subscription. Please try again.",
      signedIn: true,
    });
    expect((await userRow(client.userId)).subscriptionStatus).toBeNull();
    const retry = await requestSubscription({}, client.cookie);
    expect(retry.response.status).toBe(200);
    expect(retry.body.clientSecret).toBeTruthy();
  });

  it("never charges a price other than $20/month: a misconfigured price is refused and its subscription ended", async () => {
    const { userId } = await insertAccount(newVisitor("price").username, "price-pass-1");
    const stripe = createStripeClient({
      secretKey: env.STRIPE_SECRET_KEY as string,
      apiBase: env.STRIPE_API_BASE as string,
    });
    const result = await startSubscription(
      { db: createDatabase(env.DB), stripe, priceId: FAKE_WRONG_PRICE_ID, now: new Date() },
      userId,
    );
    expect(result).toEqual({
      status: "refused",
      httpStatus: 502,
      message: "Failed to initialize subscription. Please try again.",
    });
    const user = await userRow(userId);
    expect(user.stripeSubscriptionId).toBeNull();
    const [creation] = (await stripeFake.requests(user.stripeCustomerId!)).filter(
      (call) => call.path === "/v1/subscriptions",
    );
    const subscriptionId = creation.objects[0];
    expect((await stripeFake.subscription(subscriptionId)).status).toBe("canceled");
  });
});

describe("asking as a Stripe subscriber", () => {
  it("asks one question a day without paying; the expert is owed the standard fee; the next is tomorrow", async () => {
    const subscriber = await activeSubscriber();
    const expert = await newExpert("sub-rate", 1800);
    const page = await (await get(`/ask/${expert.expertId}`, subscriber.cookie)).text();
    expect(page).toContain("Included in your subscription: 1 question left today.");
    expect(page).not.toContain("Preparing payment form...");

    const asked = await postForm(
      `/ask/${expert.expertId}`,
      { question: QUESTION },
      { cookie: subscriber.cookie },
    );
    expect(asked.status).toBe(302);
    const questionId = Number(
      new URL(asked.headers.get("Location")!, "https://x").searchParams.get("question"),
    );
    expect(await getQuestion(questionId)).toMatchObject({
      status: "pending",
      paymentState: "subscription",
      amount: 0,
      paymentIntentId: null,
    });
    expect(await getLedger(questionId)).toMatchObject({
      kind: "subscription_question",
      amount: 500,
      expertId: expert.expertId,
    });
    const after = await (await get(`/ask/${expert.expertId}`, subscriber.cookie)).text();
    expect(after).toContain("Your next question is available tomorrow");
    expect(await dashboardHtml(subscriber.cookie)).toContain("0 questions left today");
  });

  it("credits no 30 days of a subscriber's questions more than the month's $20: the fee, then the rest, then nothing", async () => {
    const subscriber = await activeSubscriber();
    const expert = await newExpert("sub-credit", 1800);
    const dayAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
    // Earlier days' answers: $18.00 within the last 30 days, and $5.00 from 40 days ago, which no
    // 30 days with today in them reach.
    for (const [days, amount] of [
      [1, 500],
      [2, 500],
      [3, 500],
      [4, 300],
      [40, 500],
    ]) {
      const earlier = await pendingQuestion(subscriber.userId, expert.expertId, {
        status: "answered",
        answer: "An earlier day's answer.",
        paymentState: "subscription",
        subscriptionDay: dayAgo(days),
      });
      await db().insert(payments).values({
        kind: "subscription_question",
        status: "captured",
        amount,
        userId: subscriber.userId,
        expertId: expert.expertId,
        questionId: earlier.id,
        settledAt: new Date(),
      });
    }
    const askAndAnswer = async (question: string) => {
      const asked = await postForm(`/ask/${expert.expertId}`, { question }, { cookie: subscriber.cookie });
      expect(asked.status).toBe(302);
      const questionId = Number(
        new URL(asked.headers.get("Location")!, "https://x").searchParams.get("question"),
      );
      expect(await getLedger(questionId)).toMatchObject({ status: "authorized", amount: 500 });
      const answered = await postForm(
        `/questions/${questionId}/answer`,
        { answer: "A full answer, long enough to send.", status: "answered" },
        { cookie: expert.cookie },
      );
      expect(answered.status).toBe(200);
      return { questionId, line: await getLedger(questionId) };
    };

    const first = await askAndAnswer(QUESTION);
    expect(first.line).toMatchObject({ status: "captured", amount: 200 });
    // Today's question moved to five days ago frees today: a second one within the same 30 days earns nothing.
    await db()
      .update(questions)
      .set({ subscriptionDay: dayAgo(5) })
      .where(eq(questions.id, first.questionId));
    const second = await askAndAnswer("And a second question, on another day?");
    expect(second.line).toMatchObject({ status: "captured", amount: 0 });
  });

  it("accepts exactly one of two questions posted at the same instant", async () => {
    const subscriber = await activeSubscriber();
    const expert = await newExpert("race", 1500);
    const responses = await Promise.all(
      [1, 2].map((n) =>
        postJson(
          "/api/questions",
          { question: `${QUESTION} (${n})`, expertId: expert.expertId },
          subscriber.cookie,
        ),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
    const rows = await db().select().from(questions).where(eq(questions.userId, subscriber.userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "pending", paymentState: "subscription" });
    const lines = await db().select().from(payments).where(eq(payments.questionId, rows[0].id));
    expect(lines).toHaveLength(1);
  });
});

describe("Stripe's subscription webhooks", () => {
  it("renews: the period moves on and the new invoice joins the ledger", async () => {
    const subscriber = await activeSubscriber();
    const firstEnd = (await userRow(subscriber.userId)).subscriptionEndDate!;
    const renewed = await stripeFake.renew(subscriber.subscriptionId);
    const later = nowSeconds() + 5;
    await deliver(
      stripeEvent("customer.subscription.updated", renewed.subscription, { created: later }),
      stripeEvent("invoice.paid", renewed.invoice, { created: later }),
    );
    const user = await userRow(subscriber.userId);
    expect(user.subscriptionStatus).toBe("active");
    expect(user.subscriptionEndDate!.getTime()).toBe(
      renewed.subscription!.items.data[0].current_period_end * 1000,
    );
    expect(user.subscriptionEndDate!.getTime()).toBeGreaterThan(firstEnd.getTime());
    expect((await subscriptionLines(subscriber.userId)).map((line) => line.stripeInvoiceId)).toEqual([
      subscriber.invoiceId,
      renewed.invoice.id,
    ]);
    // One receipt per paid invoice, the renewal's with the new period's end.
    expect((await noticesOf(subscriber.userId)).map(({ body }) => body)).toEqual([
      `We received $20.00 for your monthly subscription. It is paid until ${formatUtcDate(firstEnd)}.`,
      `We received $20.00 for your monthly subscription. It is paid until ${formatUtcDate(user.subscriptionEndDate!)}.`,
    ]);
  });

  it("makes a subscriber whose renewal failed ask as a paying client", async () => {
    const subscriber = await activeSubscriber();
    const failed = await stripeFake.renew(subscriber.subscriptionId, { decline: true });
    const later = nowSeconds() + 5;
    expect(
      await deliver(
        stripeEvent("invoice.payment_failed", failed.invoice, { created: later }),
        stripeEvent("customer.subscription.updated", failed.subscription, { created: later }),
      ),
    ).toEqual(["processed", "processed"]);
    expect((await userRow(subscriber.userId)).subscriptionStatus).toBe("past_due");
    const [line] = (await subscriptionLines(subscriber.userId)).filter(
      (entry) => entry.stripeInvoiceId === failed.invoice.id,
    );
    expect(line).toMatchObject({ status: "failed", amount: 2000 });
    const told = await db().select().from(notifications).where(eq(notifications.userId, subscriber.userId));
    expect(told.map((notification) => notification.title)).toContain("Your subscription payment failed");

    const expert = await newExpert("past-due", 2200);
    const page = await (await get(`/ask/${expert.expertId}`, subscriber.cookie)).text();
    expect(page).toContain("Pay $22.00 and get your personalized expert answer within 24 hours");
    expect(page).toContain("last payment failed, so this question is paid on its own");
    const asked = await postJson(
      "/api/questions",
      { question: QUESTION, expertId: expert.expertId },
      subscriber.cookie,
    );
    expect(asked.status).toBe(200);
    const body = (await asked.json()) as { status: string; questionId: number; amount: number };
    expect(body).toMatchObject({ status: "requires_payment", amount: 2200 });
    expect((await getQuestion(body.questionId)).paymentState).toBe("none");
    const pastDue = await dashboardHtml(subscriber.cookie);
    expect(pastDue).toContain("Your last payment failed.");
    // Not "Ended on" a date still to come: the unpaid period has no end yet.
    expect(pastDue).not.toContain("Ended on");

    // Subscribing again replaces the failing subscription instead of billing two.
    const again = await requestSubscription({}, subscriber.cookie);
    expect(again.response.status).toBe(200);
    expect(again.body.subscriptionId).not.toBe(subscriber.subscriptionId);
    expect((await stripeFake.subscription(subscriber.subscriptionId)).status).toBe("canceled");
    expect(await userRow(subscriber.userId)).toMatchObject({
      stripeSubscriptionId: again.body.subscriptionId,
      subscriptionStatus: "incomplete",
    });
    // The old subscription's deletion, arriving late, changes nothing.
    const old = await stripeFake.subscription(subscriber.subscriptionId);
    await deliver(stripeEvent("customer.subscription.deleted", old, { created: later + 5 }));
    expect((await userRow(subscriber.userId)).subscriptionStatus).toBe("incomplete");
  });

  it("never starts a second subscription while the first still renews at Stripe, its webhook late", async () => {
    const subscriber = await activeSubscriber();
    await stripeFake.renew(subscriber.subscriptionId);
    // The renewal's webhooks have not arrived and the paid period has ended here: the row lapses.
    await db()
      .update(users)
      .set({ subscriptionEndDate: new Date(Date.now() - 1000) })
      .where(eq(users.id, subscriber.userId));
    expect(await lapseEndedSubscriptions(db(), new Date())).toContain(subscriber.userId);
    // Not told it ended: Stripe's own deletion event says so, and here the renewal comes instead.
    expect((await noticesOf(subscriber.userId)).map((notice) => notice.title)).not.toContain(
      "Your subscription has ended",
    );

    await expectRefusedAsActive(subscriber);
    expect((await stripeFake.subscription(subscriber.subscriptionId)).status).toBe("active");
    const row = await userRow(subscriber.userId);
    expect(row).toMatchObject({
      stripeSubscriptionId: subscriber.subscriptionId,
      subscriptionStatus: "active",
    });
    expect(row.subscriptionEndDate!.getTime()).toBeGreaterThan(Date.now());
  });

  it("says the subscription ended, once, when Stripe's deletion comes after the scheduled lapse", async () => {
    const subscriber = await activeSubscriber();
    await db()
      .update(users)
      .set({ subscriptionEndDate: new Date(Date.now() - 1000) })
      .where(eq(users.id, subscriber.userId));
    expect(await lapseEndedSubscriptions(db(), new Date())).toContain(subscriber.userId);
    const ended = await stripeFake.end(subscriber.subscriptionId);
    const deletion = stripeEvent("customer.subscription.deleted", ended, { created: nowSeconds() + 5 });
    await deliver(deletion);
    await sendWebhook(deletion);
    expect((await userRow(subscriber.userId)).subscriptionStatus).toBe("canceled");
    expect(
      (await noticesOf(subscriber.userId)).filter((notice) => notice.title === "Your subscription has ended"),
    ).toEqual([
      expect.objectContaining({ body: expect.stringContaining("Questions are now paid one at a time") }),
    ]);
  });

  it("logs and acknowledges an event for an unknown customer, changing nothing", async () => {
    const subscriber = await activeSubscriber();
    const renewed = await stripeFake.renew(subscriber.subscriptionId);
    const usersBefore = await db().select().from(users);
    const linesBefore = await db().select().from(payments);
    for (const [type, object] of [
      ["invoice.paid", { ...renewed.invoice, customer: "cus_nobody_we_know" }],
      ["customer.subscription.deleted", { ...renewed.subscription, customer: "cus_nobody_we_know" }],
    ] as const) {
      const response = await sendWebhook(stripeEvent(type, object));
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        received: true,
        result: "ignored",
        note: "unknown customer",
      });
    }
    expect(await db().select().from(users)).toEqual(usersBefore);
    expect(await db().select().from(payments)).toEqual(linesBefore);
  });

  it("processes the same event delivered twice once", async () => {
    const started = await startAsVisitor();
    const paid = await stripeFake.payInvoice(started.invoiceId);
    const event = stripeEvent("invoice.paid", paid.invoice);
    expect(await deliver(event, event)).toEqual(["processed", "duplicate"]);
    const concurrent = stripeEvent("invoice.paid", paid.invoice);
    const results = await Promise.all([sendWebhook(concurrent), sendWebhook(concurrent)]);
    const outcomes = await Promise.all(results.map((r) => r.json() as Promise<{ result: string }>));
    expect(outcomes.map((outcome) => outcome.result).sort()).toEqual(["duplicate", "processed"]);
    expect(await subscriptionLines(started.userId)).toHaveLength(1);
    const recorded = await db()
      .select({ n: sql<number>`count(*)` })
      .from(stripeEvents)
      .where(eq(stripeEvents.id, event.id as string));
    expect(recorded[0].n).toBe(1);
  });

  it("never rolls back: a deleted before an older updated stays ended, and an older update is ignored", async () => {
    const subscriber = await activeSubscriber();
    const base = nowSeconds() + 10;
    const active = await stripeFake.subscription(subscriber.subscriptionId);

    // Two updates arrive newest first: the older one (cancel_at_period_end false) changes nothing.
    const cancelling = {
      ...active,
      cancel_at_period_end: true,
      cancel_at: active.items.data[0].current_period_end,
    };
    expect(
      await deliver(
        stripeEvent("customer.subscription.updated", cancelling, { created: base + 1 }),
        stripeEvent("customer.subscription.updated", active, { created: base }),
      ),
    ).toEqual(["processed", "processed"]);
    expect((await userRow(subscriber.userId)).subscriptionCancelAtPeriodEnd).toBe(true);

    // The deletion arrives before an (older) update that still says active: it stays ended.
    const ended = await stripeFake.end(subscriber.subscriptionId);
    await deliver(
      stripeEvent("customer.subscription.deleted", ended, { created: base + 3 }),
      stripeEvent("customer.subscription.updated", active, { created: base + 2 }),
    );
    const user = await userRow(subscriber.userId);
    expect(user).toMatchObject({ subscriptionStatus: "canceled", subscriptionCancelAtPeriodEnd: false });
    expect(user.subscriptionEndDate!.getTime()).toBe(ended.ended_at! * 1000);
    // Even a paid invoice of the ended subscription, arriving late, never brings it back.
    const lateInvoice = await stripeFake.invoice(subscriber.invoiceId);
    await deliver(stripeEvent("invoice.paid", lateInvoice, { created: base + 4 }));
    expect((await userRow(subscriber.userId)).subscriptionStatus).toBe("canceled");
    expect(await (await get("/ask", subscriber.cookie)).text()).toContain("Pay $5.00");
  });

  it("refuses a bad signature with 400 and changes nothing", async () => {
    const started = await startAsVisitor();
    const paid = await stripeFake.payInvoice(started.invoiceId);
    const event = stripeEvent("invoice.paid", paid.invoice);
    const payload = JSON.stringify(event);
    const attempts = [
      await sendWebhook(event, { secret: "whsec_somebodyElsesSecret" }),
      await sendWebhook(event, { signatureFor: JSON.stringify({ ...event, id: "evt_other" }) }),
      await postWebhook(payload, "t=1,v1=deadbeef"),
      await postWebhook(payload, null),
    ];
    expect(attempts.map((response) => response.status)).toEqual([400, 400, 400, 400]);
    expect((await userRow(started.userId)).subscriptionStatus).toBe("incomplete");
    expect(await subscriptionLines(started.userId)).toEqual([]);
    const recorded = await db()
      .select()
      .from(stripeEvents)
      .where(eq(stripeEvents.id, event.id as string));
    expect(recorded).toEqual([]);
  });
});

describe("cancelling and resuming from the dashboard", () => {
  it("cancels at the end of the period at Stripe, says so until then, and resumes before that date", async () => {
    const subscriber = await activeSubscriber();
    let html = await dashboardHtml(subscriber.cookie);
    expect(html).toContain("Monthly Subscription");
    expect(html).toContain("Renews on");
    expect(html).toContain("1 question left today");
    expect(html).toContain("Cancel subscription");

    const cancel = await postForm(
      "/dashboard?index",
      { intent: "cancel-subscription" },
      { cookie: subscriber.cookie },
    );
    expect(cancel.status).toBe(302);
    expect(toastFrom(cancel)).toMatchObject({ title: "Subscription cancelled" });
    expect((await stripeFake.subscription(subscriber.subscriptionId)).cancel_at_period_end).toBe(true);
    const user = await userRow(subscriber.userId);
    expect(user).toMatchObject({ subscriptionStatus: "active", subscriptionCancelAtPeriodEnd: true });
    html = await dashboardHtml(subscriber.cookie);
    expect(html).toContain("Cancels on");
    expect(html).toContain("Resume");
    // Still a subscriber until the end of the period.
    expect(await (await get("/ask", subscriber.cookie)).text()).toContain("1 question left today");

    const twice = await postForm(
      "/dashboard?index",
      { intent: "cancel-subscription" },
      { cookie: subscriber.cookie },
    );
    expect(toastFrom(twice)).toMatchObject({ variant: "destructive" });

    const resume = await postForm(
      "/dashboard?index",
      { intent: "resume-subscription" },
      { cookie: subscriber.cookie },
    );
    expect(toastFrom(resume)).toMatchObject({ title: "Subscription resumed" });
    expect((await stripeFake.subscription(subscriber.subscriptionId)).cancel_at_period_end).toBe(false);
    expect((await userRow(subscriber.userId)).subscriptionCancelAtPeriodEnd).toBe(false);
    expect(await dashboardHtml(subscriber.cookie)).toContain("Renews on");

    // The cancellation and the resumption are confirmed in writing, once each (the refused second
    // cancellation tells nothing).
    const endDate = formatUtcDate(user.subscriptionEndDate!);
    expect((await noticesOf(subscriber.userId)).slice(1)).toEqual([
      {
        title: "Your subscription will end",
        body: `You cancelled your monthly subscription. You keep your daily question until ${endDate}; you can resume the subscription from your dashboard before then.`,
      },
      {
        title: "Your subscription will renew",
        body: `You resumed your monthly subscription. It renews on ${endDate} for $20.00.`,
      },
    ]);
  });

  it("ends the free questions when Stripe deletes the subscription at the end of the period", async () => {
    const subscriber = await activeSubscriber();
    await postForm("/dashboard?index", { intent: "cancel-subscription" }, { cookie: subscriber.cookie });
    const ended = await stripeFake.end(subscriber.subscriptionId);
    await deliver(stripeEvent("customer.subscription.deleted", ended, { created: nowSeconds() + 5 }));
    expect((await userRow(subscriber.userId)).subscriptionStatus).toBe("canceled");
    const html = await dashboardHtml(subscriber.cookie);
    expect(html).toContain("Canceled");
    expect(html).toContain("Subscribe again");
    expect(await (await get("/ask", subscriber.cookie)).text()).toContain("Pay $5.00");
    const resume = await postForm(
      "/dashboard?index",
      { intent: "resume-subscription" },
      { cookie: subscriber.cookie },
    );
    expect(toastFrom(resume)).toMatchObject({ description: "You don't have an active subscription." });

    // Subscribing again after it ended starts a new subscription for the same customer.
    const again = await requestSubscription({}, subscriber.cookie);
    expect(again.response.status).toBe(200);
    expect(again.body.subscriptionId).not.toBe(subscriber.subscriptionId);
    expect((await userRow(subscriber.userId)).stripeSubscriptionId).toBe(again.body.subscriptionId);
  });

  /** A subscriber whose renewal the card refused, as the webhooks told the app. */
  async function pastDueSubscriber() {
    const subscriber = await activeSubscriber();
    const failed = await stripeFake.renew(subscriber.subscriptionId, { decline: true });
    const created = nowSeconds();
    await deliver(
      stripeEvent("invoice.payment_failed", failed.invoice, { created }),
      stripeEvent("customer.subscription.updated", failed.subscription, { created }),
    );
    expect((await userRow(subscriber.userId)).subscriptionStatus).toBe("past_due");
    return { ...subscriber, failedInvoiceId: failed.invoice.id, later: created };
  }

  it("ends a past-due subscription at once, so Stripe stops retrying the card", async () => {
    const subscriber = await pastDueSubscriber();
    const html = await dashboardHtml(subscriber.cookie);
    expect(html).toContain("Your last payment failed.");
    expect(html).toContain("Cancel subscription");
    expect(html).toContain("the payment that failed will not be taken");

    const cancel = await postForm(
      "/dashboard?index",
      { intent: "cancel-subscription" },
      { cookie: subscriber.cookie },
    );
    expect(toastFrom(cancel)).toMatchObject({
      title: "Subscription cancelled",
      description: "Your subscription has ended, and the failed payment will not be taken.",
    });
    const atStripe = await stripeFake.subscription(subscriber.subscriptionId);
    expect(atStripe.status).toBe("canceled");
    expect(await userRow(subscriber.userId)).toMatchObject({
      subscriptionStatus: "canceled",
      subscriptionCancelAtPeriodEnd: false,
    });
    const ended = {
      title: "Your subscription has ended",
      body: "You cancelled your monthly subscription after its last payment failed. That payment will not be taken; questions are paid one at a time until you subscribe again.",
    };
    expect((await noticesOf(subscriber.userId)).filter((notice) => notice.title === ended.title)).toEqual([
      ended,
    ]);
    // Stripe's deletion event agrees and tells nobody a second time.
    await deliver(stripeEvent("customer.subscription.deleted", atStripe, { created: subscriber.later + 1 }));
    expect(
      (await noticesOf(subscriber.userId)).filter((notice) => notice.title === ended.title),
    ).toHaveLength(1);
    expect(await dashboardHtml(subscriber.cookie)).toContain("Subscribe again");
    // Nothing is left to cancel.
    const again = await postForm(
      "/dashboard?index",
      { intent: "cancel-subscription" },
      { cookie: subscriber.cookie },
    );
    expect(toastFrom(again)).toMatchObject({
      variant: "destructive",
      description: "You don't have an active subscription.",
    });
  });

  it("cancels at the end of the period instead when the card's retry went through before its webhook", async () => {
    const subscriber = await pastDueSubscriber();
    await stripeFake.payInvoice(subscriber.failedInvoiceId);
    const cancel = await postForm(
      "/dashboard?index",
      { intent: "cancel-subscription" },
      { cookie: subscriber.cookie },
    );
    expect(toastFrom(cancel)).toMatchObject({ title: "Subscription cancelled" });
    expect(toastFrom(cancel)?.description).toContain("stays active until");
    const atStripe = await stripeFake.subscription(subscriber.subscriptionId);
    expect(atStripe).toMatchObject({ status: "active", cancel_at_period_end: true });
    expect(await userRow(subscriber.userId)).toMatchObject({
      subscriptionStatus: "active",
      subscriptionCancelAtPeriodEnd: true,
      subscriptionEndDate: new Date(atStripe.items.data[0].current_period_end * 1000),
    });
  });

  it("refuses an unknown dashboard action with 400", async () => {
    const client = await newClient();
    const response = await postForm(
      "/dashboard?index",
      { intent: "refund-everything" },
      { cookie: client.cookie },
    );
    expect(response.status).toBe(400);
  });
});

describe("deleting the account of a subscriber", () => {
  it("ends the Stripe subscription first, so a deleted person is never billed again", async () => {
    const subscriber = await activeSubscriber();
    const refused = await stripeFake.failNextCancel(subscriber.subscriptionId);
    expect(refused).toEqual({ ok: true });
    const failed = await postForm("/dashboard/settings", { intent: "delete" }, { cookie: subscriber.cookie });
    expect(failed.headers.get("Location")).toBe("/dashboard/settings");
    expect(toastFrom(failed)).toMatchObject({ title: "Account deletion failed.", variant: "destructive" });
    expect((await userRow(subscriber.userId)).deletedAt).toBeNull();
    expect((await stripeFake.subscription(subscriber.subscriptionId)).status).toBe("active");

    const deleted = await postForm(
      "/dashboard/settings",
      { intent: "delete" },
      { cookie: subscriber.cookie },
    );
    expect(deleted.headers.get("Location")).toBe("/");
    expect((await stripeFake.subscription(subscriber.subscriptionId)).status).toBe("canceled");
    const user = await userRow(subscriber.userId);
    expect(user.deletedAt).not.toBeNull();
    expect(user.subscriptionStatus).toBe("canceled");
    // Stripe's deletion event, arriving afterwards, is harmless.
    const ended = await stripeFake.subscription(subscriber.subscriptionId);
    expect(await deliver(stripeEvent("customer.subscription.deleted", ended))).toEqual(["processed"]);
  });
});
