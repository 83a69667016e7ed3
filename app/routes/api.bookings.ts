import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiError, methodNotAllowed, readJson, requireApiUser } from "~/lib/api.server";
import { bookedPath } from "~/lib/booking-texts";
import { bookingDeps, clientBookingsView, createBooking } from "~/models/bookings.server";
import { getClientDashboard } from "~/models/client-dashboard.server";
import { BookingApiSchema } from "~/schemas/bookings";

export const allowedMethods = ["GET", "HEAD", "POST"] as const;

const NO_STORE = { "Cache-Control": "private, no-store" };

/** GET /api/bookings: the caller's own sessions (never unpaid holds). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(context, request);
  const { bookings } = await getClientDashboard(context.primaryDb, user.id);
  const view = clientBookingsView(bookings, {
    clientName: user.name ?? user.username,
    origin: new URL(request.url).origin,
    now: new Date(context.now()),
  });
  return Response.json(view, { headers: NO_STORE });
}

/**
 * POST /api/bookings {expertId, date, time, timeZone?, name, email, message, status?, bookingId?}
 * (SPEC.md section 7). Holds the slot and answers with the PaymentIntent's client secret to confirm;
 * in test mode the booking is confirmed at once (201). The server ignores `status` and any price.
 * A slot someone else holds or booked first: 409 with the date's free slots as they are now.
 * `expectedAmount` is the price in cents the client was shown: another price now is a 409 with
 * reason "price_changed", never a charge they did not see.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(...allowedMethods);
  const user = await requireApiUser(context, request);
  const input = await readJson(request, BookingApiSchema);
  const result = await createBooking(bookingDeps(context), {
    booker: user,
    booking: {
      expertId: input.expertId,
      date: input.date,
      time: input.time,
      timeZone: input.timeZone ?? null,
      name: input.name,
      email: input.email,
      message: input.message,
      retryBookingId: input.bookingId ?? null,
      expectedAmount: input.expectedAmount ?? null,
    },
  });
  if (result.status === "refused") {
    return apiError(result.httpStatus, result.message, {
      ...(result.reason ? { reason: result.reason } : {}),
      ...(result.field ? { fieldErrors: { [result.field]: [result.message] } } : {}),
      ...(result.slots ? { slots: result.slots } : {}),
    });
  }
  const created = result.status === "confirmed" || result.status === "pending";
  return Response.json(
    {
      ...result,
      ...(created ? { redirectTo: bookedPath(result.bookingId, result.status) } : {}),
    },
    { status: created ? 201 : 200, headers: NO_STORE },
  );
}
