import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Outlet, useLoaderData } from "@remix-run/react";
import { requireExpert } from "~/auth/guards.server";
import { NeedsJavaScript } from "~/components/needs-javascript";
import { type PortalLink, PortalSidebar } from "~/components/portal-sidebar";
import { useFocusKeeper } from "~/components/use-focus-keeper";
import { publicProfilePath } from "~/lib/expert-urls";
import { revalidateUnlessUnreachable } from "~/lib/revalidation";

/**
 * SPEC.md "Expert portal" sidebar, in its order: View Profile (a new tab) comes before Account,
 * and only when there is a profile to view.
 */
function portalLinks(profileUrl: string | null): PortalLink[] {
  return [
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
    ...(profileUrl ? [{ to: profileUrl, label: "View Profile", newTab: true }] : []),
    { to: "/expert/account", label: "Account" },
  ];
}

/** The expert portal's frame. Every page below checks requireExpert in its own loader too. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireExpert(context, request);
  const profile = user.expertProfile;
  // No id is special (DESIGN.md): the profile is the one whose userId is the signed-in user's.
  return { profileUrl: profile ? publicProfilePath(profile) : null };
}

export const shouldRevalidate = revalidateUnlessUnreachable;

export default function ExpertPortal() {
  useFocusKeeper();
  const { profileUrl } = useLoaderData<typeof loader>();
  return (
    <div className="portal-layout">
      <PortalSidebar links={portalLinks(profileUrl)} />
      <div className="portal-main">
        <NeedsJavaScript>
          The expert portal needs JavaScript to answer questions, manage sessions and save your profile.
          Please turn it on in your browser and reload this page.
        </NeedsJavaScript>
        <Outlet />
      </div>
    </div>
  );
}
