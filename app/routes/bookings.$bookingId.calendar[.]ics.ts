import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireUser } from "~/auth/guards.server";
import { icsFile } from "~/lib/calendar-links";
import { getCalendarEventForViewer, parseId } from "~/models/bookings.server";

/**
 * GET /bookings/{id}/calendar.ics: the session as an iCalendar file (UTC times), for its client and
 * its expert only; anyone else gets a 404, with no hint that the booking exists.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  const bookingId = parseId(params.bookingId);
  const event =
    bookingId === null
      ? null
      : await getCalendarEventForViewer(context.db, {
          bookingId,
          viewer: { userId: user.id, expertId: user.expertProfile?.id ?? null },
          origin: new URL(request.url).origin,
        });
  if (!event) throw new Response("Not Found", { status: 404 });
  return new Response(
    icsFile({
      ...event,
      stamp: context.now(),
      organizerEmail: context.config.supportEmail,
    }),
    {
      headers: {
        "Content-Type": "text/calendar; charset=utf-8",
        "Content-Disposition": `attachment; filename="session-${bookingId}.ics"`,
        "Cache-Control": "private, no-store",
      },
    },
  );
}
