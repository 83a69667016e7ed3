/**
 * Security headers and private caching on every screen of the screens list
 * (tests/e2e/support/screens.ts), each as its role, against the demo marketplace; and the CSP
 * design of workers/security-headers.ts: a fresh nonce for every rendered page, and the hashes of
 * exactly its own inline scripts for a page from the edge cache.
 */
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "~/lib/demo-accounts";
import {
  applySecurityHeaders,
  inlineScriptHashes,
  SCRIPT_HASHES_HEADER,
} from "../../workers/security-headers";
import { SCREENS, type ScreenRole } from "../e2e/support/screens";
import { BASE, get, postForm, postRaw, sessionCookieFrom, signIn } from "./support/accounts";
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

/** The scripts a browser would run (JSON-LD data blocks never run): opening tag and inline text. */
function runnableScripts(html: string): { tag: string; text: string }[] {
  return [...html.matchAll(/(<script\b[^>]*>)([\s\S]*?)<\/script>/gi)]
    .map(([, tag, text]) => ({ tag, text }))
    .filter(({ tag }) => !/type="application\/ld\+json"/i.test(tag));
}

/** The CSP source a browser compares an inline script with. */
async function sha256Source(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return `'sha256-${btoa(String.fromCharCode(...digest))}'`;
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
  expect(response.headers.has(SCRIPT_HASHES_HEADER), what).toBe(false);
}

/**
 * A page's CSP: our origin and Stripe's only, never framed, inline scripts by this response's nonce
 * (a rendered page) or by their hashes (a copy from the edge cache), every one of them allowed.
 */
async function expectPagePolicy(response: Response, html: string, what: string) {
  const csp = directives(response.headers.get("Content-Security-Policy"));
  const scriptSrc = csp.get("script-src") ?? [];
  expect(scriptSrc, what).not.toContain("'unsafe-eval'");
  expect(scriptSrc, what).not.toContain("'unsafe-inline'");
  for (const source of scriptSrc) {
    expect(source, what).toMatch(
      /^('self'|'nonce-[A-Za-z0-9+/=]{20,}'|'sha256-[A-Za-z0-9+/]{43}='|https:\/\/(\*\.)?js\.stripe\.com)$/,
    );
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

  const scripts = runnableScripts(html);
  expect(scripts.length, `${what}: the page has Remix's scripts`).toBeGreaterThan(0);
  const nonce = cspNonce(response);
  if (response.headers.get("X-Edge-Cache") === "HIT" || response.headers.get("X-Edge-Cache") === "STALE") {
    expect(nonce, `${what}: a stored copy has no nonce`).toBeNull();
    for (const { tag, text } of scripts) {
      if (/\bsrc=/.test(tag)) continue;
      expect(scriptSrc, `${what}: ${text.slice(0, 60)}`).toContain(await sha256Source(text));
    }
  } else {
    expect(nonce, what).toBeTruthy();
    for (const { tag } of scripts) expect(tag, what).toContain(`nonce="${nonce}"`);
  }
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
      await expectPagePolicy(response, html, what);
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

  it("keeps every sign-in's answer private: the one that hands out the session cookie", async () => {
    const { username, password } = DEMO_ACCOUNTS.client;
    const signIns = [
      postForm("/login", { intent: "login", username, password }),
      postForm("/auth", { intent: "login", username, password }),
      postForm("/login.data", { intent: "login", username, password }),
      postRaw("/api/auth/login", JSON.stringify({ username, password }), {
        contentType: "application/json",
      }),
    ];
    for (const response of await Promise.all(signIns)) {
      await response.body?.cancel();
      expect(sessionCookieFrom(response), response.url).not.toBeNull();
      expect(response.headers.get("Cache-Control"), response.url).toBe("private, no-store");
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

describe("the CSP of edge-cached pages", () => {
  it("allows a stored copy's own inline scripts by hash, and a rendered page's by a fresh nonce", async () => {
    const path = "/category/sales";
    // The first visit renders and stores the page; then the stored copy is served.
    const first = await get(path);
    const firstHtml = await first.text();
    await expectPagePolicy(first, firstHtml, "first visit");
    const hit = await eventually(async () => {
      const response = await get(path);
      const html = await response.text();
      return response.headers.get("X-Edge-Cache") === "HIT" ? { response, html } : null;
    }, "an edge-cache hit");
    await expectPagePolicy(hit.response, hit.html, "edge-cache hit");
    // The stored copy is the page as rendered: the same markup, the same scripts.
    expect(hit.html).toBe(firstHtml);
    // A signed-in visitor's page is rendered for them, with a nonce of its own.
    const mine = await get(path, cookieOf("client"));
    await expectPagePolicy(mine, await mine.text(), "signed in");
    expect(cspNonce(mine)).not.toBe(cspNonce(first));
  });

  it("allows exactly the stored scripts: markup added later, or a guessed nonce, never runs", async () => {
    // An injected script in the rendered markup (without the render's nonce it did not run then)
    // is not hashed into the copy's policy either.
    const stored =
      '<html><head><script nonce="n1">render()</script><script src="/build/a.js"></script></head>' +
      '<body><script>injected()</script><script nonce="guess">guessed()</script></body></html>';
    const hashes = await inlineScriptHashes(stored, "n1");
    expect(hashes).toEqual([await sha256Source("render()")]);
    const served = applySecurityHeaders(
      new Response(`${stored}<script nonce="n1">steal()</script>`, {
        headers: { "Content-Type": "text/html; charset=utf-8", [SCRIPT_HASHES_HEADER]: hashes.join(" ") },
      }),
      { nonce: () => "fresh-nonce", secure: true },
    );
    const scriptSrc = directives(served.headers.get("Content-Security-Policy")).get("script-src") ?? [];
    expect(scriptSrc).toContain(await sha256Source("render()"));
    expect(scriptSrc).not.toContain(await sha256Source("steal()"));
    expect(scriptSrc.some((source) => source.startsWith("'nonce-"))).toBe(false);
    expect(served.headers.get("Content-Security-Policy")).toContain("upgrade-insecure-requests");
    expect(served.headers.has(SCRIPT_HASHES_HEADER)).toBe(false);
  });
});
