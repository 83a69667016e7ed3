import { Form, Link, useLocation } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { buttonClass } from "~/components/ui/button";

/** What the header needs to know about the signed-in person. */
export type ShellUser = {
  /** Whose this page is (drafts kept in the tab belong to them: ~/components/use-session-draft). */
  id: number;
  role: "user" | "expert" | "admin";
  hasExpertProfile: boolean;
  /** The bell's number. */
  unreadNotifications: number;
};

type NavItem = {
  label: string;
  to: string;
  isActive: (pathname: string, hash: string) => boolean;
};

const HOME_SECTIONS = ["#categories", "#how-it-works", "#faq"];

/** The seven public links (SPEC.md "Public header and footer"). Categories point at the home carousel. */
export const NAV_ITEMS: NavItem[] = [
  { label: "Home", to: "/", isActive: (p, h) => p === "/" && !HOME_SECTIONS.includes(h) },
  {
    label: "Browse Experts",
    to: "/experts",
    isActive: (p) => p === "/experts" || p.startsWith("/experts/") || p === "/browse",
  },
  {
    label: "Categories",
    to: "/#categories",
    isActive: (p, h) => (p === "/" && h === "#categories") || p.startsWith("/category/"),
  },
  { label: "Ask an Expert", to: "/ask", isActive: (p) => p === "/ask" || p.startsWith("/ask/") },
  { label: "How It Works", to: "/#how-it-works", isActive: (p, h) => p === "/" && h === "#how-it-works" },
  { label: "FAQ", to: "/#faq", isActive: (p, h) => p === "/" && h === "#faq" },
  { label: "Become an Expert", to: "/become-expert", isActive: (p) => p === "/become-expert" },
];

export function isExpert(user: ShellUser) {
  return user.role === "expert" || user.hasExpertProfile;
}

export function SiteHeader({ user }: { user: ShellUser | null }) {
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);

  // Any navigation (link, back button, redirect) closes the mobile menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every location change on purpose
  useEffect(() => {
    setOpen(false);
  }, [location.key]);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpen(false);
        toggleRef.current?.focus();
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open]);

  return (
    <header className="site-header">
      <div className="container site-header__bar">
        <Link to="/" className="brand" aria-label="Expert Answers home">
          <BrandMark />
          <span className="brand__name">Expert Answers</span>
        </Link>

        <div className="header-actions">
          {user ? (
            <>
              <NotificationBell unread={user.unreadNotifications} />
              <Link
                to={isExpert(user) ? "/expert/dashboard" : "/dashboard"}
                className={buttonClass({ variant: "secondary", size: "sm" })}
              >
                <span className="label-full">{isExpert(user) ? "Expert Dashboard" : "My Dashboard"}</span>
                <span className="label-short">Dashboard</span>
              </Link>
              <Form method="post" action="/logout">
                <button type="submit" className={buttonClass({ variant: "ghost", size: "sm" })}>
                  <span className="label-full">Logout</span>
                  <span className="label-short">Exit</span>
                </button>
              </Form>
            </>
          ) : (
            <>
              <Link to="/auth" className={buttonClass({ variant: "ghost", size: "sm" })}>
                Login
              </Link>
              <Link to="/auth?tab=register" className={buttonClass({ variant: "primary", size: "sm" })}>
                Sign Up
              </Link>
            </>
          )}
        </div>

        <button
          ref={toggleRef}
          type="button"
          className="nav-toggle"
          aria-expanded={open}
          aria-controls={menuId}
          aria-label={open ? "Close menu" : "Open menu"}
          onClick={() => setOpen((value) => !value)}
        >
          <MenuIcon open={open} />
        </button>

        <nav id={menuId} className="site-nav" aria-label="Main" data-open={open}>
          <ul className="nav-list">
            {NAV_ITEMS.map((item) => {
              const active = item.isActive(location.pathname, location.hash);
              return (
                <li key={item.label}>
                  <Link
                    to={item.to}
                    className="nav-link"
                    aria-current={active ? "page" : undefined}
                    onClick={() => setOpen(false)}
                  >
                    {item.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
      </div>
    </header>
  );
}

/** The bell: a link to /notifications with the unread count, read out as one phrase. */
export function NotificationBell({ unread }: { unread: number }) {
  const label = unread === 0 ? "Notifications, none unread" : `Notifications, ${unread} unread`;
  return (
    <Link to="/notifications" className="notification-bell" aria-label={label} title="Notifications">
      <svg
        viewBox="0 0 24 24"
        width="20"
        height="20"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" strokeLinecap="round" strokeLinejoin="round" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      {unread > 0 ? (
        <span className="notification-bell__count" aria-hidden="true">
          {unread > 99 ? "99+" : unread}
        </span>
      ) : null}
    </Link>
  );
}

export function BrandMark() {
  return (
    <svg className="brand__mark" viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="8" fill="#3450d4" />
      <path
        d="M9 10.5A2.5 2.5 0 0 1 11.5 8h9A2.5 2.5 0 0 1 23 10.5v7a2.5 2.5 0 0 1-2.5 2.5H15l-4.2 3.4a.5.5 0 0 1-.8-.4V20A2.5 2.5 0 0 1 9 17.5z"
        fill="#fff"
      />
      <path
        d="M14 13.5l1.8 1.8 3.2-3.3"
        fill="none"
        stroke="#3450d4"
        strokeWidth="1.8"
        strokeLinecap="round"
      />
    </svg>
  );
}

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true">
      {open ? (
        <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      ) : (
        <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      )}
    </svg>
  );
}
