import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiError } from "~/lib/api.server";
import { isValidDate, upcomingSlots } from "~/lib/slots";
import { getBookingExpert, listBusyStarts, parseId } from "~/models/bookings.server";

/**
 * GET /api/experts/{id}/availability[?date=yyyy-MM-dd] (SPEC.md section 7): the expert's zone,
 * weekly schedule, whether they take bookings, and the free slots (all of the booking horizon, or
 * one of the expert's local dates). Public, like the profile; never cached, since slots go fast.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const expertId = parseId(params.id);
  const expert = expertId === null ? null : await getBookingExpert(context.db, expertId);
  if (!expert) return apiError(404, "This expert could not be found. Please check the URL and try again.");
  const date = new URL(request.url).searchParams.get("date");
  if (date !== null && !isValidDate(date)) return apiError(400, "Please select a date for your session");
  const now = new Date(context.now());
  const busy = expert.isAvailable ? await listBusyStarts(context.db, expert.id, now) : [];
  const slots = expert.isAvailable
    ? upcomingSlots({
        schedule: expert.schedule,
        timeZone: expert.timeZone,
        now: now.getTime(),
        busy,
      }).filter((slot) => date === null || slot.date === date)
    : [];
  return Response.json(
    {
      expertId: expert.id,
      timeZone: expert.timeZone,
      isAvailable: expert.isAvailable,
      usesDefaultSchedule: expert.usesDefaultSchedule,
      schedule: expert.schedule,
      slots,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}
