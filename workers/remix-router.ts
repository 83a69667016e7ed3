/**
 * What the Worker gets for `import … from "@remix-run/router"` (wrangler.toml [alias]): the package
 * itself, with `matchRoutes` remembered per route tree and path.
 *
 * matchRoutes flattens and ranks the whole route tree (a hundred branches here) on every call, and
 * rendering one page calls it three or four times with the same tree and path (the request handler,
 * the manifest of links to discover, the router's render), which was a quarter of the CPU time of a
 * signed-in page. The route tree is built once per isolate and never changes, so for one tree a path
 * always matches the same routes: the answer is kept (512 paths per tree at most) and each caller
 * gets its own copy of the match objects.
 */
import type * as RemixRouter from "@remix-run/router";
import * as upstream from "../node_modules/@remix-run/router/dist/router.js";

export * from "../node_modules/@remix-run/router/dist/router.js";

type Routes = Parameters<typeof RemixRouter.matchRoutes>[0];
type Location = Parameters<typeof RemixRouter.matchRoutes>[1];
type Matches = ReturnType<typeof RemixRouter.matchRoutes>;

const matchRoutesUncached = (upstream as unknown as typeof RemixRouter).matchRoutes;

const MAX_PATHS_PER_TREE = 512;
const answers = new WeakMap<Routes, Map<string, Matches>>();

const copyOf = (matches: Matches): Matches =>
  matches === null ? null : matches.map((match) => ({ ...match, params: { ...match.params } }));

export function matchRoutes(routes: Routes, location: Location, basename = "/"): Matches {
  const pathname = typeof location === "string" ? location.split(/[?#]/)[0] : location.pathname;
  if (pathname === undefined) return matchRoutesUncached(routes, location, basename);
  let known = answers.get(routes);
  if (!known) {
    known = new Map();
    answers.set(routes, known);
  }
  const key = `${basename}\u0000${pathname}`;
  if (!known.has(key)) {
    if (known.size >= MAX_PATHS_PER_TREE) known.clear();
    known.set(key, matchRoutesUncached(routes, location, basename));
  }
  return copyOf(known.get(key) ?? null);
}
