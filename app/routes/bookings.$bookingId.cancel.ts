import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { getOptionalUser } from "~/auth/session.server";
import { keepFormWhenOffline } from "~/components/keep-form-when-offline";
import { respondToAction } from "~/lib/action-response.server";
import { bookingDeps, cancelBooking, parseId } from "~/models/bookings.server";

/**
 * POST /bookings/{id}/cancel: the client (up to 24 hours before the start) or the expert cancels a
 * confirmed session; it is refunded in full and the other party is told. Someone else's booking is
 * a 404, as one that does not exist (its id says nothing), and nothing changes; a second cancel is a 409 and refunds nothing.
 */
export const clientAction = keepFormWhenOffline;

export async function action({ request, params, context }: ActionFunctionArgs) {
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  const reply = (outcome: Parameters<typeof respondToAction>[1]) =>
    respondToAction(request, outcome, { redirectTo, fallback: "/dashboard/bookings" });
  const user = await getOptionalUser(context, request);
  if (!user) return reply({ ok: false, status: 401, message: "Please log in to manage your bookings." });
  const bookingId = parseId(params.bookingId);
  if (bookingId === null) return reply({ ok: false, status: 404, message: "Booking not found." });
  const result = await cancelBooking(bookingDeps(context), {
    actor: { userId: user.id, expertId: user.expertProfile?.id ?? null },
    bookingId,
  });
  if (!result.ok) return reply({ ok: false, status: result.httpStatus, message: result.message });
  return reply({
    ok: true,
    status: 200,
    message: result.message,
    refund: result.refund,
    toast: { title: "Session cancelled", description: result.message },
  });
}

export const loader = () => new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
