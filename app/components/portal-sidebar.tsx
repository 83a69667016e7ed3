import { Form, NavLink } from "@remix-run/react";
import { useRef, useState } from "react";
import { Button } from "./ui/button";

/** A sidebar entry: a portal page, or (newTab) a page outside the portal opened in a new tab. */
export type PortalLink = { to: string; label: string; children?: PortalLink[]; newTab?: boolean };

/**
 * The expert portal's navigation (SPEC.md "Expert portal"): a sidebar that collapses behind a
 * toggle under 768 px. Logout returns to /expert/login.
 */
export function PortalSidebar({ links }: { links: PortalLink[] }) {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  return (
    <aside
      className="portal-sidebar"
      data-open={open}
      onKeyDown={(event) => {
        // Escape closes the open menu, as it does the site's header menu, and focus goes to its toggle.
        if (event.key !== "Escape" || !open) return;
        close();
        toggleRef.current?.focus();
      }}
    >
      <Button
        ref={toggleRef}
        variant="secondary"
        size="sm"
        className="portal-sidebar__toggle"
        aria-expanded={open}
        aria-controls="portal-nav"
        onClick={() => setOpen((value) => !value)}
      >
        {open ? "Close menu" : "Portal menu"}
      </Button>
      <nav id="portal-nav" aria-label="Expert portal" className="portal-sidebar__nav">
        <ul>
          {links.map((link) => (
            <li key={link.to}>
              {link.newTab ? (
                <a href={link.to} target="_blank" rel="noreferrer" onClick={close}>
                  {link.label} <span className="visually-hidden">(opens in a new tab)</span>
                  <span aria-hidden="true" className="portal-sidebar__external">
                    ↗
                  </span>
                </a>
              ) : (
                <NavLink to={link.to} end onClick={close}>
                  {link.label}
                </NavLink>
              )}
              {link.children ? (
                <ul>
                  {link.children.map((child) => (
                    <li key={child.to}>
                      <NavLink to={child.to} end onClick={close}>
                        {child.label}
                      </NavLink>
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
        <Form method="post" action="/logout">
          <input type="hidden" name="redirectTo" value="/expert/login" />
          <Button type="submit" variant="ghost" size="sm">
            Logout
          </Button>
        </Form>
      </nav>
    </aside>
  );
}
