/**
 * The screens list (tests/e2e/support/screens.ts) must open every page route in app/routes: the
 * accessibility, phone-width, header and cache checks walk that list, so a new screen without an
 * entry would escape them. Routes are read the way Remix reads them (flat routes, remix.config.js's
 * ignoredRouteFiles) and paths matched the way Remix matches them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { UNSAFE_flatRoutes as flatRoutes } from "@remix-run/dev";
import { type AgnosticRouteObject, matchRoutes } from "@remix-run/router";
import { describe, expect, it } from "vitest";
import remixConfig from "../../remix.config.js";
import { createRouteMatcher, type ManifestRoute } from "../../workers/route-match";
import { ROUTE_EXCEPTIONS, SCREENS } from "../e2e/support/screens";

const APP = fileURLToPath(new URL("../../app", import.meta.url));
const manifest = flatRoutes(APP, remixConfig.ignoredRouteFiles ?? []);
const routes = Object.values(manifest) as (ManifestRoute & { file: string })[];

/** A module with a default export renders a page; one without is a resource route (API, media, redirects). */
function isPageRoute(route: { file: string }): boolean {
  const source = readFileSync(join(APP, route.file), "utf8");
  return /export\s+default\b|export\s*\{[^}]*\bdefault\b[^}]*\}/.test(source);
}

/** Every route on the way to the page at `path` (layouts too), as Remix would match it. */
function matchedRouteIds(path: string): string[] {
  const tree = (parentId: string): AgnosticRouteObject[] =>
    routes
      .filter((route) => route.parentId === parentId)
      .map((route) =>
        route.index
          ? { id: route.id, index: true, path: route.path }
          : { id: route.id, path: route.path, children: tree(route.id) },
      );
  const pathname = new URL(path, "http://screens.test").pathname;
  return (matchRoutes(tree("root"), pathname) ?? []).map((match) => match.route.id ?? "");
}

const pageRoutes = routes.filter(isPageRoute).map((route) => route.id);
const covered = new Set(SCREENS.flatMap((screen) => matchedRouteIds(screen.path)));

describe("the screens list", () => {
  it("opens every page route in app/routes (or names it as a documented exception)", () => {
    const missing = pageRoutes.filter((id) => !covered.has(id) && !(id in ROUTE_EXCEPTIONS));
    expect(
      missing,
      "Add a screen for each of these to tests/e2e/support/screens.ts (see its header comment)",
    ).toEqual([]);
  });

  it("names only exceptions that are page routes no screen opens", () => {
    for (const id of Object.keys(ROUTE_EXCEPTIONS)) {
      expect(pageRoutes, `${id} is not a page route`).toContain(id);
      expect(covered.has(id), `${id} is opened by a screen: drop the exception`).toBe(false);
    }
  });

  it("gives every screen a unique name and a path that reaches a route", () => {
    const names = SCREENS.map((screen) => screen.name);
    expect(new Set(names).size).toBe(names.length);
    for (const screen of SCREENS) {
      expect(matchedRouteIds(screen.path).length, screen.path).toBeGreaterThan(0);
      expect(screen.name).toMatch(/^[a-z0-9-]+$/);
    }
  });

  it("sends only the not-found screen to the catch-all route", () => {
    const toCatchAll = SCREENS.filter((screen) => matchedRouteIds(screen.path).at(-1) === "routes/$");
    expect(toCatchAll.map((screen) => screen.path)).toEqual(["/no/such/page"]);
  });
});

describe("the request log's route matcher (workers/route-match.ts)", () => {
  const routeOf = createRouteMatcher(manifest, { rootParentId: "root" });

  it("names the route Remix would render, for documents and their data requests", () => {
    expect(routeOf("/")).toBe("routes/_index");
    expect(routeOf("/_root.data")).toBe("routes/_index");
    expect(routeOf("/expert/1")).toBe("routes/expert.$id");
    expect(routeOf("/expert/dashboard.data")).toBe("routes/_portal.expert.dashboard");
    expect(routeOf("/demo-expert")).toBe("routes/$customUrl");
    expect(routeOf("/no/such/page")).toBe("routes/$");
    expect(routeOf("/media/images/abc.webp")).toBe("routes/media.images.$file");
  });
});
