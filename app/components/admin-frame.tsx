import { Form, NavLink } from "@remix-run/react";
import type { ReactNode } from "react";
import { Button } from "./ui/button";

const ADMIN_SECTIONS = [
  { to: "/admin", label: "Questions", end: true },
  { to: "/admin/experts", label: "Experts", end: false },
  { to: "/admin/messages", label: "Messages", end: false },
  { to: "/admin/runs", label: "Scheduled runs", end: false },
];

/** The admin area's heading, section links and Logout, shared by every admin screen. */
export function AdminFrame({ signedInAs, children }: { signedInAs: string; children: ReactNode }) {
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
          <NavLink key={section.to} to={section.to} end={section.end} className="section-nav__link">
            {section.label}
          </NavLink>
        ))}
      </nav>
      {children}
    </div>
  );
}
