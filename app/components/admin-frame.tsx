import { Form, Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useFocusKeeper } from "~/components/use-focus-keeper";
import { NeedsJavaScript } from "./needs-javascript";
import { Button } from "./ui/button";

const ADMIN_SECTIONS = [
  // /admin/dashboard is the same screen as /admin (SPEC.md: where an admin lands after signing in).
  { to: "/admin", label: "Questions", alsoAt: "/admin/dashboard" },
  { to: "/admin/experts", label: "Experts" },
  { to: "/admin/messages", label: "Messages" },
  { to: "/admin/runs", label: "Scheduled runs" },
];

/** Whether `pathname` shows `section`: its own page, its alias, or (below /admin) a page under it. */
function isCurrent(section: (typeof ADMIN_SECTIONS)[number], pathname: string) {
  const path = pathname.replace(/\/+$/, "");
  if (path === section.to || ("alsoAt" in section && path === section.alsoAt)) return true;
  return section.to !== "/admin" && path.startsWith(section.to);
}

/** The admin area's heading, section links and Logout, shared by every admin screen. */
export function AdminFrame({ signedInAs, children }: { signedInAs: string; children: ReactNode }) {
  useFocusKeeper();
  const { pathname } = useLocation();
  return (
    <div className="page stack-lg">
      <header className="page-header">
        <div>
          <h1>Admin</h1>
          <p className="muted">Signed in as {signedInAs}</p>
        </div>
        <div className="row">
          <Form method="post" action="/logout">
            <input type="hidden" name="redirectTo" value="/admin/login" />
            <Button type="submit" variant="secondary" size="sm">
              Logout
            </Button>
          </Form>
        </div>
      </header>
      <nav aria-label="Admin sections" className="section-nav">
        {ADMIN_SECTIONS.map((section) => (
          <Link
            key={section.to}
            to={section.to}
            className="section-nav__link"
            aria-current={isCurrent(section, pathname) ? "page" : undefined}
          >
            {section.label}
          </Link>
        ))}
      </nav>
      <NeedsJavaScript>
        The admin area needs JavaScript for most of its actions. Please turn it on in your browser and reload
        this page.
      </NeedsJavaScript>
      {children}
    </div>
  );
}
