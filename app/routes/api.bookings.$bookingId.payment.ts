import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { apiError, methodNotAllowed, readJson, requireApiUser } from "~/lib/api.server";
import { bookedPath } from "~/lib/booking-texts";
import { bookingDeps, confirmBookingPayment, parseId } from "~/models/bookings.server";
import { ConfirmBookingPaymentSchema } from "~/schemas/bookings";

export const allowedMethods = ["POST"] as const;

/**
 * POST /api/bookings/{id}/payment {paymentIntentId}: the browser confirmed the payment; the server
 * checks the PaymentIntent with Stripe (this booking's, succeeded, the right amount) before the
 * session counts as booked. 400 with the reason otherwise; 409 when the hold ran out and the slot
 * went to someone else (the payment is then refunded).
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(...allowedMethods);
  const user = await requireApiUser(context, request);
  const bookingId = parseId(params.bookingId);
  if (bookingId === null) return apiError(404, "Booking not found.");
  const { paymentIntentId } = await readJson(request, ConfirmBookingPaymentSchema);
  const result = await confirmBookingPayment(bookingDeps(context), {
    userId: user.id,
    bookingId,
    paymentIntentId,
  });
  if (!result.ok) {
    const status =
      result.reason === "not_found"
        ? 404
        : result.reason === "slot_taken" || result.reason === "started"
          ? 409
          : 400;
    return apiError(status, result.message, { reason: result.reason });
  }
  return Response.json(
    { status: result.status, bookingId, redirectTo: bookedPath(bookingId, result.status) },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const loader = () => methodNotAllowed(...allowedMethods);
