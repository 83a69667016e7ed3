/**
 * Stripe, as Workers need it (DESIGN.md "Money and payments"): the fetch HTTP client and the
 * SubtleCrypto provider, built from `context.config.stripe`, once per request. Nothing here knows
 * about questions or bookings; app/models/payments.server.ts holds the money rules.
 *
 * Without STRIPE_SECRET_KEY the app runs in test mode and there is no client: `getStripe` throws,
 * so a code path that would move money in test mode fails loudly instead of pretending.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import Stripe from "stripe";
import type { AppConfig } from "~/config.server";

export type { Stripe };
export type StripeClient = Stripe;
export type PaymentIntent = Stripe.PaymentIntent;
export type StripeEvent = Stripe.Event;

/** Stripe's own error for a failed API call (card declined, wrong state, bad request...). */
export const StripeApiError = Stripe.errors.StripeError;
export type StripeApiError = InstanceType<typeof Stripe.errors.StripeError>;

export class StripeNotConfiguredError extends Error {
  constructor(what = "STRIPE_SECRET_KEY") {
    super(`Stripe is not configured (${what} is missing): payments run in test mode.`);
  }
}

/** A client for `config`; `apiBase` (tests only) points it at a local fake of the API. */
export function createStripeClient(config: AppConfig["stripe"]): Stripe {
  if (!config.secretKey) throw new StripeNotConfiguredError();
  const base = config.apiBase ? new URL(config.apiBase) : null;
  return new Stripe(config.secretKey, {
    httpClient: Stripe.createFetchHttpClient(),
    // Retries reuse the request's idempotency key, so a retry never moves money twice.
    maxNetworkRetries: 2,
    // Well inside a Worker's limits; a slow Stripe fails the request instead of hanging it.
    timeout: 20_000,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === "https:" ? 443 : 80),
          protocol: base.protocol === "https:" ? "https" : "http",
        }
      : {}),
  });
}

const clients = new WeakMap<AppLoadContext, Stripe>();

/** The request's Stripe client, built on first use. Throws in test mode (no secret key). */
export function getStripe(context: Pick<AppLoadContext, "config">): Stripe {
  const key = context as AppLoadContext;
  let client = clients.get(key);
  if (!client) {
    client = createStripeClient(context.config.stripe);
    clients.set(key, client);
  }
  return client;
}

/** The client when payments are live, or null in test mode. */
export function getOptionalStripe(context: Pick<AppLoadContext, "config">): Stripe | null {
  return context.config.paymentsTestMode ? null : getStripe(context);
}

export class WebhookSignatureError extends Error {}

/**
 * Verifies a webhook request's `Stripe-Signature` against the raw body (SubtleCrypto, as Workers
 * require) and returns the event. Throws WebhookSignatureError for anything that does not verify.
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
  try {
    return await Stripe.webhooks.constructEventAsync(
      payload,
      signature,
      secret,
      undefined,
      Stripe.createSubtleCryptoProvider(),
      context.now(),
    );
  } catch (error) {
    throw new WebhookSignatureError(error instanceof Error ? error.message : String(error));
  }
}

/** A message that can be shown or logged for a failed Stripe call. */
export function stripeErrorMessage(error: unknown): string {
  if (error instanceof Stripe.errors.StripeError) return error.message || error.type;
  if (error instanceof Error) return error.message;
  return String(error);
}
