const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Server-to-server endpoints authenticated by signature, not by cookie. */
const SIGNED_ENDPOINTS = ["/webhooks/stripe"];

/**
 * True when a state-changing request comes from another site: its Origin differs from ours or,
 * without an Origin, the browser says Sec-Fetch-Site is cross-site. SameSite=Lax cookies already
 * stop most of this; this closes the rest (same-site subdomains, old browsers, top-level POSTs).
 */
export function isCrossSiteRequest(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const url = new URL(request.url);
  if (SIGNED_ENDPOINTS.includes(url.pathname)) return false;
  const origin = request.headers.get("Origin");
  if (origin) return origin !== url.origin;
  const fetchSite = request.headers.get("Sec-Fetch-Site");
  return fetchSite === "cross-site" || fetchSite === "same-site";
}

/** The answer to a refused cross-site request: JSON under /api (like every API error), text elsewhere. */
export function crossSiteRefusal(request: Request): Response {
  const message = "Cross-site requests are not allowed.";
  return new URL(request.url).pathname.startsWith("/api/")
    ? Response.json({ error: message }, { status: 403 })
    : new Response(message, { status: 403 });
}
