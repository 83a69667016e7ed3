/**
 * The test side of the Stripe fake (tests/integration/support/stripe-fake.ts): these fetches leave
 * the Worker's isolate and land in the fake through Miniflare's outboundService, like the app's own
 * calls to Stripe. Webhook events are signed with the `stripe` library, as Stripe signs them.
 */
import { env, SELF } from "cloudflare:test";
import Stripe from "stripe";
import { BASE } from "./accounts";

const FAKE = "http://stripe.fake";

export type FakeIntent = Stripe.PaymentIntent;

export type RecordedRequest = {
  method: string;
  path: string;
  params: Record<string, unknown>;
  idempotencyKey: string | null;
  stripeVersion: string | null;
  contentType: string | null;
  status: number;
  objects: string[];
  replayed: boolean;
};

async function control<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${FAKE}/__control${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`fake Stripe ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<T>;
}

export const stripeFake = {
  /** The PaymentIntent as Stripe holds it now. */
  intent: (id: string) => control<FakeIntent>(`/payment_intents/${id}`),
  /** What the browser's confirmation does: authorise (requires_capture), decline (with an error)... */
  setStatus: (id: string, status: FakeIntent["status"], error?: { message: string; code?: string }) =>
    control<FakeIntent>(`/payment_intents/${id}/status`, { status, error }),
  /** A PaymentIntent made outside the app (another integration, a forger's $1...). */
  createForeign: (input: {
    amount: number;
    metadata?: Record<string, string>;
    status?: FakeIntent["status"];
    capture_method?: "manual" | "automatic";
  }) => control<FakeIntent>("/payment_intents", input),
  /** The next capture/cancel/refund of this PaymentIntent is refused. */
  failNext: (id: string, operation: "capture" | "cancel" | "refund", message = "Your card was declined.") =>
    control<{ ok: true }>(`/payment_intents/${id}/fail-next`, { operation, message }),
  /** Stripe unreachable for this PaymentIntent: its next reads fail with a 500, retries included. */
  failRetrieves: (id: string, times = 5) =>
    control<{ ok: true }>(`/payment_intents/${id}/fail-next`, {
      operation: "retrieve",
      httpStatus: 500,
      times,
      type: "api_error",
      code: "api_error",
      message: "An error occurred with our connection to Stripe.",
    }),
  /**
   * The next PaymentIntent or subscription created for this user (metadata.userId) fails with a 500,
   * as Stripe sometimes does (`times` in a row).
   */
  failNextCreate: (userId: number, times = 1) =>
    control<{ ok: true }>("/fail-create", { userId: String(userId), times }),
  /** The API requests that concerned an object (its creation, captures, refunds...). */
  requests: (objectId: string) =>
    control<RecordedRequest[]>(`/requests?object=${encodeURIComponent(objectId)}`),

  // Billing (subscriptions)
  /** The subscription as Stripe holds it now (latest_invoice is the invoice's id). */
  subscription: (id: string) => control<Stripe.Subscription>(`/subscriptions/${id}`),
  invoice: (id: string) => control<Stripe.Invoice>(`/invoices/${id}`),
  /** The Stripe customers with this e-mail address. */
  customersWithEmail: (email: string) =>
    control<Stripe.Customer[]>(`/customers?email=${encodeURIComponent(email)}`),
  /** The browser confirmed the invoice's payment: the invoice is paid and the subscription active. */
  payInvoice: (id: string) => control<BillingChange>(`/invoices/${id}/pay`, {}),
  /** The card was declined for the invoice. */
  failInvoice: (id: string, message = "Your card was declined.") =>
    control<BillingChange>(`/invoices/${id}/fail`, { message }),
  /** The next billing period starts: its invoice is charged, or declined. */
  renew: (id: string, { decline = false } = {}) =>
    control<BillingChange>(
      `/subscriptions/${id}/renew`,
      decline ? { status: "requires_payment_method", message: "Your card was declined." } : {},
    ),
  /** The next cancellation of the subscription fails with a 500. */
  failNextCancel: (id: string) => control<{ ok: true }>(`/subscriptions/${id}/fail-next`, {}),
  /** The subscription ends (its cancelled period ran out, or Stripe stopped retrying). */
  end: (id: string) => control<Stripe.Subscription>(`/subscriptions/${id}/end`, {}),
};

export type BillingChange = { invoice: Stripe.Invoice; subscription: Stripe.Subscription | null };

let eventCounter = 0;

/**
 * A Charge as Stripe's charge.refunded event carries it (the fields this app reads, and their
 * neighbours). An uncaptured charge "refunded" is an authorisation released.
 */
export function refundedCharge(
  paymentIntentId: string | null,
  amount: number,
  { amountRefunded = amount, captured = true }: { amountRefunded?: number; captured?: boolean } = {},
) {
  return {
    id: `ch_test_${(paymentIntentId ?? "none").slice(-8)}`,
    object: "charge",
    amount,
    amount_captured: captured ? amount : 0,
    amount_refunded: amountRefunded,
    captured,
    currency: "usd",
    paid: true,
    payment_intent: paymentIntentId,
    refunded: amountRefunded === amount,
    status: "succeeded",
    metadata: {},
    livemode: false,
  };
}

/**
 * A Stripe event (as the API delivers it) about `object`. `created` (seconds) places it in time,
 * for events that arrive out of order; by default it is now.
 */
export function stripeEvent(
  type: string,
  object: unknown,
  { created = Math.floor(Date.now() / 1000) }: { created?: number } = {},
): Record<string, unknown> {
  eventCounter += 1;
  return {
    id: `evt_test_${Date.now().toString(36)}_${eventCounter}`,
    object: "event",
    api_version: Stripe.API_VERSION,
    created,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** POSTs an event to /webhooks/stripe signed with `secret` (the configured one by default). */
export async function sendWebhook(
  event: Record<string, unknown>,
  {
    secret = env.STRIPE_WEBHOOK_SECRET as string,
    signatureFor,
  }: { secret?: string; signatureFor?: string } = {},
) {
  const payload = JSON.stringify(event);
  const signature = await Stripe.webhooks.generateTestHeaderStringAsync({
    payload: signatureFor ?? payload,
    secret,
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
  return postWebhook(payload, signature);
}

/** A webhook request as anyone could send it (no or a made-up signature). */
export function postWebhook(payload: string, signature: string | null) {
  return SELF.fetch(`${BASE}/webhooks/stripe`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(signature ? { "Stripe-Signature": signature } : {}) },
    body: payload,
  });
}
