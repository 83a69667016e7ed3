/**
 * Stripe, as Workers need it (DESIGN.md "Money and payments"), built from `context.config.stripe`
 * once per request. Nothing here knows about questions or bookings; app/models/payments.server.ts
 * holds the money rules.
 *
 * The client speaks Stripe's REST API for the eleven calls the app makes, the way the `stripe`
 * package does: the API version its types describe, form-encoded bracketed parameters, an
 * idempotency key on every POST (the caller's, else a random one so retries are safe), retries of
 * connection failures, 409s and 5xx with jittered backoff (Stripe-Should-Retry and Retry-After
 * honoured), a timeout, and Stripe's errors as StripeApiError. The package itself stays out of the
 * Worker: it registers every one of Stripe's API resources (about 240 KiB minified, none of it
 * tree-shakeable) and the Worker's budget is 1 MiB. It still supplies every type here, and the
 * tests sign webhooks with it and check that this client's requests match its requests.
 *
 * Without STRIPE_SECRET_KEY the app runs in test mode and there is no client: `getStripe` throws,
 * so a code path that would move money in test mode fails loudly instead of pretending.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import type Stripe from "stripe";
import type { AppConfig } from "~/config.server";
import { toHex } from "~/lib/bytes";

export type { Stripe };
export type PaymentIntent = Stripe.PaymentIntent;
export type StripeEvent = Stripe.Event;

/** The API version of the `stripe` package's types (tests/integration/payments/stripe-client.test.ts keeps them equal). */
export const STRIPE_API_VERSION = "2026-10-28.endive";

const DEFAULT_API_BASE = "https://api.stripe.com";
/** Well inside a Worker's limits; a slow Stripe fails the request instead of hanging it. */
const TIMEOUT_MS = 20_000;
/** Retries reuse the request's idempotency key, so a retry never moves money twice. */
export const MAX_NETWORK_RETRIES = 2;
const INITIAL_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 5_000;
/** How old a webhook's signature may be (Stripe's own default), against replayed deliveries. */
const WEBHOOK_TOLERANCE_SECONDS = 300;

/** A call Stripe refused (`type` is Stripe's: card_error, invalid_request_error, api_error...). */
export class StripeApiError extends Error {
  readonly type: string;
  readonly code: string | undefined;
  readonly declineCode: string | undefined;
  readonly statusCode: number | undefined;
  readonly requestId: string | undefined;

  constructor(input: {
    message: string;
    type: string;
    code?: string;
    declineCode?: string;
    statusCode?: number;
    requestId?: string;
  }) {
    super(input.message);
    this.name = "StripeApiError";
    this.type = input.type;
    this.code = input.code;
    this.declineCode = input.declineCode;
    this.statusCode = input.statusCode;
    this.requestId = input.requestId;
  }
}

/** Stripe could not be reached (or did not answer in time) after every retry. */
export class StripeConnectionError extends StripeApiError {
  constructor(cause: unknown) {
    super({
      type: "api_connection_error",
      message: `Could not reach Stripe: ${cause instanceof Error ? cause.message : String(cause)}`,
    });
    this.name = "StripeConnectionError";
  }
}

export class StripeNotConfiguredError extends Error {
  constructor(what = "STRIPE_SECRET_KEY") {
    super(`Stripe is not configured (${what} is missing): payments run in test mode.`);
  }
}

type RequestOptions = { idempotencyKey?: string };
type Method = "GET" | "POST" | "DELETE";
type Params = object;

/**
 * `a[b][0]=c` form encoding, as Stripe's API reads it (the `stripe` package's stringifyRequestData):
 * undefined is left out, null is sent empty (which unsets a field), dates as Unix seconds.
 */
export function encodeStripeParams(params: Params): string {
  const pairs: string[] = [];
  const encode = (text: string) =>
    encodeURIComponent(text)
      .replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
      .replace(/%5B/g, "[")
      .replace(/%5D/g, "]");
  const add = (key: string, value: unknown) => {
    if (value === undefined) return;
    if (value === null || typeof value !== "object" || value instanceof Date) {
      const text =
        value === null
          ? ""
          : value instanceof Date
            ? String(Math.floor(value.getTime() / 1000))
            : String(value);
      pairs.push(`${encode(key)}=${encode(text)}`);
    } else if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) add(`${key}[${index}]`, item);
    } else {
      for (const [name, item] of Object.entries(value)) add(`${key}[${name}]`, item);
    }
  };
  for (const [key, value] of Object.entries(params)) add(key, value);
  return pairs.join("&");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Exponential backoff with jitter, never below the first delay, and at least Retry-After. */
function retryDelayMs(retry: number, retryAfter: string | null) {
  const backoff = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** (retry - 1), MAX_RETRY_DELAY_MS);
  const jittered = Math.max(INITIAL_RETRY_DELAY_MS, backoff * 0.5 * (1 + Math.random()));
  const asked = Number(retryAfter);
  return Number.isFinite(asked) && asked > 0 ? Math.max(jittered, Math.min(asked, 60) * 1000) : jittered;
}

function shouldRetry(response: Response) {
  const advice = response.headers.get("Stripe-Should-Retry");
  if (advice === "false") return false;
  if (advice === "true") return true;
  return response.status === 409 || response.status >= 500;
}

async function errorFrom(response: Response): Promise<StripeApiError> {
  const requestId = response.headers.get("Request-Id") ?? undefined;
  let body: { error?: { type?: string; code?: string; decline_code?: string; message?: string } } = {};
  try {
    body = await response.json();
  } catch {
    // Not Stripe's JSON (a proxy's error page): described by its status below.
  }
  const error = body.error ?? {};
  return new StripeApiError({
    type: error.type ?? "api_error",
    message: error.message ?? `Stripe answered ${response.status}`,
    code: error.code,
    declineCode: error.decline_code,
    statusCode: response.status,
    requestId,
  });
}

export type StripeClient = ReturnType<typeof createStripeClient>;

/** A client for `config`; `apiBase` (tests only) points it at a local fake of the API. */
export function createStripeClient(config: AppConfig["stripe"]) {
  const secretKey = config.secretKey;
  if (!secretKey) throw new StripeNotConfiguredError();
  const apiBase = config.apiBase ?? DEFAULT_API_BASE;

  async function request<Result>(
    method: Method,
    path: string,
    params: Params = {},
    options: RequestOptions = {},
  ): Promise<Result> {
    const url = new URL(path, apiBase);
    const encoded = encodeStripeParams(params);
    if (method !== "POST" && encoded) url.search = encoded;
    const headers: Record<string, string> = {
      Accept: "application/json",
      Authorization: `Bearer ${secretKey}`,
      "Content-Type": "application/x-www-form-urlencoded",
      "Stripe-Version": STRIPE_API_VERSION,
      "User-Agent": "expert-answers (Cloudflare Workers)",
    };
    if (method === "POST") {
      // One key for every attempt of this call: Stripe answers a retry with the first result.
      headers["Idempotency-Key"] = options.idempotencyKey ?? `retry-safe-${crypto.randomUUID()}`;
    }

    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(url, {
          method,
          headers,
          body: method === "POST" ? encoded : undefined,
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        if (attempt < MAX_NETWORK_RETRIES) {
          await sleep(retryDelayMs(attempt + 1, null));
          continue;
        }
        throw new StripeConnectionError(error);
      }
      if (response.ok) return (await response.json()) as Result;
      if (attempt < MAX_NETWORK_RETRIES && shouldRetry(response)) {
        await response.body?.cancel();
        await sleep(retryDelayMs(attempt + 1, response.headers.get("Retry-After")));
        continue;
      }
      throw await errorFrom(response);
    }
  }

  const id = (value: string) => encodeURIComponent(value);

  return {
    paymentIntents: {
      create: (params: Stripe.PaymentIntentCreateParams, options?: RequestOptions) =>
        request<Stripe.PaymentIntent>("POST", "/v1/payment_intents", params, options),
      retrieve: (intentId: string) =>
        request<Stripe.PaymentIntent>("GET", `/v1/payment_intents/${id(intentId)}`),
      capture: (intentId: string, params: Stripe.PaymentIntentCaptureParams, options?: RequestOptions) =>
        request<Stripe.PaymentIntent>("POST", `/v1/payment_intents/${id(intentId)}/capture`, params, options),
      cancel: (intentId: string, params: Stripe.PaymentIntentCancelParams, options?: RequestOptions) =>
        request<Stripe.PaymentIntent>("POST", `/v1/payment_intents/${id(intentId)}/cancel`, params, options),
    },
    refunds: {
      create: (params: Stripe.RefundCreateParams, options?: RequestOptions) =>
        request<Stripe.Refund>("POST", "/v1/refunds", params, options),
    },
    customers: {
      create: (params: Stripe.CustomerCreateParams, options?: RequestOptions) =>
        request<Stripe.Customer>("POST", "/v1/customers", params, options),
    },
    subscriptions: {
      create: (params: Stripe.SubscriptionCreateParams, options?: RequestOptions) =>
        request<Stripe.Subscription>("POST", "/v1/subscriptions", params, options),
      retrieve: (subscriptionId: string, params: Stripe.SubscriptionRetrieveParams = {}) =>
        request<Stripe.Subscription>("GET", `/v1/subscriptions/${id(subscriptionId)}`, params),
      update: (subscriptionId: string, params: Stripe.SubscriptionUpdateParams, options?: RequestOptions) =>
        request<Stripe.Subscription>("POST", `/v1/subscriptions/${id(subscriptionId)}`, params, options),
      cancel: (subscriptionId: string) =>
        request<Stripe.Subscription>("DELETE", `/v1/subscriptions/${id(subscriptionId)}`),
    },
  };
}

const clients = new WeakMap<AppLoadContext, StripeClient>();

/** The request's Stripe client, built on first use. Throws in test mode (no secret key). */
export function getStripe(context: Pick<AppLoadContext, "config">): StripeClient {
  const key = context as AppLoadContext;
  let client = clients.get(key);
  if (!client) {
    client = createStripeClient(context.config.stripe);
    clients.set(key, client);
  }
  return client;
}

/** The client when payments are live, or null in test mode. */
export function getOptionalStripe(context: Pick<AppLoadContext, "config">): StripeClient | null {
  return context.config.paymentsTestMode ? null : getStripe(context);
}

export class WebhookSignatureError extends Error {}

/** Compares two hex digests without stopping at the first difference. */
function sameDigest(a: string, b: string) {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

/**
 * Checks a `Stripe-Signature` header (`t=<unix seconds>,v1=<hex HMAC-SHA256>,...`) against the raw
 * payload as https://docs.stripe.com/webhooks/signature describes: the HMAC of `${t}.${payload}`
 * under the endpoint's secret must equal one of the v1 signatures, and t may be at most five
 * minutes old at `nowMs`. Throws WebhookSignatureError otherwise.
 */
export async function verifyStripeSignature(
  payload: string,
  header: string,
  secret: string,
  nowMs: number,
): Promise<void> {
  let timestamp = Number.NaN;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const [name, value = ""] = part.trim().split("=", 2);
    if (name === "t" && /^\d+$/.test(value)) timestamp = Number(value);
    else if (name === "v1" && value) signatures.push(value.toLowerCase());
  }
  if (!Number.isFinite(timestamp)) throw new WebhookSignatureError("No timestamp in the signature header");
  if (signatures.length === 0) throw new WebhookSignatureError("No v1 signature in the signature header");
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const expected = toHex(
    await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${timestamp}.${payload}`)),
  );
  if (!signatures.some((signature) => sameDigest(signature, expected))) {
    throw new WebhookSignatureError("No signature matches the payload");
  }
  if (Math.floor(nowMs / 1000) - timestamp > WEBHOOK_TOLERANCE_SECONDS) {
    throw new WebhookSignatureError("The signature's timestamp is outside the tolerance zone");
  }
}

/**
 * Verifies a webhook request's `Stripe-Signature` against the raw body and returns the event.
 * Throws WebhookSignatureError for anything that does not verify.
 */
export async function verifyWebhookRequest(
  context: Pick<AppLoadContext, "config" | "now">,
  request: Request,
): Promise<Stripe.Event> {
  const secret = context.config.stripe.webhookSecret;
  if (!secret) throw new StripeNotConfiguredError("STRIPE_WEBHOOK_SECRET");
  const signature = request.headers.get("Stripe-Signature");
  if (!signature) throw new WebhookSignatureError("Missing Stripe-Signature header");
  // The exact bytes Stripe signed: never a re-serialised JSON body.
  const payload = await request.text();
  await verifyStripeSignature(payload, signature, secret, context.now());
  let event: unknown;
  try {
    event = JSON.parse(payload);
  } catch {
    throw new WebhookSignatureError("The signed payload is not JSON");
  }
  if (!event || typeof event !== "object" || (event as { object?: unknown }).object !== "event") {
    throw new WebhookSignatureError("The signed payload is not an event");
  }
  return event as Stripe.Event;
}

/** A message that can be shown or logged for a failed Stripe call. */
export function stripeErrorMessage(error: unknown): string {
  if (error instanceof StripeApiError) return error.message || error.type;
  if (error instanceof Error) return error.message;
  return String(error);
}
