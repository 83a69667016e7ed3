import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { processStripeEvent } from "~/models/stripe-webhooks.server";
import {
  getStripe,
  StripeNotConfiguredError,
  verifyWebhookRequest,
  WebhookSignatureError,
} from "~/services/stripe.server";

const NO_STORE = { "Cache-Control": "no-store" };

/** What a 405 or an OPTIONS says this URL takes (workers/app.ts reads it). */
export const allowedMethods = ["POST"] as const;
const methodNotAllowed = () =>
  new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST", ...NO_STORE } });

/**
 * POST /webhooks/stripe: Stripe's events, signature verified on the raw body. A bad signature is a
 * 400 and changes nothing; each event id is processed once; events we do not handle get a 200.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  let event: Awaited<ReturnType<typeof verifyWebhookRequest>>;
  try {
    event = await verifyWebhookRequest(context, request);
  } catch (error) {
    if (error instanceof WebhookSignatureError || error instanceof StripeNotConfiguredError) {
      console.warn(JSON.stringify({ level: "warn", message: "webhook refused", reason: error.message }));
      return new Response("Invalid signature", { status: 400, headers: NO_STORE });
    }
    throw error;
  }
  const outcome = await processStripeEvent(
    context.primaryDb,
    event,
    new Date(context.now()),
    getStripe(context),
  );
  console.log(
    JSON.stringify({ level: "info", message: "webhook", event: event.id, type: event.type, ...outcome }),
  );
  return Response.json({ received: true, ...outcome }, { headers: NO_STORE });
}

export const loader = methodNotAllowed;
