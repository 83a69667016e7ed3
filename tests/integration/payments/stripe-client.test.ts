/**
 * The app's Stripe client (app/services/stripe.server.ts) against the official `stripe` library:
 * for every call the app makes, both send the same request to the Stripe fake (method, path, form
 * parameters, API version, content type), get the same object back, and fail the same way; the
 * webhook check accepts and refuses exactly the signature headers the library does.
 */
import { env } from "cloudflare:test";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import {
  createStripeClient,
  encodeStripeParams,
  STRIPE_API_VERSION,
  StripeApiError,
  type StripeClient,
  verifyStripeSignature,
  WebhookSignatureError,
} from "~/services/stripe.server";
import { type RecordedRequest, stripeFake } from "../support/stripe";
import { FAKE_SUBSCRIPTION_PRICE_ID } from "../support/stripe-fake";

const ours = (): StripeClient =>
  createStripeClient({ secretKey: env.STRIPE_SECRET_KEY as string, apiBase: env.STRIPE_API_BASE as string });

const library = () => {
  const base = new URL(env.STRIPE_API_BASE as string);
  return new Stripe(env.STRIPE_SECRET_KEY as string, {
    httpClient: Stripe.createFetchHttpClient(),
    host: base.hostname,
    port: base.port || 80,
    protocol: "http",
  });
};

let counter = Math.floor(Math.random() * 1_000_000_000);
const key = (label: string) => `client-check-${label}-${++counter}`;

/** What the fake saw of a request, without what legitimately differs (keys, replays, timing). */
const shape = (request: RecordedRequest) => ({
  method: request.method,
  path: request.path.replace(/(pi|cus|sub|re)_fake_\w+/g, "$1_ID"),
  params: request.params,
  stripeVersion: request.stripeVersion,
  contentType: request.contentType,
  status: request.status,
});

/** The request that created or last touched `objectId`, of the given method and path ending. */
async function lastRequest(objectId: string, method: string, pathEnd: RegExp) {
  const requests = (await stripeFake.requests(objectId)).filter(
    (request) => request.method === method && pathEnd.test(request.path),
  );
  expect(requests.length).toBeGreaterThan(0);
  return requests[requests.length - 1];
}

const intentParams = (userId: string) =>
  ({
    amount: 2_500,
    currency: "usd",
    capture_method: "manual",
    automatic_payment_methods: { enabled: true },
    metadata: { kind: "question", questionId: userId, userId },
    description: "Question for Dana (a & b = c?)",
    receipt_email: "client+tag@example.com",
  }) as const;

describe("the Stripe client, beside the stripe library", () => {
  it("uses the API version of the stripe package's types", () => {
    expect(STRIPE_API_VERSION).toBe(Stripe.API_VERSION);
  });

  it("creates and retrieves a PaymentIntent with the same request and result", async () => {
    const mine = await ours().paymentIntents.create(intentParams("11"), { idempotencyKey: key("pi") });
    const theirs = await library().paymentIntents.create(intentParams("11"), { idempotencyKey: key("pi") });
    expect(shape(await lastRequest(mine.id, "POST", /payment_intents$/))).toEqual(
      shape(await lastRequest(theirs.id, "POST", /payment_intents$/)),
    );
    const { id: _mineId, client_secret: _mineSecret, created: _a, ...mineRest } = mine;
    const { id: _theirId, client_secret: _theirSecret, created: _b, ...theirRest } = theirs;
    expect(mineRest).toEqual(theirRest);

    const again = await ours().paymentIntents.retrieve(mine.id);
    await library().paymentIntents.retrieve(theirs.id);
    expect(again).toEqual(mine);
    expect(shape(await lastRequest(mine.id, "GET", /payment_intents\/pi_/))).toEqual(
      shape(await lastRequest(theirs.id, "GET", /payment_intents\/pi_/)),
    );
  });

  it("captures, cancels and refunds with the same requests", async () => {
    const make = async (client: "ours" | "library") => {
      const created = await ours().paymentIntents.create(intentParams("12"), { idempotencyKey: key(client) });
      await stripeFake.setStatus(created.id, "requires_capture");
      return created.id;
    };
    const [mineCapture, theirCapture, mineCancel, theirCancel] = await Promise.all([
      make("ours"),
      make("library"),
      make("ours"),
      make("library"),
    ]);
    await ours().paymentIntents.capture(mineCapture, {}, { idempotencyKey: key("capture") });
    await library().paymentIntents.capture(theirCapture, {}, { idempotencyKey: key("capture") });
    expect(shape(await lastRequest(mineCapture, "POST", /capture$/))).toEqual(
      shape(await lastRequest(theirCapture, "POST", /capture$/)),
    );

    const reason = { cancellation_reason: "abandoned" } as const;
    await ours().paymentIntents.cancel(mineCancel, reason, { idempotencyKey: key("cancel") });
    await library().paymentIntents.cancel(theirCancel, reason, { idempotencyKey: key("cancel") });
    expect(shape(await lastRequest(mineCancel, "POST", /cancel$/))).toEqual(
      shape(await lastRequest(theirCancel, "POST", /cancel$/)),
    );

    const refund = (id: string) => ({
      payment_intent: id,
      amount: 1_000,
      reason: "requested_by_customer" as const,
      metadata: { kind: "question", questionId: "12" },
    });
    const mineRefund = await ours().refunds.create(refund(mineCapture), { idempotencyKey: key("refund") });
    const theirRefund = await library().refunds.create(refund(theirCapture), {
      idempotencyKey: key("refund"),
    });
    expect(mineRefund).toMatchObject({ object: "refund", amount: 1_000, status: theirRefund.status });
    const normalise = (request: RecordedRequest) => ({
      ...shape(request),
      params: { ...request.params, payment_intent: "pi_ID" },
    });
    expect(normalise(await lastRequest(mineCapture, "POST", /refunds$/))).toEqual(
      normalise(await lastRequest(theirCapture, "POST", /refunds$/)),
    );
  });

  it("fails the way the library does: Stripe's type, code, status and message", async () => {
    const created = await ours().paymentIntents.create(intentParams("13"), { idempotencyKey: key("fail") });
    // Not authorised yet, so it cannot be captured.
    const mine = await ours()
      .paymentIntents.capture(created.id, {}, { idempotencyKey: key("bad-capture") })
      .catch((error: unknown) => error);
    const theirs = await library()
      .paymentIntents.capture(created.id, {}, { idempotencyKey: key("bad-capture") })
      .catch((error: unknown) => error);
    expect(mine).toBeInstanceOf(StripeApiError);
    expect(theirs).toBeInstanceOf(Stripe.errors.StripeError);
    const library_ = theirs as InstanceType<typeof Stripe.errors.StripeError>;
    expect(mine).toMatchObject({
      type: library_.rawType,
      code: library_.code,
      statusCode: library_.statusCode,
      message: library_.message,
    });

    const missing = await ours()
      .paymentIntents.retrieve("pi_fake_doesnotexist")
      .catch((error: unknown) => error);
    expect(missing).toMatchObject({ statusCode: 404, code: "resource_missing" });
  });

  it("sends an idempotency key on every POST, so its own retries can never charge twice", async () => {
    const customer = await ours().customers.create({ email: "keyless@example.com" });
    const [creation] = await stripeFake.requests(customer.id);
    expect(creation.idempotencyKey).toMatch(/^retry-safe-[0-9a-f-]{36}$/);
  });

  it("creates, reads, updates and cancels a subscription with the library's requests", async () => {
    const run = async (client: "ours" | "library") => {
      const stripe = client === "ours" ? ours() : library();
      const customer = await stripe.customers.create(
        { email: `${client}-${counter}@example.com`, name: "Sam O'Neil", metadata: { userId: "21" } },
        { idempotencyKey: key(`customer-${client}`) },
      );
      const subscription = await stripe.subscriptions.create(
        {
          customer: customer.id,
          items: [{ price: FAKE_SUBSCRIPTION_PRICE_ID }],
          payment_behavior: "default_incomplete",
          payment_settings: { save_default_payment_method: "on_subscription" },
          expand: ["latest_invoice.confirmation_secret"],
          metadata: { kind: "subscription", userId: "21" },
        },
        { idempotencyKey: key(`subscription-${client}`) },
      );
      await stripe.subscriptions.retrieve(subscription.id, {
        expand: ["latest_invoice.confirmation_secret"],
      });
      await stripeFake.payInvoice((subscription.latest_invoice as Stripe.Invoice).id as string);
      await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
      await stripe.subscriptions.cancel(subscription.id);
      const requests = await stripeFake.requests(subscription.id);
      const customerRequests = await stripeFake.requests(customer.id);
      return { subscription, requests: [...customerRequests.slice(0, 1), ...requests].map(shape) };
    };
    const mine = await run("ours");
    const theirs = await run("library");
    const anonymise = (requests: ReturnType<typeof shape>[]) =>
      requests.map((request) => ({
        ...request,
        params: JSON.parse(
          JSON.stringify(request.params)
            .replace(/cus_fake_\w+/g, "cus_ID")
            .replace(/(ours|library)-\d+@/g, "who@"),
        ),
      }));
    expect(anonymise(mine.requests)).toEqual(anonymise(theirs.requests));
    expect(mine.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /v1/customers",
      "POST /v1/subscriptions",
      "GET /v1/subscriptions/sub_ID",
      "POST /v1/subscriptions/sub_ID",
      "DELETE /v1/subscriptions/sub_ID",
    ]);
    expect(mine.subscription.latest_invoice).toMatchObject({ confirmation_secret: expect.any(Object) });
  });

  it("encodes parameters as the library does: brackets, indexed arrays, empty null, dates in seconds", () => {
    expect(
      encodeStripeParams({
        a: "x y&z",
        nested: { deep: { value: 1 }, flag: false },
        list: ["one", { price: "p" }],
        unset: null,
        skipped: undefined,
        at: new Date(1_700_000_000_500),
      }),
    ).toBe(
      "a=x%20y%26z&nested[deep][value]=1&nested[flag]=false&list[0]=one&list[1][price]=p&unset=&at=1700000000",
    );
  });
});

describe("webhook signatures, beside the stripe library", () => {
  const secret = "whsec_client_check_secret";
  const payload = JSON.stringify({ id: "evt_1", object: "event", type: "ping" });
  const now = Date.now();
  const seconds = Math.floor(now / 1000);
  const sign = (options: { payload?: string; secret?: string; timestamp?: number }) =>
    Stripe.webhooks.generateTestHeaderStringAsync({
      payload: options.payload ?? payload,
      secret: options.secret ?? secret,
      timestamp: options.timestamp ?? seconds,
      cryptoProvider: Stripe.createSubtleCryptoProvider(),
    });

  it("accepts and refuses the same headers", async () => {
    const valid = await sign({});
    const otherSecret = await sign({ secret: "whsec_someone_else" });
    const headers: [string, string][] = [
      ["valid", valid],
      ["signed a minute ago", await sign({ timestamp: seconds - 60 })],
      ["two signatures, one ours (secret rotation)", `${otherSecret},v1=${valid.split("v1=")[1]}`],
      ["signed with another secret", otherSecret],
      ["signed for another payload", await sign({ payload: `${payload} ` })],
      ["ten minutes old", await sign({ timestamp: seconds - 600 })],
      ["no timestamp", valid.replace(/^t=\d+,/, "")],
      ["no v1 signature", valid.replace(/,v1=.*/, "")],
      ["made up", "t=1700000000,v1=deadbeef"],
      ["v0 only", valid.replace("v1=", "v0=")],
    ];
    for (const [label, header] of headers) {
      const theirs = await Stripe.webhooks
        .constructEventAsync(payload, header, secret, undefined, Stripe.createSubtleCryptoProvider(), now)
        .then(
          () => "accepted",
          () => "refused",
        );
      const mine = await verifyStripeSignature(payload, header, secret, now).then(
        () => "accepted",
        (error: unknown) => (error instanceof WebhookSignatureError ? "refused" : `threw ${error}`),
      );
      expect({ label, verdict: mine }).toEqual({ label, verdict: theirs });
    }
  });
});
