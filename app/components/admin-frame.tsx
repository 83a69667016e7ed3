import { Form, Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { Button } from "./ui/button";

const ADMIN_SECTIONS = [
  // /admin/dashboard is the same screen as /admin (SPEC.md: where an admin lands after signing in).
  {
    to: "/admin",
    label: "Questions",
    isCurrent: (path: string) => path === "/admin" || path === "/admin/dashboard",
  },
  { to: "/admin/experts", label: "Experts", isCurrent: (path: string) => path.startsWith("/admin/experts") },
  {
    to: "/admin/messages",
    label: "Messages",
    isCurrent: (path: string) => path.startsWith("/admin/messages"),
  },
  { to: "/admin/runs", label: "Scheduled runs", isCurrent: (path: string) => path.startsWith("/admin/runs") },
];

/** The admin area's heading, section links and Logout, shared by every admin screen. */
export function AdminFrame({ signedInAs, children }: { signedInAs: string; children: ReactNode }) {
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
            aria-current={section.isCurrent(pathname.replace(/\/+$/, "")) ? "page" : undefined}
          >
            {section.label}
          </Link>
        ))}
      </nav>
      {children}
    </div>
  );
}
