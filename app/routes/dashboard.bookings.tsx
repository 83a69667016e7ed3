import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/auth/guards.server";
import { ClientBookingActions } from "~/components/bookings/client-booking-actions";
import { ClientBookings } from "~/components/client-bookings";
import { revalidateUnlessUnreachable } from "~/lib/revalidation";
import { clientBookingsView } from "~/models/bookings.server";
import { getClientDashboard } from "~/models/client-dashboard.server";
import { PRIVATE_CACHE_CONTROL } from "~/services/cache.server";
import bookingsStylesHref from "~/styles/bookings.css";

/** A title of its own, not the dashboard's, so tabs, history and screen readers tell the sections apart. */
export const meta: MetaFunction = () => [
  { title: "My Bookings | Expert Answers" },
  { name: "robots", content: "noindex" },
];

export const links = () => [{ rel: "stylesheet", href: bookingsStylesHref }];

export const shouldRevalidate = revalidateUnlessUnreachable;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  const { bookings } = await getClientDashboard(context.db, user.id);
  const now = context.now();
  return data(
    {
      bookings: clientBookingsView(bookings, {
        clientName: user.name ?? user.username,
        origin: new URL(request.url).origin,
        now: new Date(now),
      }),
      now,
    },
    { headers: { "Cache-Control": PRIVATE_CACHE_CONTROL } },
  );
}

export default function DashboardBookings() {
  const { bookings, now } = useLoaderData<typeof loader>();
  return (
    <ClientBookings
      bookings={bookings}
      now={now}
      renderActions={(booking) => <ClientBookingActions booking={booking} now={now} />}
    />
  );
}
