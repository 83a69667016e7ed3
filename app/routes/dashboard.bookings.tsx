import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/auth/guards.server";
import { ClientBookings } from "~/components/client-bookings";
import { getClientDashboard } from "~/models/client-dashboard.server";
import { PRIVATE_CACHE_CONTROL } from "~/services/cache.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  const { bookings } = await getClientDashboard(context.db, user.id);
  return data({ bookings, now: context.now() }, { headers: { "Cache-Control": PRIVATE_CACHE_CONTROL } });
}

export default function DashboardBookings() {
  const { bookings, now } = useLoaderData<typeof loader>();
  return <ClientBookings bookings={bookings} now={now} />;
}
