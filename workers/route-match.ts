/**
 * Which Remix route answers a URL path, by the same matcher Remix itself uses (@remix-run/router),
 * from a route manifest: the server build's `routes` (workers/app.ts, for the request log) or the
 * one @remix-run/dev reads from app/routes (tests/unit/screens-coverage.test.ts).
 */
import { type AgnosticRouteObject, matchRoutes } from "@remix-run/router";

export type ManifestRoute = {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
};

type RouteTree = AgnosticRouteObject[];

function childrenOf(routes: ManifestRoute[], parentId: string | undefined): RouteTree {
  return routes
    .filter((route) => route.parentId === parentId)
    .map((route) =>
      route.index
        ? { id: route.id, index: true, path: route.path, caseSensitive: route.caseSensitive }
        : {
            id: route.id,
            path: route.path,
            caseSensitive: route.caseSensitive,
            children: childrenOf(routes, route.id),
          },
    );
}

/** The page path a request is for: Remix data requests are `/path.data` (`/_root.data` for `/`). */
export function pagePathOf(pathname: string): string {
  if (!pathname.endsWith(".data")) return pathname;
  const path = pathname.slice(0, -".data".length);
  return path === "/_root" ? "/" : path;
}

/**
 * Returns a function from a URL path to the id of the deepest route that matches it
 * (e.g. "routes/expert.$id"), or null. `rootParentId` is the parent of the top-level routes:
 * undefined for a server build (whose manifest includes "root"), "root" for @remix-run/dev's.
 */
export function createRouteMatcher(
  manifest: Record<string, ManifestRoute | undefined>,
  { rootParentId }: { rootParentId?: string } = {},
): (pathname: string) => string | null {
  const routes = Object.values(manifest).filter((route): route is ManifestRoute => route !== undefined);
  const tree = childrenOf(routes, rootParentId);
  return (pathname) => {
    // Remix's own route-discovery endpoint, which no route file answers.
    if (pathname === "/__manifest") return "__manifest";
    const matches = matchRoutes(tree, pagePathOf(pathname));
    return matches?.at(-1)?.route.id ?? null;
  };
}
