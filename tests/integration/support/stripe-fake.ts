/**
 * A local fake of the few Stripe API endpoints the app calls, for the integration tests (Node side).
 *
 * vitest.integration.config.ts hands `stripeFake.fetch` to Miniflare as the Worker's `outboundService`,
 * so every outbound fetch of the Worker under test (and of the test code, which runs in the same
 * isolate) reaches this function. Requests to STRIPE_FAKE_ORIGIN are answered here; anything else is
 * refused, so a test can never reach the internet.
 *
 * What it implements, as https://docs.stripe.com/api documents it (form-encoded bodies with bracketed
 * nested keys, `Authorization: Bearer sk_...`, errors as `{ error: { type, code, message } }`):
 *   POST /v1/payment_intents                create (amount, currency, capture_method, metadata, ...)
 *   GET  /v1/payment_intents/{id}           retrieve
 *   POST /v1/payment_intents/{id}/capture   capture (only from requires_capture)
 *   POST /v1/payment_intents/{id}/cancel    cancel (cancellation_reason)
 *   POST /v1/refunds                        refund a succeeded PaymentIntent (payment_intent, amount, reason)
 * Idempotency-Key is honoured the way Stripe's API v1 does: the first executed response (success or
 * error) is saved and replayed for the same key; the same key with different parameters is an
 * idempotency_error; requests refused by validation are not saved.
 *
 * Control endpoints (JSON bodies) let tests play the parts Stripe and the browser play:
 *   POST /__control/payment_intents                  create a PaymentIntent outside the app (foreign, $1, ...)
 *   POST /__control/payment_intents/{id}/status      the browser confirmed: {status, error?}
 *   POST /__control/payment_intents/{id}/fail-next   the next {operation: retrieve|capture|cancel|refund}
 *                                                    fails ({httpStatus?, times?}: a 500 is retried by the library)
 *                                                    ({httpStatus?, type?, code?, message?})
 *   POST /__control/fail-create                      the next creation for {userId} (metadata) fails
 *                                                    ({times?}: that many in a row)
 *   GET  /__control/payment_intents/{id}             the current object
 *   GET  /__control/requests?object={id}             the API requests that concerned an object
 *
 * Billing (subscriptions), as Stripe documents it for API versions since 2025-03-31 (billing periods on
 * the subscription's items, `invoice.parent.subscription_details`, `invoice.confirmation_secret`):
 *   POST   /v1/customers                    create (email, name, description, metadata, phone)
 *   GET    /v1/customers/{id}               retrieve
 *   POST   /v1/subscriptions                create one price (items[0][price]) for a customer;
 *                                           `default_incomplete` makes the first invoice open, with a
 *                                           PaymentIntent for the browser to confirm; expand latest_invoice
 *                                           and latest_invoice.confirmation_secret (includable)
 *   GET    /v1/subscriptions/{id}           retrieve (expand as above)
 *   POST   /v1/subscriptions/{id}           update cancel_at_period_end / metadata
 *   DELETE /v1/subscriptions/{id}           cancel now (an already cancelled one is "No such subscription")
 *   GET    /v1/invoices/{id}                retrieve
 * Prices are fixed: FAKE_PRICES (the $20/month one is FAKE_SUBSCRIPTION_PRICE_ID).
 * Billing control endpoints:
 *   POST /__control/invoices/{id}/pay               the browser confirmed: invoice paid, subscription active
 *   POST /__control/invoices/{id}/fail              the card was declined ({message?})
 *   POST /__control/subscriptions/{id}/renew        the next period starts and its invoice is charged
 *                                                   ({status: "requires_payment_method"} declines it)
 *   POST /__control/subscriptions/{id}/end          the subscription ends (period over, or retries exhausted)
 *   POST /__control/subscriptions/{id}/fail-next    the next cancellation fails with a 500 ({times?}: 3)
 *   GET  /__control/subscriptions/{id}, /__control/invoices/{id}, /__control/customers?email=
 * The tests build webhook events from what these return, as Stripe would send them.
 */

export const STRIPE_FAKE_ORIGIN = "http://stripe.fake";

/** The recurring prices the fake knows. The app's STRIPE_SUBSCRIPTION_PRICE_ID in the tests is the first. */
export const FAKE_SUBSCRIPTION_PRICE_ID = "price_fake_monthly_2000";
export const FAKE_WRONG_PRICE_ID = "price_fake_monthly_2500";
const FAKE_PRICES = [
  { id: FAKE_SUBSCRIPTION_PRICE_ID, unit_amount: 2000, nickname: "Monthly Subscription" },
  { id: FAKE_WRONG_PRICE_ID, unit_amount: 2500, nickname: "Another plan" },
] as const;

type Params = { [key: string]: string | Params | undefined };

type PaymentIntentStatus =
  | "requires_payment_method"
  | "requires_confirmation"
  | "requires_action"
  | "processing"
  | "requires_capture"
  | "succeeded"
  | "canceled";

type PaymentError = { type?: string; code?: string; decline_code?: string; message: string };

type FakePaymentIntent = {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_capturable: number;
  amount_received: number;
  automatic_payment_methods: { enabled: boolean } | null;
  canceled_at: number | null;
  cancellation_reason: string | null;
  capture_method: "automatic" | "automatic_async" | "manual";
  client_secret: string;
  confirmation_method: "automatic";
  created: number;
  currency: string;
  customer: string | null;
  description: string | null;
  last_payment_error: PaymentError | null;
  latest_charge: string | null;
  livemode: false;
  metadata: Record<string, string>;
  payment_method: string | null;
  payment_method_types: string[];
  receipt_email: string | null;
  status: PaymentIntentStatus;
};

type FakeRefund = {
  id: string;
  object: "refund";
  amount: number;
  charge: string | null;
  created: number;
  currency: string;
  metadata: Record<string, string>;
  payment_intent: string;
  reason: string | null;
  status: "succeeded";
};

type FakeCustomer = {
  id: string;
  object: "customer";
  created: number;
  description: string | null;
  email: string | null;
  invoice_settings: { default_payment_method: string | null };
  livemode: false;
  metadata: Record<string, string>;
  name: string | null;
  phone: string | null;
};

type FakePrice = {
  id: string;
  object: "price";
  active: true;
  billing_scheme: "per_unit";
  created: number;
  currency: string;
  livemode: false;
  metadata: Record<string, string>;
  nickname: string;
  product: string;
  recurring: { interval: "month"; interval_count: 1; usage_type: "licensed" };
  type: "recurring";
  unit_amount: number;
};

type FakeInvoice = {
  id: string;
  object: "invoice";
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  attempt_count: number;
  attempted: boolean;
  billing_reason: "subscription_create" | "subscription_cycle";
  collection_method: "charge_automatically";
  created: number;
  currency: string;
  customer: string;
  livemode: false;
  metadata: Record<string, string>;
  /** Internal: the PaymentIntent Stripe made when finalising the invoice (the API exposes its client secret). */
  paymentIntentId: string;
  lines: {
    object: "list";
    data: {
      id: string;
      object: "line_item";
      amount: number;
      currency: string;
      description: string;
      period: { start: number; end: number };
      pricing: { type: "price_details"; price_details: { price: string; product: string } };
      quantity: number;
    }[];
    has_more: false;
    total_count: number;
    url: string;
  };
  parent: {
    type: "subscription_details";
    quote_details: null;
    subscription_details: { subscription: string; metadata: Record<string, string> };
  };
  period_start: number;
  period_end: number;
  status: "draft" | "open" | "paid" | "uncollectible" | "void";
  status_transitions: {
    finalized_at: number | null;
    paid_at: number | null;
    marked_uncollectible_at: number | null;
    voided_at: number | null;
  };
  subtotal: number;
  total: number;
};

type FakeSubscription = {
  id: string;
  object: "subscription";
  billing_cycle_anchor: number;
  cancel_at: number | null;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  cancellation_details: { comment: null; feedback: null; reason: string | null };
  collection_method: "charge_automatically";
  created: number;
  currency: string;
  customer: string;
  default_payment_method: string | null;
  description: string | null;
  ended_at: number | null;
  livemode: false;
  metadata: Record<string, string>;
  payment_settings: {
    payment_method_options: null;
    payment_method_types: null;
    save_default_payment_method: "off" | "on_subscription";
  };
  start_date: number;
  status: "incomplete" | "incomplete_expired" | "active" | "past_due" | "unpaid" | "canceled";
  trial_end: null;
  trial_start: null;
  /** Internal; the API shows these as `items.data[0]` and `latest_invoice`. */
  itemId: string;
  priceId: string;
  latestInvoiceId: string | null;
  periodStart: number;
  periodEnd: number;
};

export type RecordedRequest = {
  method: string;
  path: string;
  params: Params;
  idempotencyKey: string | null;
  stripeVersion: string | null;
  contentType: string | null;
  status: number;
  /** Ids of the objects the request concerned (path id, params.payment_intent, the created object). */
  objects: string[];
  replayed: boolean;
};

type Operation = "retrieve" | "capture" | "cancel" | "refund";

/** The JSON the control endpoints take. */
type ControlBody = {
  amount?: number;
  currency?: string;
  capture_method?: FakePaymentIntent["capture_method"];
  metadata?: Record<string, string>;
  status?: PaymentIntentStatus;
  error?: PaymentError;
  operation?: Operation;
  /** fail-next: the HTTP status of the refusal (402 by default, as Stripe answers card errors). */
  httpStatus?: number;
  /** fail-create: the metadata.userId whose next PaymentIntent (or subscription) creation fails... */
  userId?: string;
  /** ...this many times in a row (1 by default). */
  times?: number;
  type?: string;
  code?: string;
  message?: string;
};
type Failure = { status: number; error: PaymentError; times?: number };

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "Request-Id": `req_fake_${token()}`, ...headers },
  });

const stripeError = (status: number, error: Partial<PaymentError> & { message: string; param?: string }) =>
  json(status, { error: { type: "invalid_request_error", ...error } });

function token(length = 14) {
  const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join("");
}

const now = () => Math.floor(Date.now() / 1000);

/** Parses Stripe's form encoding: `metadata[kind]=question&expand[0]=x` into nested objects. */
export function parseStripeForm(body: string): Params {
  const result: Params = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = rawKey.split(/\[|\]\[|\]/).filter((part) => part !== "");
    let target: Params = result;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) {
        target[part] = value;
      } else {
        const next = target[part];
        if (typeof next !== "object") target[part] = {};
        target = target[part] as Params;
      }
    });
  }
  return result;
}

class ParamError extends Error {
  constructor(
    message: string,
    readonly param: string,
    readonly code = "parameter_invalid_string",
  ) {
    super(message);
  }
}

const allowOnly = (params: Params, allowed: readonly string[]) => {
  for (const key of Object.keys(params)) {
    if (!allowed.includes(key)) {
      throw new ParamError(`Received unknown parameter: ${key}`, key, "parameter_unknown");
    }
  }
};

const stringParam = (params: Params, key: string): string | undefined => {
  const value = params[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new ParamError(`Invalid string: ${key}`, key);
  return value;
};

const integerParam = (params: Params, key: string): number | undefined => {
  const value = stringParam(params, key);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value))
    throw new ParamError(`Invalid integer: ${value}`, key, "parameter_invalid_integer");
  return Number(value);
};

const enumParam = <T extends string>(params: Params, key: string, values: readonly T[]): T | undefined => {
  const value = stringParam(params, key);
  if (value === undefined) return undefined;
  if (!values.includes(value as T)) {
    throw new ParamError(`Invalid ${key}: must be one of ${values.join(", ")}`, key);
  }
  return value as T;
};

/** metadata[...]: string keys (max 40 chars) to string values (max 500 chars), at most 50 of them. */
const metadataParam = (params: Params, key = "metadata"): Record<string, string> | undefined => {
  const value = params[key];
  if (value === undefined) return undefined;
  if (typeof value !== "object") throw new ParamError("Invalid metadata: must be an object", key);
  const entries = Object.entries(value);
  if (entries.length > 50) throw new ParamError("Metadata can have at most 50 keys", key);
  const metadata: Record<string, string> = {};
  for (const [name, item] of entries) {
    if (typeof item !== "string" || name.length > 40 || item.length > 500) {
      throw new ParamError(`Invalid metadata value for ${name}`, `${key}[${name}]`);
    }
    metadata[name] = item;
  }
  return metadata;
};

const booleanParam = (params: Params, key: string): boolean | undefined => {
  const value = stringParam(params, key);
  if (value === undefined) return undefined;
  if (value !== "true" && value !== "false") throw new ParamError(`Invalid boolean: ${value}`, key);
  return value === "true";
};

const CANCELLABLE: readonly PaymentIntentStatus[] = [
  "requires_payment_method",
  "requires_capture",
  "requires_confirmation",
  "requires_action",
  "processing",
];

export function createStripeFake() {
  const intents = new Map<string, FakePaymentIntent>();
  const refunds = new Map<string, FakeRefund>();
  const refundedByIntent = new Map<string, number>();
  const saved = new Map<string, { fingerprint: string; status: number; body: string; objects: string[] }>();
  const failNext = new Map<string, Failure>();
  /** metadata.userId values whose next PaymentIntent creation fails (Stripe having a bad moment). */
  const failCreateFor = new Map<string, Failure>();
  const requests: RecordedRequest[] = [];
  const customers = new Map<string, FakeCustomer>();
  const subscriptions = new Map<string, FakeSubscription>();
  const invoices = new Map<string, FakeInvoice>();
  const prices = new Map<string, FakePrice>(
    FAKE_PRICES.map((price) => [
      price.id,
      {
        id: price.id,
        object: "price",
        active: true,
        billing_scheme: "per_unit",
        created: now(),
        currency: "usd",
        livemode: false,
        metadata: {},
        nickname: price.nickname,
        product: `prod_fake_${price.id}`,
        recurring: { interval: "month", interval_count: 1, usage_type: "licensed" },
        type: "recurring",
        unit_amount: price.unit_amount,
      },
    ]),
  );

  function newIntent(input: {
    amount: number;
    currency: string;
    capture_method?: FakePaymentIntent["capture_method"];
    metadata?: Record<string, string>;
    automatic_payment_methods?: { enabled: boolean } | null;
    description?: string | null;
    customer?: string | null;
    receipt_email?: string | null;
  }): FakePaymentIntent {
    const id = `pi_fake_${token()}`;
    const intent: FakePaymentIntent = {
      id,
      object: "payment_intent",
      amount: input.amount,
      amount_capturable: 0,
      amount_received: 0,
      automatic_payment_methods: input.automatic_payment_methods ?? null,
      canceled_at: null,
      cancellation_reason: null,
      capture_method: input.capture_method ?? "automatic_async",
      client_secret: `${id}_secret_${token(24)}`,
      confirmation_method: "automatic",
      created: now(),
      currency: input.currency,
      customer: input.customer ?? null,
      description: input.description ?? null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      metadata: input.metadata ?? {},
      payment_method: null,
      payment_method_types: ["card", "link"],
      receipt_email: input.receipt_email ?? null,
      status: "requires_payment_method",
    };
    intents.set(id, intent);
    return intent;
  }

  /** What the browser's confirmation (or a test) does to a PaymentIntent. */
  function setStatus(intent: FakePaymentIntent, status: PaymentIntentStatus, error?: PaymentError) {
    intent.status = status;
    intent.last_payment_error = null;
    if (status === "requires_capture" || status === "succeeded") {
      intent.payment_method = `pm_fake_${token()}`;
      intent.latest_charge = `ch_fake_${token()}`;
    }
    if (status === "requires_capture") intent.amount_capturable = intent.amount;
    if (status === "succeeded") {
      intent.amount_capturable = 0;
      intent.amount_received = intent.amount;
    }
    if (status === "requires_payment_method" && error) {
      intent.last_payment_error = { ...error, type: error.type ?? "card_error" };
    }
    if (status === "canceled") {
      intent.canceled_at = now();
      intent.amount_capturable = 0;
    }
  }

  /** Uses up one of the failures set for a user's creations. */
  function takeCreateFailure(userId: string) {
    const failure = failCreateFor.get(userId);
    if (!failure) return;
    const left = (failure.times ?? 1) - 1;
    if (left > 0) failCreateFor.set(userId, { ...failure, times: left });
    else failCreateFor.delete(userId);
  }

  function takeFailure(intentId: string, operation: Operation): Failure | undefined {
    const key = `${intentId}:${operation}`;
    const failure = failNext.get(key);
    const left = (failure?.times ?? 1) - 1;
    if (failure && left > 0) failNext.set(key, { ...failure, times: left });
    else failNext.delete(key);
    return failure;
  }

  const unexpectedState = (intent: FakePaymentIntent, action: string) =>
    stripeError(400, {
      code: "payment_intent_unexpected_state",
      message: `This PaymentIntent could not be ${action} because it has a status of ${intent.status}.`,
    });

  const missing = (id: string, param = "id") =>
    stripeError(404, { code: "resource_missing", message: `No such payment_intent: '${id}'`, param });

  // -------------------------------------------------------------------------------------------
  // Billing: customers, prices, subscriptions and their invoices (issue 7)

  /** The first invoice's period and every renewal's: one calendar month (Stripe's `month` interval). */
  const addMonth = (seconds: number) => {
    const date = new Date(seconds * 1000);
    date.setUTCMonth(date.getUTCMonth() + 1);
    return Math.floor(date.getTime() / 1000);
  };

  function newInvoice(
    subscription: FakeSubscription,
    billingReason: FakeInvoice["billing_reason"],
    periodStart: number,
  ): FakeInvoice {
    const price = prices.get(subscription.priceId)!;
    const id = `in_fake_${token()}`;
    const created = now();
    const intent = newIntent({
      amount: price.unit_amount,
      currency: price.currency,
      capture_method: "automatic",
      customer: subscription.customer,
      description: billingReason === "subscription_create" ? "Subscription creation" : "Subscription update",
      automatic_payment_methods: { enabled: true },
    });
    const invoice: FakeInvoice = {
      id,
      object: "invoice",
      amount_due: price.unit_amount,
      amount_paid: 0,
      amount_remaining: price.unit_amount,
      attempt_count: 0,
      attempted: false,
      billing_reason: billingReason,
      collection_method: "charge_automatically",
      created,
      currency: price.currency,
      customer: subscription.customer,
      livemode: false,
      metadata: {},
      paymentIntentId: intent.id,
      lines: {
        object: "list",
        data: [
          {
            id: `il_fake_${token()}`,
            object: "line_item",
            amount: price.unit_amount,
            currency: price.currency,
            description: `1 × ${price.nickname} (at $${(price.unit_amount / 100).toFixed(2)} / month)`,
            period: { start: periodStart, end: addMonth(periodStart) },
            pricing: { type: "price_details", price_details: { price: price.id, product: price.product } },
            quantity: 1,
          },
        ],
        has_more: false,
        total_count: 1,
        url: `/v1/invoices/${id}/lines`,
      },
      parent: {
        type: "subscription_details",
        quote_details: null,
        subscription_details: { subscription: subscription.id, metadata: { ...subscription.metadata } },
      },
      period_start: created,
      period_end: created,
      status: "open",
      status_transitions: {
        finalized_at: created,
        paid_at: null,
        marked_uncollectible_at: null,
        voided_at: null,
      },
      subtotal: price.unit_amount,
      total: price.unit_amount,
    };
    invoices.set(id, invoice);
    subscription.latestInvoiceId = id;
    return invoice;
  }

  /** An invoice as the API returns it; `confirmation_secret` is includable (only when expanded). */
  function renderInvoice(invoice: FakeInvoice, withSecret: boolean) {
    const { paymentIntentId, ...rest } = invoice;
    const intent = intents.get(paymentIntentId);
    return {
      ...rest,
      ...(withSecret
        ? {
            confirmation_secret:
              invoice.status === "open" && intent
                ? { client_secret: intent.client_secret, type: "payment_intent" }
                : null,
          }
        : {}),
    };
  }

  function renderSubscription(subscription: FakeSubscription, expand: readonly string[]) {
    const price = prices.get(subscription.priceId)!;
    const { priceId, latestInvoiceId, periodStart, periodEnd, ...rest } = subscription;
    const invoice = latestInvoiceId ? invoices.get(latestInvoiceId) : undefined;
    const expandInvoice =
      expand.includes("latest_invoice") || expand.includes("latest_invoice.confirmation_secret");
    return {
      ...rest,
      items: {
        object: "list",
        data: [
          {
            id: subscription.itemId,
            object: "subscription_item",
            created: subscription.created,
            current_period_start: periodStart,
            current_period_end: periodEnd,
            metadata: {},
            price,
            quantity: 1,
            subscription: subscription.id,
          },
        ],
        has_more: false,
        total_count: 1,
        url: `/v1/subscription_items?subscription=${subscription.id}`,
      },
      latest_invoice:
        invoice && expandInvoice
          ? renderInvoice(invoice, expand.includes("latest_invoice.confirmation_secret"))
          : (latestInvoiceId ?? null),
    };
  }

  const SUBSCRIPTION_EXPANDABLE = [
    "latest_invoice",
    "latest_invoice.confirmation_secret",
    "customer",
  ] as const;

  /** expand[0]=...: only paths this fake knows how to expand (Stripe refuses others too). */
  function expandParam(params: Params, allowed: readonly string[]): string[] {
    const value = params.expand;
    if (value === undefined) return [];
    if (typeof value !== "object") throw new ParamError("Invalid array", "expand");
    const paths = Object.values(value);
    for (const path of paths) {
      if (typeof path !== "string" || !allowed.includes(path)) {
        throw new ParamError(`This property cannot be expanded (${String(path)}).`, "expand");
      }
    }
    return paths as string[];
  }

  const noSuch = (kind: string, id: string, param?: string) =>
    stripeError(404, {
      code: "resource_missing",
      message: `No such ${kind}: '${id}'`,
      ...(param ? { param } : {}),
    });

  /** What the browser's confirmation of an invoice's payment does: the invoice is paid, the subscription active. */
  function payInvoice(invoice: FakeInvoice) {
    const intent = intents.get(invoice.paymentIntentId)!;
    setStatus(intent, "succeeded");
    invoice.status = "paid";
    invoice.attempted = true;
    invoice.attempt_count += 1;
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    invoice.status_transitions.paid_at = now();
    const subscription = subscriptionOfInvoice(invoice);
    if (subscription && ["incomplete", "past_due", "unpaid", "active"].includes(subscription.status)) {
      subscription.status = "active";
      subscription.default_payment_method = intent.payment_method;
    }
    return subscription;
  }

  /** A declined invoice payment: a first invoice leaves the subscription incomplete, a renewal past_due. */
  function failInvoice(invoice: FakeInvoice, message: string) {
    const intent = intents.get(invoice.paymentIntentId)!;
    setStatus(intent, "requires_payment_method", { message, code: "card_declined", type: "card_error" });
    invoice.attempted = true;
    invoice.attempt_count += 1;
    const subscription = subscriptionOfInvoice(invoice);
    if (subscription?.status === "active") subscription.status = "past_due";
    return subscription;
  }

  function subscriptionOfInvoice(invoice: FakeInvoice) {
    return subscriptions.get(invoice.parent.subscription_details.subscription) ?? null;
  }

  function endSubscription(subscription: FakeSubscription) {
    const at = now();
    subscription.status = "canceled";
    subscription.canceled_at = subscription.canceled_at ?? at;
    subscription.ended_at = at;
    const invoice = subscription.latestInvoiceId ? invoices.get(subscription.latestInvoiceId) : undefined;
    // An unpaid first invoice is voided with the subscription.
    if (invoice?.status === "open") {
      invoice.status = "void";
      invoice.status_transitions.voided_at = at;
      setStatus(intents.get(invoice.paymentIntentId)!, "canceled");
    }
  }

  function billingApi(
    method: string,
    segments: string[],
    params: Params,
  ): { response: Response; objects: string[] } | null {
    const [, resource, id] = segments;

    if (resource === "customers" && segments.length === 2 && method === "POST") {
      allowOnly(params, ["email", "name", "description", "metadata", "phone", "expand"]);
      const email = stringParam(params, "email");
      if (email !== undefined && email.length > 512) throw new ParamError("Invalid email", "email");
      const customer: FakeCustomer = {
        id: `cus_fake_${token()}`,
        object: "customer",
        created: now(),
        description: stringParam(params, "description") ?? null,
        email: email ?? null,
        livemode: false,
        metadata: metadataParam(params) ?? {},
        name: stringParam(params, "name") ?? null,
        phone: stringParam(params, "phone") ?? null,
        invoice_settings: { default_payment_method: null },
      };
      customers.set(customer.id, customer);
      return { response: json(200, customer), objects: [customer.id] };
    }
    if (resource === "customers" && id && segments.length === 3 && method === "GET") {
      const customer = customers.get(id);
      return { response: customer ? json(200, customer) : noSuch("customer", id), objects: [id] };
    }

    if (resource === "subscriptions" && segments.length === 2 && method === "POST") {
      allowOnly(params, [
        "customer",
        "items",
        "payment_behavior",
        "payment_settings",
        "expand",
        "metadata",
        "description",
        "default_payment_method",
      ]);
      const expand = expandParam(params, SUBSCRIPTION_EXPANDABLE);
      const customerId = stringParam(params, "customer");
      if (!customerId)
        throw new ParamError("Missing required param: customer.", "customer", "parameter_missing");
      const items = params.items;
      if (items === undefined)
        throw new ParamError("Missing required param: items.", "items", "parameter_missing");
      if (typeof items !== "object") throw new ParamError("Invalid array", "items");
      const itemList = Object.entries(items);
      if (itemList.length !== 1 || itemList[0][0] !== "0" || typeof itemList[0][1] !== "object") {
        // The fake bills one price per subscription, as the app does.
        throw new ParamError("This fake supports exactly one item: items[0]", "items");
      }
      const item = itemList[0][1] as Params;
      allowOnly(item, ["price", "quantity", "metadata"]);
      const priceId = stringParam(item, "price");
      if (!priceId)
        throw new ParamError(
          "Missing required param: items[0][price].",
          "items[0][price]",
          "parameter_missing",
        );
      const quantity = integerParam(item, "quantity") ?? 1;
      if (quantity !== 1) throw new ParamError("This fake supports quantity 1 only", "items[0][quantity]");
      const paymentBehavior =
        enumParam(params, "payment_behavior", [
          "allow_incomplete",
          "default_incomplete",
          "error_if_incomplete",
          "pending_if_incomplete",
        ] as const) ?? "allow_incomplete";
      let saveDefault: "off" | "on_subscription" = "off";
      const settings = params.payment_settings;
      if (settings !== undefined) {
        if (typeof settings !== "object") throw new ParamError("Invalid object", "payment_settings");
        allowOnly(settings, ["save_default_payment_method", "payment_method_types"]);
        saveDefault =
          enumParam(settings, "save_default_payment_method", ["off", "on_subscription"] as const) ?? "off";
      }
      const metadata = metadataParam(params) ?? {};
      const customer = customers.get(customerId);
      if (!customer) return { response: noSuch("customer", customerId, "customer"), objects: [customerId] };
      const price = prices.get(priceId);
      if (!price) return { response: noSuch("price", priceId, "items[0][price]"), objects: [priceId] };
      if (paymentBehavior !== "default_incomplete" && !stringParam(params, "default_payment_method")) {
        return {
          response: stripeError(400, {
            code: "resource_missing",
            message:
              "This customer has no attached payment source or default payment method. Please consider adding a default payment method.",
          }),
          objects: [customerId],
        };
      }
      const createFailure = metadata.userId ? failCreateFor.get(metadata.userId) : undefined;
      if (createFailure && metadata.userId) {
        takeCreateFailure(metadata.userId);
        return { response: json(createFailure.status, { error: createFailure.error }), objects: [] };
      }
      const created = now();
      const subscription: FakeSubscription = {
        id: `sub_fake_${token()}`,
        object: "subscription",
        billing_cycle_anchor: created,
        cancel_at: null,
        cancel_at_period_end: false,
        canceled_at: null,
        cancellation_details: { comment: null, feedback: null, reason: null },
        collection_method: "charge_automatically",
        created,
        currency: price.currency,
        customer: customerId,
        default_payment_method: null,
        description: stringParam(params, "description") ?? null,
        ended_at: null,
        livemode: false,
        metadata,
        payment_settings: {
          payment_method_options: null,
          payment_method_types: null,
          save_default_payment_method: saveDefault,
        },
        start_date: created,
        status: "incomplete",
        trial_end: null,
        trial_start: null,
        itemId: `si_fake_${token()}`,
        priceId,
        latestInvoiceId: null,
        periodStart: created,
        periodEnd: addMonth(created),
      };
      subscriptions.set(subscription.id, subscription);
      const invoice = newInvoice(subscription, "subscription_create", created);
      return {
        response: json(200, renderSubscription(subscription, expand)),
        objects: [subscription.id, invoice.id, customerId],
      };
    }

    if (resource === "subscriptions" && id && segments.length === 3) {
      const subscription = subscriptions.get(id);
      if (method === "GET") {
        const expand = expandParam(params, SUBSCRIPTION_EXPANDABLE);
        if (!subscription) return { response: noSuch("subscription", id), objects: [id] };
        return { response: json(200, renderSubscription(subscription, expand)), objects: [id] };
      }
      if (method === "POST") {
        allowOnly(params, ["cancel_at_period_end", "metadata", "expand", "proration_behavior"]);
        const expand = expandParam(params, SUBSCRIPTION_EXPANDABLE);
        const cancelAtPeriodEnd = booleanParam(params, "cancel_at_period_end");
        const metadata = metadataParam(params);
        if (!subscription) return { response: noSuch("subscription", id), objects: [id] };
        if (
          ["canceled", "incomplete_expired"].includes(subscription.status) &&
          cancelAtPeriodEnd !== undefined
        ) {
          return {
            response: stripeError(400, {
              message: "A canceled subscription can only update its cancellation_details and metadata.",
            }),
            objects: [id],
          };
        }
        if (subscription.status === "incomplete" && cancelAtPeriodEnd !== undefined) {
          return {
            response: stripeError(400, {
              message:
                "A subscription in the incomplete status can only update its metadata and default payment method.",
            }),
            objects: [id],
          };
        }
        if (cancelAtPeriodEnd !== undefined) {
          subscription.cancel_at_period_end = cancelAtPeriodEnd;
          subscription.cancel_at = cancelAtPeriodEnd ? subscription.periodEnd : null;
          subscription.canceled_at = cancelAtPeriodEnd ? now() : null;
          subscription.cancellation_details.reason = cancelAtPeriodEnd ? "cancellation_requested" : null;
        }
        if (metadata) subscription.metadata = { ...subscription.metadata, ...metadata };
        return { response: json(200, renderSubscription(subscription, expand)), objects: [id] };
      }
      if (method === "DELETE") {
        allowOnly(params, ["invoice_now", "prorate", "cancellation_details", "expand"]);
        const expand = expandParam(params, SUBSCRIPTION_EXPANDABLE);
        // A canceled subscription is gone, as far as cancelling goes.
        if (!subscription || subscription.status === "canceled") {
          return { response: noSuch("subscription", id), objects: [id] };
        }
        const failure = takeFailure(id, "cancel");
        if (failure) return { response: json(failure.status, { error: failure.error }), objects: [id] };
        endSubscription(subscription);
        return { response: json(200, renderSubscription(subscription, expand)), objects: [id] };
      }
    }

    if (resource === "invoices" && id && segments.length === 3 && method === "GET") {
      const expand = expandParam(params, ["confirmation_secret"]);
      const invoice = invoices.get(id);
      if (!invoice) return { response: noSuch("invoice", id), objects: [id] };
      return {
        response: json(200, renderInvoice(invoice, expand.includes("confirmation_secret"))),
        objects: [id],
      };
    }
    return null;
  }

  /** /__control/... for billing; null when the path is not a billing one. */
  function billingControl(
    request: Request,
    segments: string[],
    body: ControlBody,
    url: URL,
  ): Response | null {
    const [resource, id, action] = segments;
    if (resource === "customers" && !id && request.method === "GET") {
      const email = url.searchParams.get("email");
      return json(
        200,
        [...customers.values()].filter((customer) => email === null || customer.email === email),
      );
    }
    if (resource === "invoices" && id) {
      const invoice = invoices.get(id);
      if (!invoice) return json(404, { error: `no invoice ${id}` });
      if (!action && request.method === "GET") return json(200, renderInvoice(invoice, false));
      if (action === "pay" && request.method === "POST") {
        if (invoice.status !== "open") return json(409, { error: `invoice ${id} is ${invoice.status}` });
        const subscription = payInvoice(invoice);
        return json(200, {
          invoice: renderInvoice(invoice, false),
          subscription: subscription ? renderSubscription(subscription, []) : null,
        });
      }
      if (action === "fail" && request.method === "POST") {
        if (invoice.status !== "open") return json(409, { error: `invoice ${id} is ${invoice.status}` });
        const subscription = failInvoice(invoice, body.message ?? "Your card was declined.");
        return json(200, {
          invoice: renderInvoice(invoice, false),
          subscription: subscription ? renderSubscription(subscription, []) : null,
        });
      }
    }
    if (resource === "subscriptions" && id) {
      const subscription = subscriptions.get(id);
      if (!subscription) return json(404, { error: `no subscription ${id}` });
      if (!action && request.method === "GET") return json(200, renderSubscription(subscription, []));
      if (action === "renew" && request.method === "POST") {
        // The billing cycle turns: a new period and its invoice, then the card is charged (or declined).
        if (!["active", "past_due"].includes(subscription.status) || subscription.cancel_at_period_end) {
          return json(409, { error: `subscription ${id} does not renew (${subscription.status})` });
        }
        subscription.periodStart = subscription.periodEnd;
        subscription.periodEnd = addMonth(subscription.periodStart);
        const invoice = newInvoice(subscription, "subscription_cycle", subscription.periodStart);
        if (body.status === "requires_payment_method")
          failInvoice(invoice, body.message ?? "Your card was declined.");
        else payInvoice(invoice);
        return json(200, {
          invoice: renderInvoice(invoice, false),
          subscription: renderSubscription(subscription, []),
        });
      }
      if (action === "fail-next" && request.method === "POST") {
        // The next cancellation of this subscription fails (Stripe unreachable or having a bad moment).
        failNext.set(`${id}:cancel`, {
          status: Number(body.httpStatus ?? 500),
          error: { type: "api_error", message: body.message ?? "An unknown error occurred." },
          // The library retries a 500 twice: by default it fails every try of one call.
          times: Number(body.times ?? 3),
        });
        return json(200, { ok: true });
      }
      if (action === "end" && request.method === "POST") {
        // The period ran out on a subscription set to cancel (or Stripe gave up retrying): it ends.
        if (subscription.status === "canceled")
          return json(409, { error: `subscription ${id} already ended` });
        endSubscription(subscription);
        return json(200, renderSubscription(subscription, []));
      }
    }
    return null;
  }

  /** The API proper. Returns the response and the ids of the objects it concerned. */
  function api(method: string, path: string, params: Params): { response: Response; objects: string[] } {
    const segments = path.split("/").filter(Boolean); // ["v1", "payment_intents", id?, action?]
    if (segments[0] !== "v1")
      return { response: stripeError(404, { message: "Unrecognized request URL" }), objects: [] };

    if (segments[1] === "payment_intents" && segments.length === 2 && method === "POST") {
      allowOnly(params, [
        "amount",
        "currency",
        "capture_method",
        "metadata",
        "automatic_payment_methods",
        "description",
        "customer",
        "receipt_email",
        "statement_descriptor_suffix",
        "expand",
      ]);
      const amount = integerParam(params, "amount");
      if (amount === undefined)
        throw new ParamError("Missing required param: amount.", "amount", "parameter_missing");
      const currency = stringParam(params, "currency");
      if (currency === undefined) {
        throw new ParamError("Missing required param: currency.", "currency", "parameter_missing");
      }
      if (!/^[a-z]{3}$/.test(currency)) throw new ParamError(`Invalid currency: ${currency}`, "currency");
      if (currency === "usd" && amount < 50) {
        throw new ParamError("Amount must be at least $0.50 usd", "amount", "amount_too_small");
      }
      const automatic = params.automatic_payment_methods;
      let automaticPaymentMethods: { enabled: boolean } | null = null;
      if (automatic !== undefined) {
        if (typeof automatic !== "object") {
          throw new ParamError("Invalid object", "automatic_payment_methods");
        }
        allowOnly(automatic, ["enabled", "allow_redirects"]);
        const enabled = booleanParam(automatic, "enabled");
        if (enabled === undefined) {
          throw new ParamError(
            "Missing required param: automatic_payment_methods[enabled].",
            "automatic_payment_methods[enabled]",
            "parameter_missing",
          );
        }
        automaticPaymentMethods = { enabled };
      }
      const metadata = metadataParam(params);
      const createFailure = metadata?.userId ? failCreateFor.get(metadata.userId) : undefined;
      if (createFailure && metadata?.userId) {
        takeCreateFailure(metadata.userId);
        return { response: json(createFailure.status, { error: createFailure.error }), objects: [] };
      }
      const intent = newIntent({
        amount,
        currency,
        capture_method: enumParam(params, "capture_method", [
          "automatic",
          "automatic_async",
          "manual",
        ] as const),
        metadata,
        automatic_payment_methods: automaticPaymentMethods,
        description: stringParam(params, "description") ?? null,
        customer: stringParam(params, "customer") ?? null,
        receipt_email: stringParam(params, "receipt_email") ?? null,
      });
      return { response: json(200, intent), objects: [intent.id] };
    }

    if (segments[1] === "payment_intents" && segments.length >= 3) {
      const id = segments[2];
      const intent = intents.get(id);
      if (!intent) return { response: missing(id, "intent"), objects: [id] };
      const action = segments[3];

      if (action === undefined && method === "GET") {
        const failure = takeFailure(id, "retrieve");
        if (failure) return { response: json(failure.status, { error: failure.error }), objects: [id] };
        return { response: json(200, intent), objects: [id] };
      }
      if (action === "capture" && method === "POST") {
        allowOnly(params, ["amount_to_capture", "metadata", "expand"]);
        const amountToCapture = integerParam(params, "amount_to_capture") ?? intent.amount_capturable;
        if (intent.status !== "requires_capture")
          return { response: unexpectedState(intent, "captured"), objects: [id] };
        if (amountToCapture > intent.amount_capturable) {
          throw new ParamError(
            "amount_to_capture is greater than the amount capturable",
            "amount_to_capture",
          );
        }
        const failure = takeFailure(id, "capture");
        if (failure) return { response: json(failure.status, { error: failure.error }), objects: [id] };
        intent.status = "succeeded";
        intent.amount_received = amountToCapture;
        intent.amount_capturable = 0;
        return { response: json(200, intent), objects: [id] };
      }
      if (action === "cancel" && method === "POST") {
        allowOnly(params, ["cancellation_reason", "expand"]);
        const reason = enumParam(params, "cancellation_reason", [
          "duplicate",
          "fraudulent",
          "requested_by_customer",
          "abandoned",
        ] as const);
        if (!CANCELLABLE.includes(intent.status))
          return { response: unexpectedState(intent, "canceled"), objects: [id] };
        const failure = takeFailure(id, "cancel");
        if (failure) return { response: json(failure.status, { error: failure.error }), objects: [id] };
        setStatus(intent, "canceled");
        intent.cancellation_reason = reason ?? null;
        return { response: json(200, intent), objects: [id] };
      }
      return { response: stripeError(404, { message: "Unrecognized request URL" }), objects: [id] };
    }

    if (segments[1] === "refunds" && segments.length === 2 && method === "POST") {
      allowOnly(params, ["payment_intent", "charge", "amount", "reason", "metadata", "expand"]);
      const intentId = stringParam(params, "payment_intent");
      if (!intentId) {
        throw new ParamError(
          "This endpoint requires a payment_intent here.",
          "payment_intent",
          "parameter_missing",
        );
      }
      const intent = intents.get(intentId);
      if (!intent) return { response: missing(intentId, "payment_intent"), objects: [intentId] };
      const reason = enumParam(params, "reason", [
        "duplicate",
        "fraudulent",
        "requested_by_customer",
      ] as const);
      if (intent.status !== "succeeded") {
        return {
          response: stripeError(400, {
            code: "charge_not_refundable",
            message: "This PaymentIntent does not have a successful charge to refund.",
          }),
          objects: [intentId],
        };
      }
      const refunded = refundedByIntent.get(intentId) ?? 0;
      const remaining = intent.amount_received - refunded;
      const amount = integerParam(params, "amount") ?? remaining;
      if (remaining <= 0) {
        return {
          response: stripeError(400, {
            code: "charge_already_refunded",
            message: `Charge ${intent.latest_charge} has already been refunded.`,
          }),
          objects: [intentId],
        };
      }
      if (amount <= 0 || amount > remaining) {
        throw new ParamError(`Refund amount ($${amount / 100}) is greater than unrefunded amount`, "amount");
      }
      const failure = takeFailure(intentId, "refund");
      if (failure) return { response: json(failure.status, { error: failure.error }), objects: [intentId] };
      const refund: FakeRefund = {
        id: `re_fake_${token()}`,
        object: "refund",
        amount,
        charge: intent.latest_charge,
        created: now(),
        currency: intent.currency,
        metadata: metadataParam(params) ?? {},
        payment_intent: intentId,
        reason: reason ?? null,
        status: "succeeded",
      };
      refunds.set(refund.id, refund);
      refundedByIntent.set(intentId, refunded + amount);
      return { response: json(200, refund), objects: [intentId, refund.id] };
    }

    const billing = billingApi(method, segments, params);
    if (billing) return billing;

    return {
      response: stripeError(404, { message: `Unrecognized request URL (${method}: ${path})` }),
      objects: [],
    };
  }

  async function handleApi(request: Request, url: URL): Promise<Response> {
    const method = request.method;
    const idempotencyKey = request.headers.get("Idempotency-Key");
    const contentType = request.headers.get("Content-Type");
    const record = (status: number, params: Params, objects: string[], replayed = false) =>
      requests.push({
        method,
        path: url.pathname,
        params,
        idempotencyKey,
        stripeVersion: request.headers.get("Stripe-Version"),
        contentType,
        status,
        objects,
        replayed,
      });

    const authorization = request.headers.get("Authorization") ?? "";
    if (!/^Bearer sk_test_\w+$/.test(authorization)) {
      record(401, {}, []);
      return stripeError(401, { message: "Invalid API Key provided." });
    }
    const body = method === "POST" ? await request.text() : "";
    if (method === "POST" && body !== "" && !contentType?.startsWith("application/x-www-form-urlencoded")) {
      record(400, {}, []);
      return stripeError(400, { message: "Stripe expects form-encoded request bodies." });
    }
    const params = method === "POST" ? parseStripeForm(body) : parseStripeForm(url.search.slice(1));

    const fingerprint = `${method} ${url.pathname} ${body}`;
    if (method === "POST" && idempotencyKey) {
      const previous = saved.get(idempotencyKey);
      if (previous) {
        if (previous.fingerprint !== fingerprint) {
          record(400, params, [], false);
          return json(400, {
            error: {
              type: "idempotency_error",
              message:
                "Keys for idempotent requests can only be used with the same parameters they were first used with.",
            },
          });
        }
        record(previous.status, params, previous.objects, true);
        return new Response(previous.body, {
          status: previous.status,
          headers: { "Content-Type": "application/json", "Idempotent-Replayed": "true" },
        });
      }
    }

    let result: { response: Response; objects: string[] };
    try {
      result = api(method, url.pathname, params);
    } catch (error) {
      if (error instanceof ParamError) {
        // Refused by validation: Stripe does not save these under the idempotency key.
        record(400, params, []);
        return stripeError(400, { code: error.code, message: error.message, param: error.param });
      }
      throw error;
    }
    const text = await result.response.clone().text();
    if (method === "POST" && idempotencyKey) {
      saved.set(idempotencyKey, {
        fingerprint,
        status: result.response.status,
        body: text,
        objects: result.objects,
      });
    }
    record(result.response.status, params, result.objects);
    return result.response;
  }

  async function handleControl(request: Request, url: URL): Promise<Response> {
    const segments = url.pathname.split("/").filter(Boolean).slice(1); // drop "__control"
    const body = (request.method === "POST" ? await request.json().catch(() => ({})) : {}) as ControlBody;

    if (segments[0] === "requests" && request.method === "GET") {
      const object = url.searchParams.get("object");
      return json(200, object ? requests.filter((entry) => entry.objects.includes(object)) : requests);
    }
    if (segments[0] === "fail-create" && request.method === "POST") {
      if (!body.userId) return json(400, { error: "userId is required" });
      failCreateFor.set(body.userId, {
        status: Number(body.httpStatus ?? 500),
        error: { type: "api_error", message: body.message ?? "An unknown error occurred." },
        times: Number(body.times ?? 1),
      });
      return json(200, { ok: true });
    }
    if (segments[0] === "payment_intents" && segments.length === 1 && request.method === "POST") {
      const intent = newIntent({
        amount: Number(body.amount ?? 500),
        currency: String(body.currency ?? "usd"),
        capture_method: body.capture_method ?? "manual",
        metadata: body.metadata ?? {},
        automatic_payment_methods: { enabled: true },
      });
      if (body.status) setStatus(intent, body.status, body.error);
      return json(200, intent);
    }
    const billing = billingControl(request, segments, body, url);
    if (billing) return billing;
    if (segments[0] === "payment_intents" && segments[1]) {
      const intent = intents.get(segments[1]);
      if (!intent) return json(404, { error: `no PaymentIntent ${segments[1]}` });
      if (segments.length === 2 && request.method === "GET") return json(200, intent);
      if (segments[2] === "status" && request.method === "POST") {
        if (!body.status) return json(400, { error: "status is required" });
        setStatus(intent, body.status, body.error);
        return json(200, intent);
      }
      if (segments[2] === "fail-next" && request.method === "POST") {
        const operation = body.operation as Operation;
        if (!["retrieve", "capture", "cancel", "refund"].includes(operation))
          return json(400, { error: "unknown operation" });
        failNext.set(`${intent.id}:${operation}`, {
          status: Number(body.httpStatus ?? 402),
          times: Number(body.times ?? 1),
          error: {
            type: body.type ?? "card_error",
            code: body.code ?? "card_declined",
            message: body.message ?? "Your card was declined.",
          },
        });
        return json(200, { ok: true });
      }
    }
    return json(404, { error: `unknown control endpoint ${request.method} ${url.pathname}` });
  }

  return {
    /** Miniflare's outboundService: every outbound fetch of the Worker under test lands here. */
    async fetch(request: Request): Promise<Response> {
      const url = new URL(request.url);
      if (url.origin !== STRIPE_FAKE_ORIGIN) {
        return new Response(
          `Outbound requests are not allowed in tests (${request.method} ${request.url}).`,
          {
            status: 503,
          },
        );
      }
      if (url.pathname.startsWith("/__control/")) return handleControl(request, url);
      return handleApi(request, url);
    },
  };
}

/** The one fake the integration config wires in (its state lives as long as the test run). */
export const stripeFake = createStripeFake();
