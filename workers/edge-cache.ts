/**
 * The edge cache for anonymous visitors' public pages (home, browse, categories, expert profiles),
 * through the Workers Cache API (`caches.default`, per data centre). A Worker's responses are not
 * cached by the CDN on their own: this is what lets a popular profile be rendered once a minute
 * per location instead of once per visitor.
 *
 * Rules (tests/integration/edge-cache.test.ts, tests/unit/edge-cache.test.ts):
 * - Only GET requests for those pages (documents and their `.data` requests), with no session cookie
 *   and no flash-toast cookie, whose query holds only the pages' own parameters. Anything else
 *   bypasses the cache entirely: a signed-in person never receives a stored page.
 * - Only a 200 response that says `public` with an `s-maxage`, and sets no cookie, is stored;
 *   keyed by URL alone (the stored copy never depends on a request header).
 * - `s-maxage` is honoured: a copy is fresh for that long. For `stale-while-revalidate` more seconds
 *   it is still served, and the page is re-rendered in the background (the Cache API has no
 *   stale-while-revalidate of its own).
 */
import { SESSION_COOKIE } from "~/auth/session.server";
import { couldBeCustomUrl, isReservedCustomUrl } from "~/lib/reserved-urls";
import { TOAST_COOKIE } from "~/services/flash.server";

/** Query parameters the public pages read; any other parameter bypasses the cache. */
const PAGE_PARAMS = new Set(["q", "category", "sort", "minPrice", "maxPrice", "page", "tab"]);
/** Remix single-fetch parameter naming the loaders a `.data` request wants. */
const DATA_PARAMS = new Set(["_routes"]);

const STORED_AT = "X-Edge-Stored-At";
const ORIGINAL_CACHE_CONTROL = "X-Edge-Cache-Control";
export const EDGE_CACHE_STATUS = "X-Edge-Cache";

export type EdgeCacheStatus = "HIT" | "STALE" | "MISS" | "BYPASS";

function hasCookie(request: Request, name: string): boolean {
  const header = request.headers.get("Cookie");
  if (!header) return false;
  return header.split(";").some((part) => {
    const [key, ...value] = part.trim().split("=");
    return key === name && value.join("=") !== "";
  });
}

/** The page path behind a request path: `/experts.data` is `/experts`, `/_root.data` is `/`. */
function pagePath(pathname: string): { path: string; isData: boolean } {
  if (!pathname.endsWith(".data")) return { path: pathname, isData: false };
  const path = pathname.slice(0, -".data".length);
  return { path: path === "/_root" ? "/" : path, isData: true };
}

/** Whether a path is one of the public pages: home, browse, a category, or an expert profile. */
export function isPublicPagePath(path: string): boolean {
  if (path === "/" || path === "/experts" || path === "/browse") return true;
  if (/^\/category\/[a-z0-9-]{1,100}$/.test(path)) return true;
  if (/^\/experts\/\d{1,12}$/.test(path)) return true;
  const expert = /^\/expert\/([A-Za-z0-9_-]{1,50})$/.exec(path);
  if (expert) return /^\d{1,12}$/.test(expert[1]) || !isReservedCustomUrl(expert[1]);
  const single = /^\/([^/]+)$/.exec(path);
  return single !== null && couldBeCustomUrl(single[1]);
}

/**
 * The cache key of a request that may be served from the edge cache, or null when it must bypass it.
 * The key carries the build's version: after a deploy (or a rebuild in development) no page that
 * points at the previous build's scripts is served again.
 */
export function edgeCacheKey(request: Request, buildVersion?: string): string | null {
  if (request.method !== "GET") return null;
  if (request.headers.has("Authorization")) return null;
  if (hasCookie(request, SESSION_COOKIE) || hasCookie(request, TOAST_COOKIE)) return null;
  const url = new URL(request.url);
  const { path, isData } = pagePath(url.pathname);
  if (!isPublicPagePath(path)) return null;
  for (const name of url.searchParams.keys()) {
    if (!PAGE_PARAMS.has(name) && !(isData && DATA_PARAMS.has(name))) return null;
  }
  url.hash = "";
  if (buildVersion) url.searchParams.set("__build", buildVersion);
  return url.toString();
}

type Freshness = { sMaxAge: number; staleWhileRevalidate: number };

/** The shared-cache lifetimes of a response, or null when it must not be stored at the edge. */
export function storableFreshness(response: Response): Freshness | null {
  if (response.status !== 200) return null;
  if (response.headers.has("Set-Cookie")) return null;
  const cacheControl = (response.headers.get("Cache-Control") ?? "").toLowerCase();
  const directives = new Map(
    cacheControl
      .split(",")
      .map((directive) => directive.trim().split("="))
      .filter(([name]) => name)
      .map(([name, value]) => [name.trim(), value?.trim()] as const),
  );
  if (!directives.has("public")) return null;
  if (["private", "no-store", "no-cache"].some((name) => directives.has(name))) return null;
  const sMaxAge = Number.parseInt(directives.get("s-maxage") ?? "", 10);
  if (!Number.isFinite(sMaxAge) || sMaxAge <= 0) return null;
  const swr = Number.parseInt(directives.get("stale-while-revalidate") ?? "0", 10);
  return { sMaxAge, staleWhileRevalidate: Number.isFinite(swr) && swr > 0 ? swr : 0 };
}

/** How fresh a stored copy is at `now`: fresh, stale (serve and refresh) or expired (render anew). */
export function freshnessAt(
  storedAt: number,
  { sMaxAge, staleWhileRevalidate }: Freshness,
  now: number,
): "fresh" | "stale" | "expired" {
  const ageSeconds = (now - storedAt) / 1000;
  if (ageSeconds < 0 || Number.isNaN(ageSeconds)) return "expired";
  if (ageSeconds <= sMaxAge) return "fresh";
  if (ageSeconds <= sMaxAge + staleWhileRevalidate) return "stale";
  return "expired";
}

function withStatus(response: Response, status: EdgeCacheStatus, extra: Record<string, string> = {}) {
  const copy = new Response(response.body, response);
  copy.headers.set(EDGE_CACHE_STATUS, status);
  for (const [name, value] of Object.entries(extra)) copy.headers.set(name, value);
  return copy;
}

/** Stores a copy for s-maxage + stale-while-revalidate, remembering when and with what headers. */
async function store(cache: Cache, key: string, response: Response, freshness: Freshness, now: number) {
  const copy = new Response(response.body, response);
  copy.headers.set(ORIGINAL_CACHE_CONTROL, copy.headers.get("Cache-Control") ?? "");
  copy.headers.set("Cache-Control", `public, s-maxage=${freshness.sMaxAge + freshness.staleWhileRevalidate}`);
  copy.headers.set(STORED_AT, String(now));
  copy.headers.delete(EDGE_CACHE_STATUS);
  copy.headers.delete("X-Request-Id");
  await cache.put(key, copy);
}

export type EdgeCacheOptions = {
  cache: Cache;
  /** The Remix build's version (build.assets.version), part of every key. */
  buildVersion?: string;
  waitUntil: (promise: Promise<unknown>) => void;
  now?: () => number;
};

/**
 * Serves `request` from the edge cache when it may, else renders it with `render` and stores the
 * result when the response allows it. The response carries X-Edge-Cache: HIT, STALE, MISS or BYPASS.
 */
export async function serveWithEdgeCache(
  request: Request,
  render: () => Promise<Response>,
  { cache, waitUntil, now = Date.now, buildVersion }: EdgeCacheOptions,
): Promise<Response> {
  const key = edgeCacheKey(request, buildVersion);
  if (key === null) return withStatus(await render(), "BYPASS");

  const renderAndStore = async () => {
    const response = await render();
    const freshness = storableFreshness(response);
    if (!freshness) return response;
    const stored = response.clone();
    waitUntil(
      store(cache, key, stored, freshness, now()).catch((error) => {
        console.error(
          JSON.stringify({ level: "error", message: "edge cache put failed", error: String(error) }),
        );
      }),
    );
    return response;
  };

  const cached = await cache.match(key).catch(() => undefined);
  if (cached) {
    const original = cached.headers.get(ORIGINAL_CACHE_CONTROL) ?? "";
    const storedAt = Number(cached.headers.get(STORED_AT));
    const freshness = storableFreshness(new Response(null, { headers: { "Cache-Control": original } }));
    const state = freshness ? freshnessAt(storedAt, freshness, now()) : "expired";
    if (state !== "expired") {
      const served = new Response(cached.body, cached);
      served.headers.set("Cache-Control", original);
      served.headers.set("Age", String(Math.max(0, Math.floor((now() - storedAt) / 1000))));
      served.headers.delete(ORIGINAL_CACHE_CONTROL);
      served.headers.delete(STORED_AT);
      served.headers.delete("CF-Cache-Status");
      if (state === "stale") waitUntil(renderAndStore().then((response) => response.body?.cancel()));
      return withStatus(served, state === "fresh" ? "HIT" : "STALE");
    }
    await cached.body?.cancel();
  }
  return withStatus(await renderAndStore(), "MISS");
}
