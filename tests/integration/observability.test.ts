/**
 * The Worker's logs: one line per request, and error lines only for faults, never for the 4xx
 * answers a visitor's own request earns.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { get, postForm } from "./support/accounts";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("error logs", () => {
  it("log no error for a form posted to a page that takes none (Remix's 405)", async () => {
    const errors = vi.spyOn(console, "error");
    const response = await postForm("/about", { name: "A visitor" });
    expect(response.status).toBe(405);
    await response.arrayBuffer();
    expect(errors.mock.calls.map((call) => call.join(" ")).join("\n")).not.toContain('"level":"error"');
  });
});

describe("the request log", () => {
  /** The log line written for the response that carries `requestId`. */
  function lineFor(log: { mock: { calls: unknown[][] } }, requestId: string | null) {
    const lines = log.mock.calls
      .map((call) => String(call[0]))
      .filter((text) => text.startsWith("{"))
      .map((text) => JSON.parse(text) as Record<string, unknown>);
    return lines.find((line) => line.requestId === requestId);
  }

  it("writes one line per request with its id, route, status, duration and D1 round trips", async () => {
    const log = vi.spyOn(console, "log");
    const response = await get("/about");
    await response.arrayBuffer();
    expect(lineFor(log, response.headers.get("X-Request-Id"))).toMatchObject({
      level: "info",
      method: "GET",
      path: "/about",
      route: "routes/about",
      status: 200,
      durationMs: expect.any(Number),
      d1Queries: expect.any(Number),
    });
  });

  it("names Remix's route manifest requests as such, not as the profile route that would match", async () => {
    const log = vi.spyOn(console, "log");
    const response = await get("/__manifest?p=%2Fdashboard&version=x");
    await response.arrayBuffer();
    expect(lineFor(log, response.headers.get("X-Request-Id"))).toMatchObject({
      path: "/__manifest",
      route: "__manifest",
    });
  });
});
