import { describe, expect, it } from "vitest";
import { PARKED_MODULE_TYPE, PARKED_PRELOAD_ATTRIBUTE } from "../../app/lib/boot-after-paint";
import { baseUrl, DESKTOP, newPage, PHONE, screenshot } from "./harness";
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
    await page.addInitScript(() => {
      const counter = window as unknown as { restoredPreloads: number };
      counter.restoredPreloads = 0;
      new MutationObserver((records) => {
        for (const record of records) {
          if ((record.target as HTMLLinkElement).rel === "modulepreload") counter.restoredPreloads++;
        }
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ["rel"] });
    });
    await page.goto("/experts");
    await page.waitForSelector("html[data-hydrated]");
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
    expect(watch.pageErrors).toEqual([]);
    expect(watch.cspViolations).toEqual([]);
    // React is live: the phone menu opens.
    await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("button", { name: "Close menu" }).waitFor();
    expect(await page.getByRole("navigation", { name: "Main" }).getAttribute("data-open")).toBe("true");
    await page.close();
  });
});
