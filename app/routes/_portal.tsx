import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Outlet, useLoaderData } from "@remix-run/react";
import { requireExpert } from "~/auth/guards.server";
import { type PortalLink, PortalSidebar } from "~/components/portal-sidebar";

/** SPEC.md "Expert portal" sidebar, in its order. */
const PORTAL_LINKS: PortalLink[] = [
  { to: "/expert/dashboard", label: "Dashboard" },
  { to: "/expert/questions", label: "Questions" },
  { to: "/expert/bookings", label: "Bookings" },
  {
    to: "/expert/earnings",
    label: "Earnings",
    children: [{ to: "/expert/earnings/analytics", label: "Analytics" }],
  },
  { to: "/expert/availability", label: "Availability" },
  { to: "/expert/share", label: "Share" },
  { to: "/expert/settings", label: "Edit Profile" },
  { to: "/expert/account", label: "Account" },
];

/** The expert portal's frame. Every page below checks requireExpert in its own loader too. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireExpert(context, request);
  const profile = user.expertProfile;
  return {
    profileUrl: profile ? (profile.customUrl ? `/${profile.customUrl}` : `/expert/${profile.id}`) : null,
  };
}

export default function ExpertPortal() {
  const { profileUrl } = useLoaderData<typeof loader>();
  return (
    <div className="portal-layout">
      <PortalSidebar links={PORTAL_LINKS} profileUrl={profileUrl} />
      <div className="portal-main">
        <Outlet />
      </div>
    </div>
  );
}
