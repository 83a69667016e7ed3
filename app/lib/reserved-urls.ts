/**
 * First path segments the app itself uses (routes, static files) and a few generic words kept for
 * later. A custom profile URL (/{customUrl}) may never be one of them, or it would shadow a page.
 * Compared lower-cased: custom URLs are stored lower-case.
 */
export const RESERVED_CUSTOM_URLS: ReadonlySet<string> = new Set([
  // Routes of the app (SPEC.md's route table and the resource routes).
  "about",
  "admin",
  "api",
  "ask",
  "auth",
  "become-expert",
  "book",
  "browse",
  "build",
  "cancel",
  "category",
  "checkout",
  "confirmation",
  "contact",
  "dashboard",
  "expert",
  "experts",
  "forbidden",
  "images",
  "login",
  "logout",
  "media",
  "newsletter",
  "notifications",
  "privacy-policy",
  "questions",
  "quick-login",
  "register",
  "subscribe",
  "success",
  "terms-of-service",
  "test-audio",
  "test-login",
  "thank-you",
  "user",
  "webhooks",
  // Pages under /expert/ (a profile is also reachable at /expert/{customUrl}).
  "account",
  "availability",
  "bookings",
  "earnings",
  "share",
  // Static files served from public/.
  "favicon.svg",
  "robots.txt",
  "sitemap.xml",
  // Generic words a future page or a phishing profile would want.
  "assets",
  "billing",
  "blog",
  "categories",
  "faq",
  "help",
  "home",
  "index",
  "pricing",
  "privacy",
  "profile",
  "search",
  "settings",
  "signin",
  "signup",
  "static",
  "status",
  "support",
  "terms",
  "www",
]);

export function isReservedCustomUrl(customUrl: string): boolean {
  return RESERVED_CUSTOM_URLS.has(customUrl.trim().toLowerCase());
}
