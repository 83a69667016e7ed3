import { describe, expect, it } from "vitest";
import { baseUrl, DESKTOP, newPage, PHONE, screenshot } from "./harness";

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
});
