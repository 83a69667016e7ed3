/**
 * Security headers and private caching on every screen of the screens list
 * (tests/e2e/support/screens.ts), each as its role, against the demo marketplace; and the nonce
 * design of workers/security-headers.ts: fresh per response, even for pages from the edge cache.
 */
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "~/lib/demo-accounts";
import { applySecurityHeaders, RENDER_NONCE_HEADER } from "../../workers/security-headers";
import { SCREENS, type ScreenRole } from "../e2e/support/screens";
import { BASE, get, signIn } from "./support/accounts";
import { seedDemoMarketplace } from "./support/demo-seed";
import { eventually } from "./support/discovery";

const cookies = new Map<ScreenRole, string>();

beforeAll(async () => {
  await seedDemoMarketplace();
  for (const role of ["client", "subscriber", "expert", "admin"] as const) {
    cookies.set(role, await signIn(DEMO_ACCOUNTS[role].username, DEMO_ACCOUNTS[role].password));
  }
});

const cookieOf = (role: ScreenRole) => (role === "anonymous" ? "" : (cookies.get(role) ?? ""));

/** The directives of a Content-Security-Policy header, by name. */
function directives(csp: string | null): Map<string, string[]> {
  return new Map(
    (csp ?? "")
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name, values]),
  );
}

/** The nonce the CSP allows inline scripts with. */
function cspNonce(response: Response): string | null {
  const scriptSrc = directives(response.headers.get("Content-Security-Policy")).get("script-src") ?? [];
  const source = scriptSrc.find((value) => value.startsWith("'nonce-"));
  return source ? source.slice("'nonce-".length, -1) : null;
}

/** The opening tags of the scripts a browser would run (JSON-LD data blocks never run). */
function runnableScripts(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*>/gi)]
    .map(([tag]) => tag)
    .filter((tag) => !/type="application\/ld\+json"/i.test(tag));
}

/** The headers every response carries, page or not. */
function expectCommonHeaders(response: Response, what: string) {
  expect(response.headers.get("Strict-Transport-Security"), what).toMatch(/max-age=\d{8,}/);
  expect(response.headers.get("X-Content-Type-Options"), what).toBe("nosniff");
  expect(response.headers.get("Referrer-Policy"), what).toBe("strict-origin-when-cross-origin");
  expect(response.headers.get("Permissions-Policy"), what).toContain("microphone=(self)");
  expect(response.headers.get("Permissions-Policy"), what).toContain("camera=()");
  expect(response.headers.get("X-Frame-Options"), what).toBe("DENY");
  expect(response.headers.get("X-Request-Id"), what).toMatch(/\S{8,}/);
  expect(response.headers.has(RENDER_NONCE_HEADER), what).toBe(false);
}

/** A page's CSP: our origin and Stripe's only, inline scripts by this response's nonce, never framed. */
function expectPagePolicy(response: Response, html: string, what: string) {
  const csp = directives(response.headers.get("Content-Security-Policy"));
  const scriptSrc = csp.get("script-src") ?? [];
  expect(scriptSrc, what).not.toContain("'unsafe-eval'");
  expect(scriptSrc, what).not.toContain("'unsafe-inline'");
  for (const source of scriptSrc) {
    expect(source, what).toMatch(/^('self'|'nonce-[A-Za-z0-9+/=]{20,}'|https:\/\/(\*\.)?js\.stripe\.com)$/);
  }
  expect(csp.get("default-src"), what).toEqual(["'self'"]);
  expect(csp.get("frame-ancestors"), what).toEqual(["'none'"]);
  expect(csp.get("object-src"), what).toEqual(["'none'"]);
  expect(csp.get("frame-src"), what).toEqual(
    expect.arrayContaining(["https://js.stripe.com", "https://hooks.stripe.com"]),
  );
  expect(csp.get("connect-src"), what).toEqual(expect.arrayContaining(["'self'", "https://api.stripe.com"]));
  expect(csp.get("img-src"), what).toEqual(expect.arrayContaining(["'self'", "data:", "blob:"]));
  expect(csp.get("media-src"), what).toEqual(["'self'", "blob:"]);

  const nonce = cspNonce(response);
  expect(nonce, what).toBeTruthy();
  const scripts = runnableScripts(html);
  expect(scripts.length, `${what}: the page has Remix's scripts`).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag, what).toContain(`nonce="${nonce}"`);
}

describe("every screen, as its role", () => {
  it("answers with the expected status and the security headers, scripts carrying the CSP's nonce", async () => {
    for (const screen of SCREENS) {
      const what = `${screen.name} (${screen.path} as ${screen.role})`;
      const response = await get(screen.path, cookieOf(screen.role), { Accept: "text/html" });
      const html = await response.text();
      expect(response.status, what).toBe(screen.status ?? 200);
      expect(response.headers.get("Content-Type"), what).toMatch(/^text\/html/);
      expectCommonHeaders(response, what);
      expectPagePolicy(response, html, what);
    }
  });

  it("keeps every signed-in screen and its data request out of every cache (private, no-store)", async () => {
    for (const screen of SCREENS.filter((entry) => entry.role !== "anonymous")) {
      const url = new URL(screen.path, BASE);
      const dataPath = `${url.pathname === "/" ? "/_root" : url.pathname}.data${url.search}`;
      for (const path of [screen.path, dataPath]) {
        const what = `${path} as ${screen.role}`;
        const response = await get(path, cookieOf(screen.role));
        await response.body?.cancel();
        expect(response.headers.get("Cache-Control"), what).toBe("private, no-store");
        expect(response.headers.get("X-Edge-Cache"), what).toBe("BYPASS");
      }
    }
  });

  it("keeps answers about the caller private too: JSON APIs and the earnings CSV", async () => {
    for (const [path, role] of [
      ["/api/auth/status", "client"],
      ["/api/user/favorites", "client"],
      ["/api/questions", "client"],
      ["/expert/earnings/export", "expert"],
    ] as const) {
      const response = await get(path, cookieOf(role));
      await response.body?.cancel();
      expect(response.status, path).toBe(200);
      expect(response.headers.get("Cache-Control"), path).toBe("private, no-store");
      expectCommonHeaders(response, path);
    }
  });
});

describe("security headers on other responses", () => {
  it("sends the common headers and a locked-down policy with text, XML and JSON", async () => {
    for (const path of ["/robots.txt", "/sitemap.xml", "/api/auth/status"]) {
      const response = await get(path);
      await response.body?.cancel();
      expect(response.status, path).toBe(200);
      expectCommonHeaders(response, path);
      const csp = directives(response.headers.get("Content-Security-Policy"));
      expect(csp.get("default-src"), path).toEqual(["'none'"]);
      expect(csp.get("frame-ancestors"), path).toEqual(["'none'"]);
    }
  });

  it("sends them with refusals made before Remix runs (a cross-site post)", async () => {
    const response = await SELF.fetch(`${BASE}/logout`, {
      method: "POST",
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    });
    await response.body?.cancel();
    expect(response.status).toBe(403);
    expectCommonHeaders(response, "cross-site refusal");
  });
});

describe("the CSP nonce of edge-cached pages", () => {
  it("is fresh on every response of a cached page and matches that response's scripts", async () => {
    const path = "/category/sales";
    const nonces = new Set<string>();
    // The first visit renders and stores the page; then the stored copy is served.
    const first = await get(path);
    expectPagePolicy(first, await first.text(), "first visit");
    nonces.add(cspNonce(first) ?? "");
    const hits = await eventually(async () => {
      const response = await get(path);
      const html = await response.text();
      return response.headers.get("X-Edge-Cache") === "HIT" ? { response, html } : null;
    }, "an edge-cache hit");
    const again = await get(path);
    const againHtml = await again.text();
    expect(again.headers.get("X-Edge-Cache")).toBe("HIT");

    for (const [response, html] of [
      [hits.response, hits.html],
      [again, againHtml],
    ] as const) {
      expectPagePolicy(response, html, "edge-cache hit");
      nonces.add(cspNonce(response) ?? "");
    }
    expect(nonces.size).toBe(3);
    // Only the nonce attributes changed: the pages are otherwise identical.
    const withoutNonces = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""');
    expect(withoutNonces(againHtml)).toBe(withoutNonces(hits.html));
  });

  it("never gives the fresh nonce to markup that was not rendered with the page's own nonce", async () => {
    const stored = new Response(
      '<html><head><script nonce="rendered-nonce">1</script></head><body>' +
        '<script nonce="guessed-nonce">2</script><script>3</script><div nonce="rendered-nonce"></div></body></html>',
      { headers: { "Content-Type": "text/html; charset=utf-8", [RENDER_NONCE_HEADER]: "rendered-nonce" } },
    );
    const served = applySecurityHeaders(stored, { nonce: "fresh-nonce", secure: true });
    const html = await served.text();
    expect(html).toContain('<script nonce="fresh-nonce">1</script>');
    expect(html).toContain('<script nonce="guessed-nonce">2</script>');
    expect(html).toContain("<script>3</script>");
    expect(served.headers.get("Content-Security-Policy")).toContain("'nonce-fresh-nonce'");
    expect(served.headers.get("Content-Security-Policy")).toContain("upgrade-insecure-requests");
    expect(served.headers.has(RENDER_NONCE_HEADER)).toBe(false);
  });
});
