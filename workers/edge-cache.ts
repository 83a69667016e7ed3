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
 * - A copy is stored gzip-compressed, with the hashes of its inline scripts for the CSP
 *   (workers/security-headers.ts), so a hit streams stored bytes as they are: nothing to compress
 *   or rewrite per visitor. The rare client that does not take gzip gets it unpacked.
 * - In front of the Cache API, an isolate keeps its most recently served copies in memory
 *   (HotCopies): a hit on a popular page then costs no Cache API lookup. A copy in memory is the
 *   same stored copy with the same freshness, so it is never newer or staler than the rules above
 *   allow; and while one is being refreshed, the isolate's other visitors do not start another render.
 */
import { SESSION_COOKIE } from "~/auth/session.server";
import { couldBeCustomUrl, isReservedCustomUrl } from "~/lib/reserved-urls";
import { TOAST_COOKIE } from "~/services/flash.server";
import { inlineScriptHashes, SCRIPT_HASHES_HEADER } from "./security-headers";

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

/** The information pages that are the same for every visitor until the next deploy. */
const INFORMATION_PAGES = new Set(["/about", "/privacy-policy", "/terms-of-service"]);

/**
 * Whether a path is one of the public pages: home, browse, a category, an expert profile, or an
 * information page.
 */
export function isPublicPagePath(path: string): boolean {
  if (path === "/" || path === "/experts" || path === "/browse") return true;
  if (INFORMATION_PAGES.has(path)) return true;
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
  return sharedFreshness(response.headers.get("Cache-Control") ?? "");
}

/** The shared-cache lifetimes a Cache-Control value grants, or null when it grants none. */
function sharedFreshness(value: string): Freshness | null {
  const cacheControl = value.toLowerCase();
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

/**
 * How far ahead of this isolate's clock another machine's may be: a copy it stored "in the future"
 * by up to this much is fresh; one further ahead is not trusted.
 */
const CLOCK_SKEW_SECONDS = 5;

/** How fresh a stored copy is at `now`: fresh, stale (serve and refresh) or expired (render anew). */
export function freshnessAt(
  storedAt: number,
  { sMaxAge, staleWhileRevalidate }: Freshness,
  now: number,
): "fresh" | "stale" | "expired" {
  const ageSeconds = (now - storedAt) / 1000;
  if (ageSeconds < -CLOCK_SKEW_SECONDS || Number.isNaN(ageSeconds)) return "expired";
  if (ageSeconds <= sMaxAge) return "fresh";
  if (ageSeconds <= sMaxAge + staleWhileRevalidate) return "stale";
  return "expired";
}

function withStatus(response: Response, status: EdgeCacheStatus, extra: Record<string, string> = {}) {
  const copy = new Response(response.body, response);
  copy.headers.set(EDGE_CACHE_STATUS, status);
  // A cacheable page is sent gzip-compressed or not depending on the request: say so to caches.
  if (status !== "BYPASS" && !/\baccept-encoding\b/i.test(copy.headers.get("Vary") ?? "")) {
    copy.headers.append("Vary", "Accept-Encoding");
  }
  for (const [name, value] of Object.entries(extra)) copy.headers.set(name, value);
  return copy;
}

/** A body already gzip-compressed: sent as it is, never compressed again (a Workers extension). */
const PRE_COMPRESSED = { encodeBody: "manual" } as ResponseInit;

const acceptsGzip = (request: Request) => /\bgzip\b/i.test(request.headers.get("Accept-Encoding") ?? "");

/**
 * Stores a copy for s-maxage + stale-while-revalidate, remembering when and with what headers:
 * gzip-compressed, and for a page the hashes of its inline scripts (those with `scriptNonce`).
 */
async function store(
  cache: Cache,
  key: string,
  response: Response,
  freshness: Freshness,
  now: number,
  hot: HotCopies | undefined,
  scriptNonce: string,
) {
  const headers = new Headers(response.headers);
  const text = await response.text();
  if ((headers.get("Content-Type") ?? "").toLowerCase().startsWith("text/html")) {
    headers.set(SCRIPT_HASHES_HEADER, (await inlineScriptHashes(text, scriptNonce)).join(" "));
  }
  headers.set("ETag", await weakEtag(text));
  const compressed = await new Response(
    new Blob([text]).stream().pipeThrough(new CompressionStream("gzip")),
  ).arrayBuffer();
  headers.set("Content-Encoding", "gzip");
  headers.set("Content-Length", String(compressed.byteLength));
  headers.set(ORIGINAL_CACHE_CONTROL, headers.get("Cache-Control") ?? "");
  headers.set("Cache-Control", `public, s-maxage=${freshness.sMaxAge + freshness.staleWhileRevalidate}`);
  headers.set(STORED_AT, String(now));
  headers.delete(EDGE_CACHE_STATUS);
  headers.delete("X-Request-Id");
  hot?.set(key, {
    body: new Uint8Array(compressed.slice(0)),
    status: response.status,
    headers: [...headers],
  });
  await cache.put(key, new Response(compressed, { ...PRE_COMPRESSED, status: response.status, headers }));
}

/** The Cache API's copy under `key`, kept in memory on the way when it is small enough. */
async function matchStored(cache: Cache, key: string, hot: HotCopies | undefined) {
  const cached = await cache.match(key).catch(() => undefined);
  if (!cached || !hot) return { cached, copy: undefined };
  const body = new Uint8Array(await cached.arrayBuffer());
  const copy = hot.set(key, { body, status: cached.status, headers: [...cached.headers] });
  return {
    cached: new Response(body, { ...PRE_COMPRESSED, status: cached.status, headers: cached.headers }),
    copy,
  };
}

/**
 * A weak validator of a stored copy, from its content: a browser that has it (max-age=0 makes it
 * ask every time) gets a 304 instead of the page again. Weak, because the gzip and the plain
 * representations share it.
 */
async function weakEtag(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return `W/"${[...digest.slice(0, 10)].map((byte) => byte.toString(16).padStart(2, "0")).join("")}"`;
}

/** Whether the request's If-None-Match names `etag` (weak comparison, RFC 9110 13.1.2). */
function alreadyHas(request: Request, etag: string | null): boolean {
  const asked = request.headers.get("If-None-Match");
  if (!asked || !etag) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return asked.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
}

/** A stored copy as this request takes it: the gzip bytes as they are, or unpacked. */
function servedCopy(request: Request, cached: Response): Response {
  if (cached.headers.get("Content-Encoding") !== "gzip") return new Response(cached.body, cached);
  if (acceptsGzip(request))
    return new Response(cached.body, { ...PRE_COMPRESSED, status: cached.status, headers: cached.headers });
  const headers = new Headers(cached.headers);
  headers.delete("Content-Encoding");
  headers.delete("Content-Length");
  return new Response(cached.body?.pipeThrough(new DecompressionStream("gzip")) ?? null, {
    status: cached.status,
    headers,
  });
}

/** A stored copy as kept in memory: its gzip bytes, status and headers (those of the Cache API copy). */
type HotCopy = {
  body: Uint8Array<ArrayBuffer>;
  status: number;
  headers: [string, string][];
  refreshing: boolean;
};

/**
 * The stored copies an isolate served most recently, in memory, least recently used first out.
 * Bounded by count and bytes (an isolate has 128 MB in all); a copy too large for it stays in the
 * Cache API only.
 */
export class HotCopies {
  readonly #copies = new Map<string, HotCopy>();
  #bytes = 0;

  constructor(readonly limits = { maxCopies: 200, maxBytes: 4 * 1024 * 1024, maxCopyBytes: 256 * 1024 }) {}

  get size() {
    return this.#copies.size;
  }

  get bytes() {
    return this.#bytes;
  }

  /** The copy stored under `key`, now the most recently used. */
  get(key: string): HotCopy | undefined {
    const copy = this.#copies.get(key);
    if (copy) {
      this.#copies.delete(key);
      this.#copies.set(key, copy);
    }
    return copy;
  }

  /**
   * Keeps `copy` under `key` (replacing any), and lets the least recently used go past the limits.
   * Returns the kept copy, or undefined when it is too large to keep.
   */
  set(key: string, copy: Omit<HotCopy, "refreshing">): HotCopy | undefined {
    this.delete(key);
    if (copy.body.byteLength > this.limits.maxCopyBytes) return undefined;
    const kept = { ...copy, refreshing: false };
    this.#copies.set(key, kept);
    this.#bytes += copy.body.byteLength;
    for (const [oldest, { body }] of this.#copies) {
      if (this.#copies.size <= this.limits.maxCopies && this.#bytes <= this.limits.maxBytes) break;
      this.#copies.delete(oldest);
      this.#bytes -= body.byteLength;
    }
    return kept;
  }

  delete(key: string): void {
    const copy = this.#copies.get(key);
    if (!copy) return;
    this.#copies.delete(key);
    this.#bytes -= copy.body.byteLength;
  }

  /** Lets go every copy whose URL path is one of `pathnames`, whatever its query. */
  deletePaths(pathnames: ReadonlySet<string>): void {
    for (const key of [...this.#copies.keys()]) {
      if (pathnames.has(new URL(key).pathname)) this.delete(key);
    }
  }
}

/**
 * A kept copy as a Response like the Cache API's: the same gzip bytes, status and headers. The
 * Response takes a copy of the bytes (Fetch's "extract a body"), so the kept ones stay intact.
 */
const hotResponse = (copy: HotCopy) =>
  new Response(copy.body, { ...PRE_COMPRESSED, status: copy.status, headers: copy.headers });

/** The route a public page's own loader belongs to: what a client navigation's `.data?_routes=` names. */
export function publicPageRouteId(path: string): string | null {
  if (!isPublicPagePath(path)) return null;
  if (path === "/") return "routes/_index";
  if (path === "/experts") return "routes/experts._index";
  if (path === "/browse") return "routes/browse";
  if (INFORMATION_PAGES.has(path)) return `routes/${path.slice(1)}`;
  if (path.startsWith("/category/")) return "routes/category.$slug";
  if (path.startsWith("/experts/")) return "routes/experts.$id";
  if (path.startsWith("/expert/")) return "routes/expert.$id";
  return "routes/$customUrl";
}

/** The URL of a page's data request, as Remix names it (`/` is `/_root.data`). */
const dataPathOf = (path: string) => (path === "/" ? "/_root.data" : `${path}.data`);

/**
 * Every key under which a public page may be stored without a query: the document, its data, and its
 * data for a client navigation (Remix names the page's own loader when the root's is not reloaded).
 */
export function edgeCacheKeysOfPage(origin: string, path: string, buildVersion?: string): string[] {
  const routeId = publicPageRouteId(path);
  if (!routeId) return [];
  const dataUrl = (routes?: string) => {
    const url = new URL(dataPathOf(path), origin);
    if (routes) url.searchParams.set("_routes", routes);
    return url;
  };
  return [new URL(path, origin), dataUrl(), dataUrl(routeId)]
    .map((url) => edgeCacheKey(new Request(url), buildVersion))
    .filter((key): key is string => key !== null);
}

/**
 * Where the Cache API keeps when pages were last purged (`PURGED_AT`). It cannot list its keys, so
 * the copies of a page under a query (`/experts?page=2`, `?sort=`, a search) cannot be deleted one by
 * one: one stored before the last purge is not served (`purgedSince`).
 */
const PURGED_AT = "X-Edge-Purged-At";
/** Longer than any copy is kept (s-maxage plus stale-while-revalidate, six minutes). */
const PURGE_MARKER_SECONDS = 3600;
const purgeMarkerKey = (origin: string) => new URL("/__edge-cache/purged", origin).toString();

/** A key with a query of the page's own (not only the build's version and Remix's `_routes`). */
function hasPageQuery(key: string): boolean {
  for (const name of new URL(key).searchParams.keys()) if (PAGE_PARAMS.has(name)) return true;
  return false;
}

/** Whether a purge came after a copy stored at `storedAt` (a copy under a query only: see PURGED_AT). */
async function purgedSince(cache: Cache, key: string, storedAt: number): Promise<boolean> {
  if (!hasPageQuery(key)) return false;
  const marker = await cache.match(purgeMarkerKey(new URL(key).origin)).catch(() => undefined);
  if (!marker) return false;
  await marker.body?.cancel();
  return storedAt <= Number(marker.headers.get(PURGED_AT));
}

/**
 * Forgets the stored copies of some public pages after a change they show (an expert's profile,
 * price or badge), so the next visitor gets them rendered anew rather than up to a minute (and a
 * stale-while-revalidate) late. This isolate forgets every copy of those paths, queries included;
 * the Cache API (of this data centre: it has no global purge) forgets the copies without a query,
 * and stops serving every copy under a query stored before now (lists, searches and pages of
 * results may show any expert).
 */
export async function purgeEdgePages(
  {
    cache,
    buildVersion,
    hot,
    now = Date.now,
  }: Pick<EdgeCacheOptions, "cache" | "buildVersion" | "hot" | "now">,
  origin: string,
  paths: ReadonlyArray<string>,
): Promise<void> {
  const pages = paths.filter((path) => publicPageRouteId(path) !== null);
  hot?.deletePaths(new Set(pages.flatMap((path) => [path, dataPathOf(path)])));
  const keys = pages.flatMap((path) => edgeCacheKeysOfPage(origin, path, buildVersion));
  const marker = new Response(null, {
    headers: { "Cache-Control": `public, s-maxage=${PURGE_MARKER_SECONDS}`, [PURGED_AT]: String(now()) },
  });
  await Promise.all([
    ...keys.map((key) => cache.delete(key).catch(() => false)),
    cache.put(purgeMarkerKey(origin), marker).catch(() => undefined),
  ]);
}

export type EdgeCacheOptions = {
  cache: Cache;
  /** The Remix build's version (build.assets.version), part of every key. */
  buildVersion?: string;
  waitUntil: (promise: Promise<unknown>) => void;
  now?: () => number;
  /** The isolate's copies in memory, consulted before the Cache API (the Worker keeps one). */
  hot?: HotCopies;
  /** The nonce the page was rendered with: only its scripts are hashed into a stored copy's policy. */
  scriptNonce: () => string;
};

/**
 * Serves `request` from the edge cache when it may, else renders it with `render` and stores the
 * result when the response allows it. The response carries X-Edge-Cache: HIT, STALE, MISS or BYPASS.
 */
export async function serveWithEdgeCache(
  request: Request,
  render: () => Promise<Response>,
  { cache, waitUntil, now = Date.now, buildVersion, hot, scriptNonce }: EdgeCacheOptions,
): Promise<Response> {
  const key = edgeCacheKey(request, buildVersion);
  if (key === null) return withStatus(await render(), "BYPASS");

  const renderAndStore = async () => {
    const response = await render();
    const freshness = storableFreshness(response);
    if (!freshness) return response;
    const stored = response.clone();
    waitUntil(
      store(cache, key, stored, freshness, now(), hot, scriptNonce()).catch((error) => {
        console.error(
          JSON.stringify({ level: "error", message: "edge cache put failed", error: String(error) }),
        );
      }),
    );
    return response;
  };

  let copy = hot?.get(key);
  let cached: Response | undefined;
  const fromMemory = copy !== undefined;
  if (copy) cached = hotResponse(copy);
  else ({ cached, copy } = await matchStored(cache, key, hot));
  if (cached) {
    const original = cached.headers.get(ORIGINAL_CACHE_CONTROL) ?? "";
    const storedAt = Number(cached.headers.get(STORED_AT));
    const freshness = sharedFreshness(original);
    // This isolate's copies in memory were forgotten by the purge itself.
    const purged = !fromMemory && (await purgedSince(cache, key, storedAt));
    const state = freshness && !purged ? freshnessAt(storedAt, freshness, now()) : "expired";
    if (state !== "expired") {
      const served = servedCopy(request, cached);
      served.headers.set("Cache-Control", original);
      served.headers.set("Age", String(Math.max(0, Math.floor((now() - storedAt) / 1000))));
      served.headers.delete(ORIGINAL_CACHE_CONTROL);
      served.headers.delete(STORED_AT);
      served.headers.delete("CF-Cache-Status");
      // One refresh at a time per copy in memory: the isolate's other visitors keep the stale copy.
      if (state === "stale" && !copy?.refreshing) {
        const refreshing = copy;
        if (refreshing) refreshing.refreshing = true;
        waitUntil(
          renderAndStore()
            .then(async (response) => {
              await response.body?.cancel();
              // Gone meanwhile (a deleted expert): a not-found page is never stored, so the stale
              // copy would otherwise be served until it expires.
              if (response.status === 404 || response.status === 410) {
                hot?.delete(key);
                await cache.delete(key);
              }
            })
            .finally(() => {
              if (refreshing) refreshing.refreshing = false;
            }),
        );
      }
      const label = state === "fresh" ? "HIT" : "STALE";
      if (alreadyHas(request, served.headers.get("ETag"))) {
        await served.body?.cancel();
        const headers = new Headers(served.headers);
        headers.delete("Content-Encoding");
        headers.delete("Content-Length");
        return withStatus(new Response(null, { status: 304, headers }), label);
      }
      return withStatus(served, label);
    }
    hot?.delete(key);
    await cached.body?.cancel();
  }
  return withStatus(await renderAndStore(), "MISS");
}
