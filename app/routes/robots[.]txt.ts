import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { siteOrigin } from "~/config.server";

/** Private areas search engines should leave alone; public profiles under /expert/{id} stay crawlable. */
const DISALLOWED = [
  "/admin",
  "/api/",
  "/auth",
  "/login",
  "/register",
  "/logout",
  "/dashboard",
  "/expert/dashboard",
  "/expert/questions",
  "/expert/bookings",
  "/expert/settings",
  "/expert/account",
  "/expert/earnings",
  "/expert/availability",
  "/expert/share",
  "/expert/login",
  "/expert/quick-login",
  "/user/quick-login",
  "/quick-login",
  "/test-login",
  "/test-audio",
  "/ask",
  "/book",
  "/checkout",
  "/questions/",
  "/webhooks/",
];

/**
 * A rule is a prefix: "Disallow: /book" would also keep crawlers off an expert at /bookkeeping-bea.
 * A path is blocked as itself ("$" ends it), with a query, and below it.
 */
const rulesFor = (path: string) => (path.endsWith("/") ? [path] : [`${path}$`, `${path}?`, `${path}/`]);

/** /robots.txt: everything public may be crawled; points at the sitemap. */
export function loader({ request, context }: LoaderFunctionArgs) {
  const origin = siteOrigin(context.config, request);
  const body = [
    "User-agent: *",
    "Allow: /",
    ...DISALLOWED.flatMap(rulesFor).map((rule) => `Disallow: ${rule}`),
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
