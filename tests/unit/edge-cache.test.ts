import { describe, expect, it } from "vitest";
import { PRIVATE_CACHE_CONTROL, PUBLIC_PAGE_CACHE_CONTROL } from "~/services/cache.server";
import {
  edgeCacheKey,
  freshnessAt,
  HotCopies,
  isPublicPagePath,
  storableFreshness,
} from "../../workers/edge-cache";

const request = (path: string, init: RequestInit = {}) => new Request(`https://expert.example${path}`, init);

describe("which requests the edge cache may answer", () => {
  it("takes anonymous GETs of home, browse, category, profile and information pages and their data requests", () => {
    for (const path of [
      "/",
      "/_root.data",
      "/experts",
      "/experts.data",
      "/browse",
      "/category/legal",
      "/category/legal.data",
      "/expert/12",
      "/expert/sarah-mitchell",
      "/experts/12",
      "/sarah-mitchell",
      "/sarah-mitchell.data",
      "/about",
      "/privacy-policy",
      "/terms-of-service",
      "/experts?q=tax&sort=top_rated&minPrice=100&maxPrice=250&page=2&category=legal",
      "/expert/12?tab=qa",
      "/experts.data?_routes=routes%2Fexperts._index",
    ]) {
      expect(edgeCacheKey(request(path)), path).not.toBeNull();
    }
  });

  it("bypasses sessions, flash toasts, authorization, other methods, other pages and other parameters", () => {
    expect(edgeCacheKey(request("/", { headers: { Cookie: "__session=abc" } }))).toBeNull();
    expect(edgeCacheKey(request("/", { headers: { Cookie: "theme=dark; __toast=xyz" } }))).toBeNull();
    expect(edgeCacheKey(request("/", { headers: { Authorization: "Bearer x" } }))).toBeNull();
    expect(edgeCacheKey(request("/", { method: "POST" }))).toBeNull();
    expect(edgeCacheKey(request("/", { method: "HEAD" }))).toBeNull();
    for (const path of [
      "/contact",
      "/cancel",
      "/dashboard",
      "/expert/dashboard",
      "/expert/login",
      "/api/user/favorites",
      "/admin",
      "/experts?utm_source=x",
      "/experts?_routes=x",
      "/media/images/a.png",
      "/expert/a/b",
      "/ab",
    ]) {
      expect(edgeCacheKey(request(path)), path).toBeNull();
    }
    // Other cookies (analytics, preferences) do not make a visitor signed in.
    expect(edgeCacheKey(request("/", { headers: { Cookie: "theme=dark; __session=" } }))).not.toBeNull();
  });

  it("keys by URL without the fragment, and by the build's version", () => {
    expect(edgeCacheKey(request("/experts?q=ai#results"))).toBe("https://expert.example/experts?q=ai");
    expect(edgeCacheKey(request("/experts?q=ai"), "abc123")).toBe(
      "https://expert.example/experts?q=ai&__build=abc123",
    );
    // A visitor cannot pick the build: the parameter is not one the pages read.
    expect(edgeCacheKey(request("/experts?__build=old"), "abc123")).toBeNull();
    expect(isPublicPagePath("/questions")).toBe(false);
  });
});

describe("which responses it stores, and for how long", () => {
  const response = (cacheControl: string, init: ResponseInit = {}) =>
    new Response("x", { ...init, headers: { "Cache-Control": cacheControl, ...init.headers } });

  it("stores public 200s with s-maxage, remembering stale-while-revalidate", () => {
    expect(storableFreshness(response(PUBLIC_PAGE_CACHE_CONTROL))).toEqual({
      sMaxAge: 60,
      staleWhileRevalidate: 300,
    });
    expect(storableFreshness(response("public, s-maxage=30"))).toEqual({
      sMaxAge: 30,
      staleWhileRevalidate: 0,
    });
  });

  it("never stores private, cookie-setting, error or lifetime-less responses", () => {
    expect(storableFreshness(response(PRIVATE_CACHE_CONTROL))).toBeNull();
    expect(
      storableFreshness(response(PUBLIC_PAGE_CACHE_CONTROL, { headers: { "Set-Cookie": "a=b" } })),
    ).toBeNull();
    expect(storableFreshness(response(PUBLIC_PAGE_CACHE_CONTROL, { status: 404 }))).toBeNull();
    expect(storableFreshness(response("public, max-age=60"))).toBeNull();
    expect(storableFreshness(response("public, s-maxage=60, no-cache"))).toBeNull();
    expect(storableFreshness(new Response("x"))).toBeNull();
  });

  it("is fresh for s-maxage, then stale for stale-while-revalidate, then expired", () => {
    const lifetimes = { sMaxAge: 60, staleWhileRevalidate: 300 };
    expect(freshnessAt(0, lifetimes, 60_000)).toBe("fresh");
    expect(freshnessAt(0, lifetimes, 61_000)).toBe("stale");
    expect(freshnessAt(0, lifetimes, 360_000)).toBe("stale");
    expect(freshnessAt(0, lifetimes, 361_000)).toBe("expired");
    expect(freshnessAt(Number.NaN, lifetimes, 1)).toBe("expired");
    // Stored by a machine whose clock is a little ahead: fresh; far ahead: not trusted.
    expect(freshnessAt(2_000, lifetimes, 0)).toBe("fresh");
    expect(freshnessAt(60_000, lifetimes, 0)).toBe("expired");
  });
});

describe("the copies an isolate keeps in memory", () => {
  const copy = (bytes: number) => ({
    body: new Uint8Array(bytes),
    status: 200,
    headers: [["Content-Type", "text/html"]] as [string, string][],
  });

  it("lets the least recently used copy go first when there are too many", () => {
    const hot = new HotCopies({ maxCopies: 2, maxBytes: 1000, maxCopyBytes: 100 });
    hot.set("a", copy(10));
    hot.set("b", copy(10));
    expect(hot.get("a")?.body.byteLength).toBe(10); // "a" is now the most recently used
    hot.set("c", copy(10));
    expect(hot.get("b")).toBeUndefined();
    expect(hot.get("a")).toBeDefined();
    expect(hot.get("c")).toBeDefined();
    expect([hot.size, hot.bytes]).toEqual([2, 20]);
  });

  it("keeps within its bytes, and never keeps a copy larger than a copy may be", () => {
    const hot = new HotCopies({ maxCopies: 10, maxBytes: 100, maxCopyBytes: 60 });
    hot.set("a", copy(60));
    hot.set("b", copy(50));
    expect(hot.get("a")).toBeUndefined();
    expect([hot.size, hot.bytes]).toEqual([1, 50]);
    // A copy too large replaces nothing with itself: the key's old copy goes, as it is outdated.
    hot.set("b", copy(61));
    expect(hot.get("b")).toBeUndefined();
    expect([hot.size, hot.bytes]).toEqual([0, 0]);
  });

  it("counts a replaced or deleted copy's bytes out, and starts a new copy unrefreshed", () => {
    const hot = new HotCopies({ maxCopies: 10, maxBytes: 100, maxCopyBytes: 100 });
    hot.set("a", copy(30));
    const first = hot.get("a");
    if (first) first.refreshing = true;
    hot.set("a", copy(40));
    expect(hot.bytes).toBe(40);
    expect(hot.get("a")?.refreshing).toBe(false);
    hot.delete("a");
    hot.delete("missing");
    expect([hot.size, hot.bytes]).toEqual([0, 0]);
  });
});
