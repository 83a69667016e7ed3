/**
 * Words an expert may never take as a custom URL, because /{customUrl} and /expert/{customUrl} would
 * then collide with a page of the app (or one it may grow). Checked case-insensitively.
 *
 * Every first path segment the app uses (routes, static folders, files) is here, plus the pages under
 * /expert/ (so /expert/{customUrl} never shadows the portal) and a few words kept for the future.
 * When you add a route with a new first segment, add it here too (tests/unit/reserved-urls.test.ts
 * checks every route file against this list).
 */
export const RESERVED_CUSTOM_URLS: readonly string[] = [
  // Pages and resource routes of the app (SPEC.md's route table and the app's own).
  "about",
  "admin",
  "api",
  "ask",
  "auth",
  "become-expert",
  "book",
  "browse",
  "cancel",
  "category",
  "categories",
  "checkout",
  "confirmation",
  "contact",
  "dashboard",
  "expert",
  "experts",
  "forbidden",
  "login",
  "logout",
  "media",
  "newsletter",
  "notifications",
  "privacy-policy",
  "questions",
  "quick-login",
  "register",
  "reviews",
  "subscribe",
  "success",
  "terms-of-service",
  "test-audio",
  "test-login",
  "thank-you",
  "user",
  "webhooks",
  // Files and folders served from public/ and the build.
  "build",
  "images",
  "favicon.svg",
  "favicon.ico",
  "robots.txt",
  "robots",
  "sitemap.xml",
  "sitemap",
  // Pages under /expert/ (the portal), so /expert/{customUrl} never shadows them.
  "account",
  "availability",
  "bookings",
  "earnings",
  "settings",
  "share",
  // Cloudflare answers every /cdn-cgi/ path itself: a profile there could never be reached.
  "cdn-cgi",
  // Kept for later use and to avoid look-alike pages.
  "all",
  "assets",
  "billing",
  "blog",
  "faq",
  "help",
  "home",
  "index",
  "legal",
  "null",
  "pricing",
  "privacy",
  "profile",
  "search",
  "signin",
  "signup",
  "static",
  "status",
  "support",
  "terms",
  "undefined",
  "www",
];

const reserved = new Set(RESERVED_CUSTOM_URLS);

/** True when `url` (a custom URL or a path segment) belongs to the app and cannot be an expert's. */
export function isReservedCustomUrl(url: string): boolean {
  const value = url.trim().toLowerCase();
  // Remix data requests (/{segment}.data) and anything starting with an underscore (/_root.data)
  // are the framework's; a custom URL of digits only would read as an id in /expert/{id}.
  return reserved.has(value) || value.startsWith("_") || value.endsWith(".data") || /^\d+$/.test(value);
}

/**
 * The shape a custom URL can have in a path: letters, digits, hyphens and underscores, 3 to 50
 * characters (SPEC.md: sign-up allows underscores, the edit form does not; both fit here).
 */
export const CUSTOM_URL_IN_PATH = /^[A-Za-z0-9_-]{3,50}$/;

/** Whether a one-segment path could be an expert's custom URL (format and not reserved). */
export function couldBeCustomUrl(segment: string): boolean {
  return CUSTOM_URL_IN_PATH.test(segment) && !isReservedCustomUrl(segment);
}
