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
 *   POST /__control/payment_intents/{id}/fail-next   the next {operation: capture|cancel|refund} fails
 *                                                    ({httpStatus?, type?, code?, message?})
 *   POST /__control/fail-create                      the next creation for {userId} (metadata) fails
 *   GET  /__control/payment_intents/{id}             the current object
 *   GET  /__control/requests?object={id}             the API requests that concerned an object
 * Subscriptions (issue 7) add customers and subscriptions here.
 */

export const STRIPE_FAKE_ORIGIN = "http://stripe.fake";

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

type Operation = "capture" | "cancel" | "refund";

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
  /** fail-create: the metadata.userId whose next PaymentIntent creation fails. */
  userId?: string;
  type?: string;
  code?: string;
  message?: string;
};
type Failure = { status: number; error: PaymentError };

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

  function takeFailure(intentId: string, operation: Operation): Failure | undefined {
    const key = `${intentId}:${operation}`;
    const failure = failNext.get(key);
    failNext.delete(key);
    return failure;
  }

  const unexpectedState = (intent: FakePaymentIntent, action: string) =>
    stripeError(400, {
      code: "payment_intent_unexpected_state",
      message: `This PaymentIntent could not be ${action} because it has a status of ${intent.status}.`,
    });

  const missing = (id: string, param = "id") =>
    stripeError(404, { code: "resource_missing", message: `No such payment_intent: '${id}'`, param });

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
        failCreateFor.delete(metadata.userId);
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
        if (!["capture", "cancel", "refund"].includes(operation))
          return json(400, { error: "unknown operation" });
        failNext.set(`${intent.id}:${operation}`, {
          status: Number(body.httpStatus ?? 402),
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
