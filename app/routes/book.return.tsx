import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireUser } from "~/auth/guards.server";
import { bookedPath, bookedToast } from "~/lib/booking-texts";
import { bookingDeps, confirmBookingPayment, getBookingRow, parseId } from "~/models/bookings.server";
import { redirectWithToast } from "~/services/flash.server";
import { paymentNotConfirmedYet } from "~/services/payment-return.server";

/**
 * GET /book/return?booking={id}&payment_intent={pi}: where Stripe sends the browser back after a
 * payment method that needed a redirect. The server checks the PaymentIntent itself; the query
 * string only says which one.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  const url = new URL(request.url);
  const bookingId = parseId(url.searchParams.get("booking"));
  const paymentIntentId = url.searchParams.get("payment_intent") ?? "";
  const deps = bookingDeps(context);
  const found = bookingId === null ? null : await getBookingRow(deps.db, bookingId);
  // Someone else's booking is answered as one that does not exist: not even its expert shows.
  const booking = found?.userId === user.id ? found : null;
  const back = booking ? `/book/${booking.expertId}` : "/experts";
  if (!booking || !/^pi_[A-Za-z0-9_]{1,250}$/.test(paymentIntentId)) {
    return redirectWithToast(back, {
      title: "Error",
      description: "An error occurred. Please try again.",
      variant: "destructive",
    });
  }
  let result: Awaited<ReturnType<typeof confirmBookingPayment>>;
  try {
    result = await confirmBookingPayment(deps, {
      userId: user.id,
      bookingId: booking.id,
      paymentIntentId,
    });
  } catch (error) {
    return paymentNotConfirmedYet("session", { bookingId: booking.id }, error);
  }
  if (!result.ok) {
    // Back to the screen with this hold's time and message chosen again, to pay again.
    return redirectWithToast(`${back}?${new URLSearchParams({ retry: String(booking.id) })}`, {
      title: "Payment Failed",
      description: result.message,
      variant: "destructive",
    });
  }
  return redirectWithToast(bookedPath(booking.id, result.status), bookedToast(result.status));
}
