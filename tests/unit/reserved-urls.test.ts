import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { couldBeCustomUrl, isReservedCustomUrl, RESERVED_CUSTOM_URLS } from "~/lib/reserved-urls";

const ROUTES = fileURLToPath(new URL("../../app/routes", import.meta.url));
const PUBLIC = fileURLToPath(new URL("../../public", import.meta.url));

/** The URL segments of a flat-routes file name: "api.user.favorites.$expertId.ts" -> api, user, ... */
function segmentsOf(entry: string): string[] {
  const name = entry.replace(/\/route\.tsx?$/, "").replace(/\.(tsx?|jsx?)$/, "");
  return name
    .replace(/\[\.\]/g, "~dot~")
    .split(".")
    .map((segment) => segment.replace(/~dot~/g, "."))
    .filter((segment) => !segment.startsWith("_") && segment !== "route");
}

const routeEntries = () =>
  readdirSync(ROUTES, { withFileTypes: true }).map((entry) =>
    entry.isDirectory() ? `${entry.name}/route.tsx` : entry.name,
  );

describe("reserved custom URLs", () => {
  it("include the first path segment of every route of the app", () => {
    for (const entry of routeEntries()) {
      const [first] = segmentsOf(entry);
      if (!first || first.startsWith("$")) continue;
      expect(isReservedCustomUrl(first), `${entry} -> /${first}`).toBe(true);
    }
  });

  it("include every page under /expert/, so /expert/{customUrl} never shadows the portal", () => {
    for (const entry of routeEntries()) {
      const [first, second] = segmentsOf(entry);
      if (first !== "expert" || !second || second.startsWith("$")) continue;
      expect(isReservedCustomUrl(second), `${entry} -> /expert/${second}`).toBe(true);
    }
    for (const page of [
      "dashboard",
      "questions",
      "bookings",
      "settings",
      "account",
      "earnings",
      "availability",
      "share",
      "login",
    ]) {
      expect(isReservedCustomUrl(page), page).toBe(true);
    }
  });

  it("include the files and folders served from public/", () => {
    for (const entry of readdirSync(PUBLIC)) {
      expect(isReservedCustomUrl(entry), entry).toBe(true);
    }
  });

  it("include the words the brief lists, case-insensitively", () => {
    for (const word of [
      "api",
      "media",
      "build",
      "questions",
      "webhooks",
      "sitemap.xml",
      "robots.txt",
      "ADMIN",
      " Auth ",
    ]) {
      expect(isReservedCustomUrl(word), word).toBe(true);
    }
    expect(isReservedCustomUrl("_root.data")).toBe(true);
    // Digits only would be read as an id in /expert/{id}.
    expect(isReservedCustomUrl("12345")).toBe(true);
    expect(isReservedCustomUrl("agent-007")).toBe(false);
    expect(isReservedCustomUrl("sarah-mitchell.data")).toBe(true);
    expect(RESERVED_CUSTOM_URLS.every((word) => word === word.toLowerCase())).toBe(true);
  });

  it("leave ordinary names free, and only well-formed segments can be custom URLs", () => {
    for (const url of ["sarah-mitchell", "demo_expert", "ada-quill", "abc"]) {
      expect(isReservedCustomUrl(url), url).toBe(false);
      expect(couldBeCustomUrl(url), url).toBe(true);
    }
    for (const segment of ["ab", "a".repeat(51), "has space", "<script>", "dots.here", "about", "experts"]) {
      expect(couldBeCustomUrl(segment), segment).toBe(false);
    }
  });
});
