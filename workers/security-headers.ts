/**
 * Security headers, set in one place for every response the Worker sends (workers/app.ts).
 *
 * The Content-Security-Policy allows scripts only from our own origin, Stripe.js, and inline scripts
 * that carry this response's nonce. Pages are rendered with a nonce (context.cspNonce) and may then
 * be kept in the edge cache (workers/edge-cache.ts) and served to other visitors: a nonce baked into
 * stored HTML would be the same for everyone, i.e. no nonce at all. So every response gets a fresh
 * nonce: the page's render nonce travels with it (and with its stored copy) in an internal header,
 * and when the two differ, an HTMLRewriter swaps exactly that value, on `nonce` attributes only, for
 * the fresh one. Markup that was not rendered with the render nonce (which no one can guess before
 * the render) never gains a valid nonce.
 *
 * tests/integration/security-headers.test.ts; tests/unit/security-headers.test.ts.
 */

/** Internal: the nonce a page was rendered with. Stored with edge-cached copies, never sent out. */
export const RENDER_NONCE_HEADER = "X-Render-Nonce";

/** Stripe.js and its frames (Stripe's integration security guide, "Content Security Policy"). */
export const STRIPE_ORIGINS = {
  script: ["https://js.stripe.com", "https://*.js.stripe.com"],
  frame: ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
  connect: ["https://api.stripe.com"],
  img: ["https://*.stripe.com"],
} as const;

/** 128 random bits, base64: a fresh one for every response. */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The Content-Security-Policy of an HTML page answered with `nonce`. */
export function contentSecurityPolicy(nonce: string, { secure }: { secure: boolean }): string {
  const directives: [string, ...string[]][] = [
    ["default-src", "'self'"],
    ["script-src", "'self'", `'nonce-${nonce}'`, ...STRIPE_ORIGINS.script],
    // Radix positions popovers with inline style attributes, and Stripe's Payment Element injects
    // styles; styles cannot run code, so inline styles stay allowed.
    ["style-src", "'self'", "'unsafe-inline'"],
    // Our images (public/ and /media/images), previews of chosen files (blob:), small inline icons.
    ["img-src", "'self'", "data:", "blob:", ...STRIPE_ORIGINS.img],
    ["font-src", "'self'", "data:"],
    // Audio answers stream from /questions/{id}/audio; the recorder previews a blob: URL.
    ["media-src", "'self'", "blob:"],
    ["connect-src", "'self'", ...STRIPE_ORIGINS.connect],
    ["frame-src", ...STRIPE_ORIGINS.frame],
    ["worker-src", "'self'", "blob:"],
    ["object-src", "'none'"],
    ["base-uri", "'self'"],
    ["form-action", "'self'"],
    ["frame-ancestors", "'none'"],
    ["manifest-src", "'self'"],
  ];
  // Over plain http (wrangler dev on 127.0.0.1) upgrading subresources to https would break them.
  if (secure) directives.push(["upgrade-insecure-requests"]);
  return directives.map((directive) => directive.join(" ")).join("; ");
}

/**
 * The microphone only for our own pages (the expert records audio answers); payments for us and
 * Stripe's frames (wallets); everything else that could track or prompt is off.
 */
export const PERMISSIONS_POLICY = [
  "microphone=(self)",
  "camera=()",
  "geolocation=()",
  'payment=(self "https://js.stripe.com")',
  "usb=()",
  "serial=()",
  "bluetooth=()",
  "magnetometer=()",
  "gyroscope=()",
  "accelerometer=()",
  "display-capture=()",
  "browsing-topics=()",
].join(", ");

/** Headers every response carries, HTML or not. */
export const COMMON_SECURITY_HEADERS: Record<string, string> = {
  "Strict-Transport-Security": "max-age=63072000; includeSubDomains",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy": PERMISSIONS_POLICY,
  "X-Frame-Options": "DENY",
  // Stripe.js opens 3-D Secure and wallet windows, so popups keep their opener.
  "Cross-Origin-Opener-Policy": "same-origin-allow-popups",
};

/** Anything that is not a page (JSON, CSV, text, audio) may not run scripts or be framed if opened. */
const NON_HTML_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

function isHtml(response: Response): boolean {
  return (response.headers.get("Content-Type") ?? "").toLowerCase().startsWith("text/html");
}

/** Media the browser shows itself when opened directly: a strict CSP would break its player or viewer. */
function isViewableMedia(response: Response): boolean {
  return /^(audio|video|image)\//i.test(response.headers.get("Content-Type") ?? "");
}

/**
 * Returns `response` with the security headers, its HTML carrying `nonce` on every script that was
 * rendered with the page's own render nonce.
 */
export function applySecurityHeaders(
  response: Response,
  { nonce, secure }: { nonce: string; secure: boolean },
): Response {
  const renderNonce = response.headers.get(RENDER_NONCE_HEADER);
  const html = isHtml(response);
  let body = response.body;
  if (html && body && renderNonce && renderNonce !== nonce) {
    body = new HTMLRewriter()
      .on("[nonce]", {
        element(element) {
          if (element.getAttribute("nonce") === renderNonce) element.setAttribute("nonce", nonce);
        },
      })
      .transform(new Response(body, { headers: { "Content-Type": "text/html" } })).body;
  }
  const secured = new Response(body, response);
  const headers = secured.headers;
  headers.delete(RENDER_NONCE_HEADER);
  for (const [name, value] of Object.entries(COMMON_SECURITY_HEADERS)) headers.set(name, value);
  if (html) headers.set("Content-Security-Policy", contentSecurityPolicy(nonce, { secure }));
  else if (!isViewableMedia(response) && !headers.has("Content-Security-Policy")) {
    headers.set("Content-Security-Policy", NON_HTML_CSP);
  }
  // The body changed length when nonces were swapped.
  if (body !== response.body) headers.delete("Content-Length");
  return secured;
}
