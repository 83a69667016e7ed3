import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/auth/guards.server";
import { Button, buttonClass } from "~/components/ui/button";
import { useFocusKeeper } from "~/components/use-focus-keeper";
import { revalidateUnlessUnreachable } from "~/lib/revalidation";
import { PRIVATE_CACHE_CONTROL } from "~/services/cache.server";
import dashboardStyles from "~/styles/dashboard.css";
import discoveryStyles from "~/styles/discovery.css";
import reviewStyles from "~/styles/reviews.css";

export const links = () => [
  { rel: "stylesheet", href: discoveryStyles },
  { rel: "stylesheet", href: dashboardStyles },
  { rel: "stylesheet", href: reviewStyles },
];

export const meta: MetaFunction = () => [
  { title: "My Dashboard | Expert Answers" },
  { name: "description", content: "Your questions, bookings, favourite experts and account." },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  return data({ name: user.name ?? user.username }, { headers: { "Cache-Control": PRIVATE_CACHE_CONTROL } });
}

export const headers = () => ({ "Cache-Control": PRIVATE_CACHE_CONTROL });

/** SPEC.md: /dashboard, /dashboard/questions, /dashboard/bookings and /dashboard/settings. */
const SECTIONS = [
  { to: "/dashboard", label: "Overview", end: true },
  { to: "/dashboard/questions", label: "Questions", end: false },
  { to: "/dashboard/bookings", label: "Bookings", end: false },
  { to: "/dashboard/settings", label: "Settings", end: false },
];

/** The client dashboard's frame; each section below checks the session again in its own loader. */
export const shouldRevalidate = revalidateUnlessUnreachable;

export default function Dashboard() {
  useFocusKeeper();
  const { name } = useLoaderData<typeof loader>();
  return (
    <div className="page stack-lg dashboard">
      <header className="page-header">
        <div>
          <h1>My Dashboard</h1>
          <p className="muted">Signed in as {name}</p>
        </div>
        <div className="row">
          <Link to="/" className={buttonClass({ variant: "secondary", size: "sm" })}>
            Home
          </Link>
          <Link to="/experts" className={buttonClass({ variant: "secondary", size: "sm" })}>
            Browse Experts
          </Link>
          <Form method="post" action="/logout">
            <input type="hidden" name="redirectTo" value="/" />
            <Button type="submit" variant="ghost" size="sm">
              Log Out
            </Button>
          </Form>
        </div>
      </header>
      <nav aria-label="Dashboard sections" className="section-nav">
        {SECTIONS.map((section) => (
          <NavLink key={section.to} to={section.to} end={section.end} className="section-nav__link">
            {section.label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}
