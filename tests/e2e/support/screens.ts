/**
 * Every screen of the app, once: the one list that the accessibility scan, the phone-width check,
 * the screenshots (tests/e2e/screens.test.ts) and the header and cache checks
 * (tests/integration/screens-headers.test.ts) walk. tests/unit/screens-coverage.test.ts fails when
 * a page route in app/routes has no screen here (or no entry in ROUTE_EXCEPTIONS).
 *
 * Adding a screen: one line. Paths use the ids of the demo seed (scripts/demo-data.ts), which a
 * fresh database always gives the same ids (the e2e and integration runs seed a fresh one):
 * demo-expert is expert 1 (custom URL demo-expert); demo-client's questions are 1 (answered) and
 * 5 (pending).
 *
 * Pure data: imported by Node (e2e, unit) and by workerd (integration).
 */

/** Who looks at the screen: nobody signed in, or one of the demo accounts (app/lib/demo-accounts.ts). */
export type ScreenRole = "anonymous" | "client" | "subscriber" | "expert" | "admin";

export type Screen = {
  /** Unique; names the screenshots (results/screenshots/<name>-phone.png, -desktop.png). */
  name: string;
  /** The URL path (and query) to open. */
  path: string;
  role: ScreenRole;
  /** The HTTP status the document answers with (default 200): the not-found and forbidden screens. */
  status?: number;
  /** The screen takes a card payment, so it may load Stripe.js (every other screen must not). */
  payment?: boolean;
};

/** The demo seed's ids (see above). */
export const SEED = {
  expertId: 1,
  expertCustomUrl: "demo-expert",
  clientAnsweredQuestionId: 1,
  clientPendingQuestionId: 5,
  categorySlug: "sales",
} as const;

export const SCREENS: readonly Screen[] = [
  // Public pages, signed out (SPEC.md §2 route table).
  { name: "home", path: "/", role: "anonymous" },
  { name: "browse", path: "/experts", role: "anonymous" },
  { name: "browse-alias", path: "/browse", role: "anonymous" },
  { name: "browse-filtered", path: "/experts?q=marketing&sort=price_low", role: "anonymous" },
  { name: "category", path: `/category/${SEED.categorySlug}`, role: "anonymous" },
  { name: "category-all", path: "/category/all", role: "anonymous" },
  { name: "category-not-found", path: "/category/underwater-basket-weaving", role: "anonymous", status: 404 },
  { name: "profile-by-id", path: `/expert/${SEED.expertId}`, role: "anonymous" },
  { name: "profile-custom-url", path: `/${SEED.expertCustomUrl}`, role: "anonymous" },
  { name: "profile-experts-id", path: `/experts/${SEED.expertId}`, role: "anonymous" },
  { name: "auth", path: "/auth", role: "anonymous" },
  { name: "login", path: "/login", role: "anonymous" },
  { name: "register", path: "/register", role: "anonymous" },
  { name: "user-quick-login", path: "/user/quick-login", role: "anonymous" },
  { name: "expert-quick-login", path: "/expert/quick-login", role: "anonymous" },
  { name: "quick-login", path: "/quick-login", role: "anonymous" },
  { name: "expert-login", path: "/expert/login", role: "anonymous" },
  { name: "admin-login", path: "/admin/login", role: "anonymous" },
  { name: "test-login", path: "/test-login", role: "anonymous" },
  { name: "become-expert", path: "/become-expert", role: "anonymous" },
  { name: "thank-you", path: "/thank-you", role: "anonymous" },
  { name: "thank-you-subscription", path: "/thank-you?subscription=true", role: "anonymous" },
  { name: "confirmation", path: "/confirmation", role: "anonymous" },
  { name: "success", path: "/success", role: "anonymous" },
  { name: "about", path: "/about", role: "anonymous" },
  { name: "privacy-policy", path: "/privacy-policy", role: "anonymous" },
  { name: "terms-of-service", path: "/terms-of-service", role: "anonymous" },
  { name: "contact", path: "/contact", role: "anonymous" },
  { name: "newsletter", path: "/newsletter", role: "anonymous" },
  { name: "cancel", path: "/cancel", role: "anonymous" },
  { name: "subscribe", path: "/subscribe", role: "anonymous", payment: true },
  { name: "forbidden", path: "/forbidden", role: "anonymous", status: 403 },
  { name: "not-found", path: "/no/such/page", role: "anonymous", status: 404 },

  // The client.
  { name: "client-home", path: "/", role: "client" },
  { name: "client-profile", path: `/${SEED.expertCustomUrl}`, role: "client" },
  { name: "client-dashboard", path: "/dashboard", role: "client" },
  { name: "client-dashboard-questions", path: "/dashboard/questions", role: "client" },
  { name: "client-dashboard-bookings", path: "/dashboard/bookings", role: "client" },
  { name: "client-dashboard-settings", path: "/dashboard/settings", role: "client" },
  { name: "client-ask-expert", path: `/ask/${SEED.expertId}`, role: "client", payment: true },
  { name: "client-ask", path: "/ask", role: "client", payment: true },
  { name: "client-book-expert", path: `/book/${SEED.expertId}`, role: "client", payment: true },
  { name: "client-book-no-expert", path: "/book", role: "client", status: 404, payment: true },
  { name: "client-subscribe", path: "/subscribe", role: "client", payment: true },
  { name: "client-question-answered", path: `/questions/${SEED.clientAnsweredQuestionId}`, role: "client" },
  { name: "client-question-pending", path: `/questions/${SEED.clientPendingQuestionId}`, role: "client" },
  { name: "client-become-expert", path: "/become-expert", role: "client" },
  { name: "client-notifications", path: "/notifications", role: "client" },
  { name: "client-test-audio", path: "/test-audio", role: "client" },

  // The subscriber.
  { name: "subscriber-dashboard", path: "/dashboard", role: "subscriber" },
  { name: "subscriber-ask-expert", path: `/ask/${SEED.expertId}`, role: "subscriber", payment: true },

  // The expert's portal.
  { name: "expert-dashboard", path: "/expert/dashboard", role: "expert" },
  { name: "expert-questions", path: "/expert/questions", role: "expert" },
  { name: "expert-bookings", path: "/expert/bookings", role: "expert" },
  { name: "expert-availability", path: "/expert/availability", role: "expert" },
  { name: "expert-settings", path: "/expert/settings", role: "expert" },
  { name: "expert-settings-photos", path: "/expert/settings?tab=photos", role: "expert" },
  { name: "expert-settings-pricing", path: "/expert/settings?tab=pricing", role: "expert" },
  { name: "expert-account", path: "/expert/account", role: "expert" },
  { name: "expert-earnings", path: "/expert/earnings", role: "expert" },
  { name: "expert-earnings-analytics", path: "/expert/earnings/analytics", role: "expert" },
  { name: "expert-share", path: "/expert/share", role: "expert" },
  { name: "expert-question", path: `/questions/${SEED.clientPendingQuestionId}`, role: "expert" },
  { name: "expert-test-audio", path: "/test-audio", role: "expert" },
  { name: "expert-notifications", path: "/notifications", role: "expert" },

  // The admin area.
  { name: "admin", path: "/admin", role: "admin" },
  { name: "admin-dashboard", path: "/admin/dashboard", role: "admin" },
  {
    name: "admin-question-selected",
    path: `/admin?filter=pending&question=${SEED.clientPendingQuestionId}`,
    role: "admin",
  },
  { name: "admin-experts", path: "/admin/experts", role: "admin" },
  { name: "admin-messages", path: "/admin/messages", role: "admin" },
  // Handled messages too (the seed has one), each set back from the open ones.
  { name: "admin-messages-all", path: "/admin/messages?filter=all", role: "admin" },
  { name: "admin-runs", path: "/admin/runs", role: "admin" },
];

/**
 * Page routes (files in app/routes with a default export) that no screen opens directly, and why.
 * Layout routes are covered through their child screens and need no entry.
 */
export const ROUTE_EXCEPTIONS: Readonly<Record<string, string>> = {
  "routes/checkout.$type.$expertId":
    "only redirects to /ask/{id} or /book/{id} (SPEC.md: contents not shown)",
};

/** The screens one role looks at. */
export function screensFor(role: ScreenRole): Screen[] {
  return SCREENS.filter((screen) => screen.role === role);
}

/** The roles that appear in the list, signed-in ones after anonymous. */
export function rolesInUse(): ScreenRole[] {
  return [...new Set(SCREENS.map((screen) => screen.role))];
}
