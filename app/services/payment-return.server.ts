import { redirectWithToast } from "~/services/flash.server";

/**
 * The return from a bank or 3-D Secure page when Stripe can't be asked about the payment just then:
 * never an error page right after paying. The client is sent to their list and asked not to pay
 * again; the webhook records the payment when Stripe tells us.
 */
export function paymentNotConfirmedYet(
  what: "question" | "session",
  subject: { questionId: number } | { bookingId: number },
  error: unknown,
) {
  console.error(
    JSON.stringify({
      level: "error",
      message: "confirming a returned payment failed",
      ...subject,
      error: String(error),
    }),
  );
  return redirectWithToast(what === "question" ? "/dashboard/questions" : "/dashboard/bookings", {
    title: "Payment not confirmed yet",
    description: `We couldn't reach our payment provider to confirm your payment. Please don't pay again: if it went through, your ${what} appears here within a few minutes.`,
    variant: "destructive",
  });
}
