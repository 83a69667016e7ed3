/**
 * The Worker's logs: one line per request, and error lines only for faults, never for the 4xx
 * answers a visitor's own request earns.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { postForm } from "./support/accounts";

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
