/**
 * What the Worker gets for `import … from "@remix-run/router"` (wrangler.toml [alias]): the package
 * itself, with `matchRoutes` remembered per route tree and path.
 *
 * matchRoutes flattens and ranks the whole route tree (a hundred branches here) and compiles a
 * regular expression per branch it tries, on every call; rendering one page calls it three or four
 * times with the same path (the request handler, the manifest of links to discover, the router's
 * render), which was a quarter of the CPU time of a signed-in page. The trees are built from the
 * server build, but a caller may pass a fresh copy of one (Remix built its render tree afresh for
 * every request until the patch named below), so answers are kept by the tree's shape (each route's id, path, index and case flags, in order), not by the
 * tree object: for one shape a path always matches the same routes. An answer is kept as positions in
 * the tree, and each caller gets match objects pointing into the tree it passed.
 *
 * The same goes for the data routes React Router makes of a route tree when it renders a page
 * (convertRoutesToDataRoutes): a tree that is the same object as before (Remix builds its render tree
 * once per server build, patches/@remix-run+react+2.17.5.patch) is converted once, and each caller
 * still gets its own id-to-route manifest, filled with the shared routes.
 *
 * One more call per page cannot be reached from here: the static handler that runs the loaders
 * matches inside the package, with the package's own `matchRoutes`. Its route tree is built once, so
 * patches/@remix-run+router+1.23.3.patch (applied by patch-package after every install) remembers
 * its answers per path inside the handler.
 */
import type * as RemixRouter from "@remix-run/router";
import * as upstream from "../node_modules/@remix-run/router/dist/router.js";

export * from "../node_modules/@remix-run/router/dist/router.js";

type Routes = Parameters<typeof RemixRouter.matchRoutes>[0];
type Route = Routes[number];
type Location = Parameters<typeof RemixRouter.matchRoutes>[1];
type Matches = ReturnType<typeof RemixRouter.matchRoutes>;
type Match = NonNullable<Matches>[number];

/** A remembered match: where its route sits in the tree, and what matched. */
type KeptMatch = Omit<Match, "route"> & { position: number[] };

const matchRoutesUncached = (upstream as unknown as typeof RemixRouter).matchRoutes;

const MAX_SHAPES = 8;
const MAX_PATHS_PER_SHAPE = 512;
const shapes = new WeakMap<Routes, string>();
const answers = new Map<string, Map<string, KeptMatch[] | null>>();

/** The tree's shape as a string: what matching reads of each route, in order, with nesting. */
function shapeOf(routes: Routes): string {
  let shape = shapes.get(routes);
  if (shape === undefined) {
    const parts: string[] = [];
    const walk = (level: Routes) => {
      for (const route of level) {
        parts.push(
          `${route.id ?? ""}\u0001${route.path ?? "\u0003"}\u0001${route.index ? 1 : 0}${route.caseSensitive ? 1 : 0}`,
        );
        if (route.children?.length) {
          parts.push("(");
          walk(route.children);
          parts.push(")");
        }
      }
    };
    walk(routes);
    shape = parts.join("\u0002");
    shapes.set(routes, shape);
  }
  return shape;
}

/** The child indexes leading from the top of `routes` to `target`, or null if it is not there. */
function positionOf(routes: Routes, target: Route): number[] | null {
  for (let index = 0; index < routes.length; index++) {
    const route = routes[index];
    if (route === target) return [index];
    const below = route.children ? positionOf(route.children, target) : null;
    if (below) return [index, ...below];
  }
  return null;
}

function routeAt(routes: Routes, position: number[]): Route | undefined {
  let level: Routes | undefined = routes;
  let route: Route | undefined;
  for (const index of position) {
    route = level?.[index];
    level = route?.children;
  }
  return route;
}

export function matchRoutes(routes: Routes, location: Location, basename = "/"): Matches {
  const pathname = typeof location === "string" ? location.split(/[?#]/)[0] : location.pathname;
  if (pathname === undefined) return matchRoutesUncached(routes, location, basename);
  const shape = shapeOf(routes);
  let known = answers.get(shape);
  if (!known) {
    if (answers.size >= MAX_SHAPES) answers.clear();
    known = new Map();
    answers.set(shape, known);
  }
  const key = `${basename}\u0000${pathname}`;
  let kept = known.get(key);
  if (kept === undefined) {
    const matches = matchRoutesUncached(routes, location, basename);
    const positions = matches?.map((match) => positionOf(routes, match.route));
    if (positions?.some((position) => position === null)) return matches;
    kept =
      matches?.map(({ route: _route, ...match }, index) => ({
        ...match,
        position: positions?.[index] ?? [],
      })) ?? null;
    if (known.size >= MAX_PATHS_PER_SHAPE) known.clear();
    known.set(key, kept);
  }
  if (kept === null) return null;
  const matches: Match[] = [];
  for (const { position, params, pathname: matched, pathnameBase } of kept) {
    const route = routeAt(routes, position);
    if (!route) return matchRoutesUncached(routes, location, basename);
    matches.push({ params: { ...params }, pathname: matched, pathnameBase, route });
  }
  return matches;
}

type MapRouteProperties = Parameters<typeof RemixRouter.UNSAFE_convertRoutesToDataRoutes>[1];
type RouteManifest = NonNullable<Parameters<typeof RemixRouter.UNSAFE_convertRoutesToDataRoutes>[3]>;
type DataRoutes = ReturnType<typeof RemixRouter.UNSAFE_convertRoutesToDataRoutes>;
type ConvertedTree = {
  mapRouteProperties: MapRouteProperties;
  dataRoutes: DataRoutes;
  manifest: RouteManifest;
};

const convertRoutesToDataRoutesUncached = (upstream as unknown as typeof RemixRouter)
  .UNSAFE_convertRoutesToDataRoutes;
const convertedTrees = new WeakMap<Routes, ConvertedTree>();

export function UNSAFE_convertRoutesToDataRoutes(
  routes: Routes,
  mapRouteProperties: MapRouteProperties,
  parentPath?: string[],
  manifest: RouteManifest = {},
): DataRoutes {
  // Only whole trees converted into a fresh manifest are shared; anything else is converted as asked.
  if ((parentPath && parentPath.length > 0) || Object.keys(manifest).length > 0) {
    return convertRoutesToDataRoutesUncached(routes, mapRouteProperties, parentPath, manifest);
  }
  let kept = convertedTrees.get(routes);
  if (!kept || kept.mapRouteProperties !== mapRouteProperties) {
    const keptManifest: RouteManifest = {};
    const dataRoutes = convertRoutesToDataRoutesUncached(routes, mapRouteProperties, [], keptManifest);
    kept = { mapRouteProperties, dataRoutes, manifest: keptManifest };
    convertedTrees.set(routes, kept);
  }
  Object.assign(manifest, kept.manifest);
  return kept.dataRoutes;
}
