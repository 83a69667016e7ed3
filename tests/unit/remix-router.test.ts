import {
  UNSAFE_convertRoutesToDataRoutes as upstreamConvert,
  matchRoutes as upstreamMatchRoutes,
} from "@remix-run/router";
import { describe, expect, it } from "vitest";
import {
  UNSAFE_convertRoutesToDataRoutes as convertRoutesToDataRoutes,
  createStaticHandler,
  matchRoutes,
} from "../../workers/remix-router";

const routes = [
  {
    id: "root",
    path: "",
    children: [
      { id: "home", index: true },
      { id: "experts", path: "experts" },
      { id: "expert", path: "experts/:id" },
      { id: "category", path: "category/:slug" },
      { id: "custom", path: ":customUrl" },
      { id: "api-splat", path: "api/*" },
      { id: "portal", children: [{ id: "portal-questions", path: "expert/questions" }] },
    ],
  },
];

const ids = (matches: ReturnType<typeof matchRoutes>) => matches?.map((match) => match.route.id) ?? null;

describe("the Worker's remembered matchRoutes", () => {
  it("answers exactly as React Router's matchRoutes, the first time and every time after", () => {
    const paths = [
      "/",
      "/experts",
      "/experts/12",
      "/category/legal",
      "/sarah-mitchell",
      "/api/no/such/call",
      "/expert/questions",
      "/experts/12/extra/segments",
      "/experts?page=2#top",
    ];
    for (let round = 0; round < 3; round++) {
      for (const path of paths) {
        expect(matchRoutes(routes, path), `${path} (round ${round})`).toEqual(
          upstreamMatchRoutes(routes, path),
        );
        expect(matchRoutes(routes, { pathname: path.split("?")[0] })).toEqual(
          upstreamMatchRoutes(routes, { pathname: path.split("?")[0] }),
        );
      }
    }
    expect(ids(matchRoutes(routes, "/experts/12"))).toEqual(["root", "expert"]);
    expect(matchRoutes(routes, "/experts/12")?.at(-1)?.params).toEqual({ id: "12" });
    expect(matchRoutes(routes, "/a", "/b")).toBeNull();
  });

  it("gives every caller its own match objects, so one caller's changes never reach the next", () => {
    const first = matchRoutes(routes, "/category/legal");
    (first![1].params as Record<string, string>).slug = "tampered";
    first!.pop();
    const second = matchRoutes(routes, "/category/legal");
    expect(ids(second)).toEqual(["root", "category"]);
    expect(second![1].params).toEqual({ slug: "legal" });
  });

  it("keeps route trees apart", () => {
    const other = [{ id: "only", path: "experts" }];
    expect(ids(matchRoutes(routes, "/experts"))).toEqual(["root", "experts"]);
    expect(ids(matchRoutes(other, "/experts"))).toEqual(["only"]);
  });

  it("answers a fresh copy of the same tree (one per request) with that copy's own routes", () => {
    const copyOf = (level: typeof routes): typeof routes => level.map((route) => structuredClone(route));
    for (let round = 0; round < 3; round++) {
      for (const path of ["/", "/experts/12", "/sarah-mitchell", "/expert/questions", "/nowhere/at/all"]) {
        const fresh = copyOf(routes);
        const matches = matchRoutes(fresh, path);
        expect(matches, `${path} (round ${round})`).toEqual(upstreamMatchRoutes(fresh, path));
        // Every match points into the tree that was passed, not into a tree seen earlier.
        const inFresh = new Set<unknown>();
        const collect = (level: typeof routes) => {
          for (const route of level) {
            inFresh.add(route);
            collect((route as unknown as { children?: typeof routes }).children ?? []);
          }
        };
        collect(fresh);
        for (const match of matches ?? []) expect(inFresh.has(match.route), path).toBe(true);
      }
    }
  });

  it("tells apart trees that differ only in what matching reads", () => {
    // A route with an empty path matches "/" on its own; a pathless one never does.
    expect(ids(matchRoutes([{ id: "a", path: "" }], "/"))).toEqual(["a"]);
    expect(matchRoutes([{ id: "a" }], "/")).toBeNull();
    expect(ids(matchRoutes([{ id: "a", path: "Experts", caseSensitive: true }], "/experts"))).toBeNull();
    expect(ids(matchRoutes([{ id: "a", path: "Experts" }], "/experts"))).toEqual(["a"]);
    expect(
      ids(
        matchRoutes(
          [
            { id: "a", path: "x/:id" },
            { id: "b", path: "x/new" },
          ],
          "/x/new",
        ),
      ),
    ).toEqual(["b"]);
  });
});

describe("the static handler's matching (patches/@remix-run+router+1.23.3.patch)", () => {
  const get = (path: string) => new Request(`https://example.test${path}`);
  const matchedIn = (context: Awaited<ReturnType<ReturnType<typeof createStaticHandler>["query"]>>) => {
    if (context instanceof Response) throw new Error("expected a handler context, got a Response");
    return context.matches.map((match) => ({ id: match.route.id, params: match.params }));
  };

  it("answers every path as React Router's matchRoutes does, the first time and every time after", async () => {
    const handler = createStaticHandler(routes);
    for (let round = 0; round < 3; round++) {
      for (const path of [
        "/",
        "/experts",
        "/experts/12",
        "/sarah-mitchell",
        "/api/a/b",
        "/expert/questions",
      ]) {
        const expected = upstreamMatchRoutes(handler.dataRoutes, path)?.map((match) => ({
          id: match.route.id,
          params: match.params,
        }));
        expect(matchedIn(await handler.query(get(path))), `${path} (round ${round})`).toEqual(expected);
      }
    }
    // A path that matches nothing is a 404, the second time too.
    for (let round = 0; round < 2; round++) {
      const missing = await handler.query(get("/experts/12/extra/segments"));
      expect(missing instanceof Response ? missing.status : missing.statusCode).toBe(404);
    }
  });

  it("walks the route tree once per path, not once per request", async () => {
    const handler = createStaticHandler(routes);
    // Count how often matching reads one route's path: flattening the tree reads every route's.
    const category = handler.dataRoutes[0].children?.find((route) => route.id === "category");
    if (!category) throw new Error("no category route");
    let reads = 0;
    const path = category.path;
    Object.defineProperty(category, "path", {
      get: () => {
        reads++;
        return path;
      },
    });
    await handler.query(get("/category/legal"));
    const afterFirst = reads;
    expect(afterFirst).toBeGreaterThan(0);
    await handler.query(get("/category/legal"));
    await handler.queryRoute(get("/category/legal"), { routeId: "category" }).catch(() => null);
    expect(reads).toBe(afterFirst);
    // Another path is matched afresh.
    await handler.query(get("/category/tax"));
    expect(reads).toBeGreaterThan(afterFirst);
  });

  it("gives every request its own match objects", async () => {
    const handler = createStaticHandler(routes);
    const first = await handler.query(get("/category/legal"));
    if (first instanceof Response) throw new Error("expected a handler context");
    (first.matches[1].params as Record<string, string>).slug = "tampered";
    first.matches.pop();
    expect(matchedIn(await handler.query(get("/category/legal")))).toEqual([
      { id: "root", params: { slug: "legal" } },
      { id: "category", params: { slug: "legal" } },
    ]);
  });
});

describe("the Worker's remembered convertRoutesToDataRoutes", () => {
  type Manifest = NonNullable<Parameters<typeof convertRoutesToDataRoutes>[3]>;
  const mapRouteProperties = (route: { id?: string }) => ({ hasErrorBoundary: route.id === "root" });

  it("converts a tree exactly as React Router does, the first time and every time after", () => {
    const expectedManifest: Manifest = {};
    const expected = upstreamConvert(routes, mapRouteProperties, undefined, expectedManifest);
    for (let round = 0; round < 3; round++) {
      const manifest: Manifest = {};
      expect(convertRoutesToDataRoutes(routes, mapRouteProperties, undefined, manifest)).toEqual(expected);
      expect(manifest).toEqual(expectedManifest);
    }
  });

  it("converts the same tree once and fills each caller's own manifest with the shared routes", () => {
    const tree = structuredClone(routes);
    const firstManifest: Manifest = {};
    const first = convertRoutesToDataRoutes(tree, mapRouteProperties, undefined, firstManifest);
    const secondManifest: Manifest = {};
    const second = convertRoutesToDataRoutes(tree, mapRouteProperties, undefined, secondManifest);
    expect(second).toBe(first);
    expect(secondManifest).not.toBe(firstManifest);
    expect(secondManifest.category).toBe(firstManifest.category);
    expect(secondManifest.category).toBe(first[0].children?.find((route) => route.id === "category"));
    // One caller adding to its manifest leaves the next caller's alone.
    firstManifest.extra = firstManifest.category;
    const third: Manifest = {};
    convertRoutesToDataRoutes(tree, mapRouteProperties, undefined, third);
    expect(Object.keys(third)).toEqual(Object.keys(secondManifest));
  });

  it("converts another tree, or the same one with other route properties, afresh", () => {
    const tree = structuredClone(routes);
    const first = convertRoutesToDataRoutes(tree, mapRouteProperties);
    const copy = structuredClone(routes);
    expect(convertRoutesToDataRoutes(copy, mapRouteProperties)).not.toBe(first);
    const otherProperties = () => ({ hasErrorBoundary: true });
    const other = convertRoutesToDataRoutes(tree, otherProperties);
    expect(other).not.toBe(first);
    expect(other[0].children?.every((route) => route.hasErrorBoundary)).toBe(true);
  });

  it("leaves subtrees and filled manifests to React Router, collision checks included", () => {
    const tree = structuredClone(routes);
    const subtree = convertRoutesToDataRoutes(tree[0].children ?? [], mapRouteProperties, ["0"]);
    expect(subtree).toEqual(upstreamConvert(tree[0].children ?? [], mapRouteProperties, ["0"]));
    expect(() =>
      convertRoutesToDataRoutes(tree, mapRouteProperties, undefined, { home: {} as never }),
    ).toThrow(/route id collision/);
  });
});
