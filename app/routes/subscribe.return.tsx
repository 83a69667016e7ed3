import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireUser } from "~/auth/guards.server";
import { subscriptionDeps, syncSubscriptionFromStripe } from "~/models/subscriptions.server";
import { SUBSCRIPTION_MESSAGES } from "~/schemas/subscription";
import { redirectWithToast } from "~/services/flash.server";

/**
 * GET /subscribe/return: where the browser goes once the first invoice is confirmed (and where Stripe
 * sends it back after a payment method that needed a redirect). The server reads the subscription
 * from Stripe itself; the query string Stripe adds is only a hint and is not trusted.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  const result = await syncSubscriptionFromStripe(subscriptionDeps(context), user.id);
  if (result.ok && result.active) {
    return redirectWithToast("/thank-you?subscription=true", {
      title: "Success!",
      description: "Your subscription is active.",
    });
  }
  return redirectWithToast("/subscribe", {
    title: "Payment Failed",
    description: result.ok ? SUBSCRIPTION_MESSAGES.notPaid : result.message,
    variant: "destructive",
  });
}
