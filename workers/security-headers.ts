/**
 * Security headers, set in one place for every response the Worker sends (workers/app.ts).
 *
 * The Content-Security-Policy allows scripts only from our own origin, Stripe.js, and the page's own
 * inline scripts. A page rendered for this request names them by this response's nonce
 * (context.cspNonce). A page served from the edge cache (workers/edge-cache.ts) names them by their
 * SHA-256 hashes instead, worked out when the copy was stored: a nonce baked into stored HTML would
 * be the same for every visitor, and rewriting it on every hit would mean unpacking every copy. A
 * hash allows exactly the script that was rendered, and nothing injected later can match it.
 *
 * tests/integration/security-headers.test.ts; tests/unit/security-headers.test.ts.
 */

import { toBase64 } from "~/lib/bytes";

/** Internal: the hashes of a stored page's inline scripts. Kept with edge-cached copies, never sent out. */
export const SCRIPT_HASHES_HEADER = "X-Edge-Script-Hashes";

/** Stripe.js and its frames (Stripe's integration security guide, "Content Security Policy"). */
export const STRIPE_ORIGINS = {
  script: ["https://js.stripe.com", "https://*.js.stripe.com"],
  frame: ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
  connect: ["https://api.stripe.com"],
  img: ["https://*.stripe.com"],
} as const;

/** 128 random bits, base64: a fresh one for every response. */
export function createNonce(): string {
  return toBase64(crypto.getRandomValues(new Uint8Array(16)));
}

/** How a page names the inline scripts it may run: this response's nonce, or their hashes. */
export type InlineScripts = { nonce: string } | { hashes: string[] };

/**
 * The SHA-256 sources (`'sha256-…'`) of a page's inline scripts, as browsers hash them: the text
 * between the tags, byte for byte (script text is never entity-decoded). Only the scripts that carry
 * the render's `nonce`, the ones the page itself wrote: a script injected into the markup would not
 * have run when rendered, and it must not be allowed in every copy served after.
 */
export async function inlineScriptHashes(html: string, nonce: string): Promise<string[]> {
  const scripts: string[] = [];
  let open: string[] | null = null;
  await new HTMLRewriter()
    .on("script", {
      element(element) {
        if (element.hasAttribute("src") || element.getAttribute("nonce") !== nonce) return;
        const chunks: string[] = [];
        open = chunks;
        element.onEndTag(() => {
          scripts.push(chunks.join(""));
          open = null;
        });
      },
      text(text) {
        open?.push(text.text);
      },
    })
    .transform(new Response(html))
    .arrayBuffer();
  const hashes = await Promise.all(
    scripts.map(async (script) => {
      const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(script));
      return `'sha256-${toBase64(digest)}'`;
    }),
  );
  return [...new Set(hashes)];
}

/** The Content-Security-Policy of an HTML page whose inline scripts are `scripts`. */
export function contentSecurityPolicy(scripts: InlineScripts, { secure }: { secure: boolean }): string {
  const inline = "nonce" in scripts ? [`'nonce-${scripts.nonce}'`] : scripts.hashes;
  const directives: [string, ...string[]][] = [
    ["default-src", "'self'"],
    ["script-src", "'self'", ...inline, ...STRIPE_ORIGINS.script],
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
 * Returns `response` with the security headers: a page's CSP allows its scripts by the response's
 * nonce (`nonce()`, the one it was rendered with), or, for a copy from the edge cache, by the hashes
 * stored with it.
 */
export function applySecurityHeaders(
  response: Response,
  { nonce, secure }: { nonce: () => string; secure: boolean },
): Response {
  const secured = new Response(response.body, response);
  const headers = secured.headers;
  const stored = headers.get(SCRIPT_HASHES_HEADER);
  headers.delete(SCRIPT_HASHES_HEADER);
  for (const [name, value] of Object.entries(COMMON_SECURITY_HEADERS)) headers.set(name, value);
  if (isHtml(response)) {
    const scripts: InlineScripts =
      stored === null ? { nonce: nonce() } : { hashes: stored.split(" ").filter(Boolean) };
    headers.set("Content-Security-Policy", contentSecurityPolicy(scripts, { secure }));
  } else if (!isViewableMedia(response) && !headers.has("Content-Security-Policy")) {
    headers.set("Content-Security-Policy", NON_HTML_CSP);
  }
  return secured;
}
