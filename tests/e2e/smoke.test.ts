import { readFileSync, statSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { PARKED_MODULE_TYPE, PARKED_PRELOAD_ATTRIBUTE } from "../../app/lib/boot-after-paint";
import { DEMO_ACCOUNTS } from "../../app/lib/demo-accounts";
import { signIn } from "../../scripts/lib/bench/load";
import { baseUrl, DESKTOP, newPage, PHONE, screenshot, stateDir } from "./harness";
import { gotoHydrated } from "./support/pages";
import { debugLogOf } from "./support/server";
import { watchPage } from "./support/watch";

describe("the home page in Chromium (e2e smoke)", () => {
  it("is served by wrangler dev", async () => {
    const response = await fetch(`${baseUrl()}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
  });

  it("serves the API's OpenAPI document that npm run build wrote", async () => {
    const response = await fetch(`${baseUrl()}/api/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toContain("/api/experts/{id}");
  });

  it("serves public/'s files with the security headers, and the build's hashed files for a year", async () => {
    const home = await (await fetch(`${baseUrl()}/`)).text();
    const script =
      /src="(\/build\/[^"]+\.js)"/.exec(home)?.[1] ?? /"(\/build\/entry\.client-[^"]+\.js)"/.exec(home)?.[1];
    expect(script).toBeDefined();
    for (const path of ["/favicon.svg", "/api/openapi.json", script!]) {
      const response = await fetch(`${baseUrl()}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("X-Content-Type-Options"), path).toBe("nosniff");
      expect(response.headers.get("Strict-Transport-Security"), path).toContain("max-age=");
      expect(response.headers.get("Referrer-Policy"), path).toBe("strict-origin-when-cross-origin");
      expect(response.headers.get("X-Frame-Options"), path).toBe("DENY");
      expect(response.headers.get("Content-Security-Policy"), path).toContain("default-src 'none'");
      await response.body?.cancel();
    }
    const built = await fetch(`${baseUrl()}${script}`);
    expect(built.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    await built.body?.cancel();
    expect((await fetch(`${baseUrl()}/_headers`)).status).toBe(404);
  });

  for (const [name, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`loads and shows the heading on a ${name}`, async () => {
      const page = await newPage(viewport);
      const response = await page.goto("/");
      expect(response?.status()).toBe(200);
      await expect(page.title()).resolves.toBe("On-Demand Expert Q&A");
      const heading = page.getByRole("heading", { level: 1 });
      await heading.waitFor();
      expect(await heading.textContent()).toBe("On-Demand Expert Q&A");
      expect(page.viewportSize()).toEqual({ width: viewport.width, height: viewport.height });
      await screenshot(page, `smoke-home-${name}`);
    });
  }

  it("asks for the app's JavaScript only after the first paint, then hydrates cleanly", async () => {
    const page = await newPage(PHONE);
    const watch = await watchPage(page);
    // Counts the parked links the <head> script turns back into module preloads.
    // Records the scripts the <head> script adds, in order, and which parked links it marked as the
    // client entry's chunks.
    await page.addInitScript((parkedPreload) => {
      const seen = window as unknown as {
        restoredPreloads: number;
        addedScripts: string[];
        entryChunks: string[];
      };
      seen.restoredPreloads = 0;
      seen.addedScripts = [];
      seen.entryChunks = [];
      new MutationObserver((records) => {
        for (const record of records) {
          if (record.type === "attributes" && (record.target as HTMLLinkElement).rel === "modulepreload") {
            seen.restoredPreloads++;
          }
          for (const node of record.addedNodes) {
            if (node instanceof HTMLScriptElement && node.type === "module") {
              seen.addedScripts.push(node.getAttribute("src") ?? "inline");
            }
          }
        }
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["rel"] });
      document.addEventListener("DOMContentLoaded", () => {
        for (const link of document.querySelectorAll(`link[${parkedPreload}="entry"]`)) {
          seen.entryChunks.push(link.getAttribute("href") ?? "");
        }
      });
    }, PARKED_PRELOAD_ATTRIBUTE);
    await gotoHydrated(page, "/experts");
    const loading = await page.evaluate(
      ([parkedPreload, parkedModule]) => {
        const scripts = performance
          .getEntriesByType("resource")
          .filter((entry) => /^\/build\/.+\.js$/.test(new URL(entry.name).pathname));
        return {
          firstContentfulPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
          firstScriptRequest: Math.min(...scripts.map((entry) => entry.startTime)),
          scripts: scripts.length,
          restoredPreloads: (window as unknown as { restoredPreloads: number }).restoredPreloads,
          addedScripts: (window as unknown as { addedScripts: string[] }).addedScripts,
          entryChunks: (window as unknown as { entryChunks: string[] }).entryChunks,
          stillParked: document.querySelectorAll(`link[${parkedPreload}], script[type="${parkedModule}"]`)
            .length,
        };
      },
      [PARKED_PRELOAD_ATTRIBUTE, PARKED_MODULE_TYPE],
    );
    expect(loading.firstContentfulPaint).not.toBeNull();
    expect(loading.scripts).toBeGreaterThan(3);
    expect(loading.firstScriptRequest).toBeGreaterThanOrEqual(
      loading.firstContentfulPaint ?? Number.POSITIVE_INFINITY,
    );
    expect(loading.restoredPreloads).toBeGreaterThan(3);
    expect(loading.stillParked).toBe(0);
    // The shared chunks ran one module script each, the client entry's first and backwards (React
    // before React DOM before Remix), and Remix's boot script last.
    expect(loading.entryChunks.length).toBeGreaterThan(1);
    const sources = loading.addedScripts.slice(0, -1);
    expect(sources.slice(0, loading.entryChunks.length)).toEqual([...loading.entryChunks].reverse());
    expect(sources.every((src) => src.startsWith("/build/_shared/"))).toBe(true);
    expect(sources.length).toBeGreaterThan(loading.entryChunks.length);
    expect(loading.addedScripts.at(-1)).toBe("inline");
    // ...each compiled eagerly, off the main thread (scripts/compile-hints.ts).
    for (const chunk of loading.entryChunks) {
      const source = await (await fetch(`${baseUrl()}${chunk}`)).text();
      expect(source.startsWith("//# allFunctionsCalledOnLoad\n"), chunk).toBe(true);
    }
    expect(watch.pageErrors).toEqual([]);
    expect(watch.cspViolations).toEqual([]);
    // React is live: the phone menu opens.
    await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("button", { name: "Close menu" }).waitFor();
    expect(await page.getByRole("navigation", { name: "Main" }).getAttribute("data-open")).toBe("true");
    await page.close();
  });
});

// workers/request-body.ts: a body the app refused unread must not break the next request.
describe("a refused body (e2e)", () => {
  it("leaves the requests after it unharmed", async () => {
    const origin = { Origin: baseUrl() };
    // 20 KB of JSON sent to a form: the sign-in action refuses it unread.
    const json = JSON.stringify({ intent: "login", username: "x".repeat(20_000) });
    for (let round = 0; round < 3; round++) {
      const refused = await fetch(`${baseUrl()}/auth`, {
        method: "POST",
        headers: { ...origin, "Content-Type": "application/json" },
        body: json,
      });
      expect(refused.status).toBe(400);
      await refused.arrayBuffer();
      // Before the fix, wrangler dev's proxy answered this one 503 ("Your worker restarted mid-request").
      const next = await fetch(`${baseUrl()}/contact`, {
        method: "POST",
        headers: { ...origin, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ name: "A visitor" }),
      });
      expect(next.status).toBe(400);
      expect(await next.text()).toContain("Email is required");
      // ...and a GET waited for a restart that never came.
      const page = await fetch(`${baseUrl()}/about`, { signal: AbortSignal.timeout(10_000) });
      expect(page.status).toBe(200);
      await page.arrayBuffer();
    }
  });
});

/** A raw request, since fetch() refuses to send a GET or HEAD with a body. */
function rawRequest(method: string, path: string, body: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = httpRequest(
      `${baseUrl()}${path}`,
      { method, headers: { "Content-Type": "text/plain", "Content-Length": Buffer.byteLength(body) } },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => {
          text += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

describe("a GET or HEAD with a body (e2e)", () => {
  it("is answered as if it had none, and the next request on the connection too", async () => {
    for (const path of ["/", "/about", "/api/auth/status", "/admin"]) {
      const got = await rawRequest("GET", path, "x".repeat(100));
      // Was a 500: Remix's copy of the request threw on the body.
      expect([200, 302], path).toContain(got.status);
    }
    expect((await rawRequest("HEAD", "/about", "body")).status).toBe(200);
    const status = await rawRequest("GET", "/api/auth/status", "{}");
    expect(JSON.parse(status.text)).toEqual({ authenticated: false, user: null });
    const page = await fetch(`${baseUrl()}/about`, { signal: AbortSignal.timeout(10_000) });
    expect(page.status).toBe(200);
    await page.arrayBuffer();
  });
});

// patches/wrangler+4.86.0.patch: unpatched, wrangler dev mirrors every DevTools message of the
// Worker into its debug log file, so each D1 call wrote its full response (a signed-in user's row)
// there, and a benchmark run left gigabytes in ~/.config/.wrangler/logs.
describe("wrangler's debug log (e2e)", () => {
  it("keeps the Worker's subrequests and their bodies out of it", async () => {
    const debugLog = debugLogOf(stateDir());
    const { username, password } = DEMO_ACCOUNTS.client;
    const cookie = await signIn(baseUrl(), username, password);
    // A signed-in page reads the session (the user's row) from D1: one subrequest per view.
    for (let view = 0; view < 3; view++) {
      const response = await fetch(`${baseUrl()}/dashboard`, {
        headers: { Cookie: cookie },
        redirect: "manual",
      });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    // wrangler appends to the file asynchronously: wait until it stops growing.
    let size = -1;
    for (let poll = 0; poll < 20 && size !== statSync(debugLog).size; poll++) {
      size = statSync(debugLog).size;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const log = readFileSync(debugLog, "utf8");
    expect(log).toContain("Starting local server");
    expect(log).not.toContain("Network.requestWillBeSent");
    expect(log).not.toContain("RUNTIME INCOMING MESSAGE");
    expect(log).not.toContain("http://d1/query");
  });
});
