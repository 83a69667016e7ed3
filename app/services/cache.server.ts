/**
 * Workers KV as a cache of the public read models (DESIGN.md: featured experts, categories,
 * profile data), invalidated explicitly whenever a write changes what they show, and the
 * Cache-Control values every response picks from.
 *
 * KV is eventually consistent across locations (a delete can take up to a minute to reach every
 * edge), so nothing that decides money or access is ever read from here.
 */

import type { AppLoadContext } from "@remix-run/cloudflare";
import { SESSION_COOKIE } from "~/auth/session.server";
import { CATEGORY_DISPLAY_ORDER } from "~/lib/categories";
import { readCookie } from "~/lib/cookies";

/** Anonymous public pages: the edge may keep them a minute and serve stale while it refreshes. */
export const PUBLIC_PAGE_CACHE_CONTROL = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";
/** Anything personal: signed-in pages, private media, API answers about the caller. */
export const PRIVATE_CACHE_CONTROL = "private, no-store";

/**
 * Cache-Control for a public page (home, browse, categories, profiles): shared caching for visitors
 * without a session cookie, never for anyone who has one (their header, favourites... are theirs).
 */
export function publicPageCacheControl(request: Request): string {
  return readCookie(request, SESSION_COOKIE) ? PRIVATE_CACHE_CONTROL : PUBLIC_PAGE_CACHE_CONTROL;
}

/** The headers a public page's loader returns; pass them on with `export const headers`. */
export function publicPageHeaders(request: Request): HeadersInit {
  // Vary: Cookie tells any shared cache downstream that a signed-in request is a different page.
  return { "Cache-Control": publicPageCacheControl(request), Vary: "Cookie" };
}

/**
 * An information page's headers (about, privacy, terms): the same page for every visitor until the
 * next deploy, so it has no loader to decide; workers/app.ts makes any answer to a session private.
 */
export const informationPageHeaders = (): HeadersInit => ({
  "Cache-Control": PUBLIC_PAGE_CACHE_CONTROL,
  Vary: "Cookie",
});

/** Read models expire on their own too, so a missed invalidation heals within this time. */
const DEFAULT_TTL_SECONDS = 300;
const VERSION = "v1";

/** Every read-model key lives here, so writers know exactly what to invalidate. */
export const cacheKeys = {
  categories: () => `${VERSION}:categories`,
  featuredExperts: () => `${VERSION}:featured-experts`,
  expertProfile: (expertId: number) => `${VERSION}:expert:${expertId}`,
  expertIdByCustomUrl: (customUrl: string) => `${VERSION}:expert-url:${customUrl.toLowerCase()}`,
};

/**
 * Returns the cached value of `key`, or loads, stores (in the background) and returns it. A KV
 * failure never fails the page: it falls back to `load`.
 */
export async function readThrough<T>(
  kv: KVNamespace,
  key: string,
  load: () => Promise<T>,
  {
    ttlSeconds = DEFAULT_TTL_SECONDS,
    waitUntil,
    shouldCache = () => true,
  }: {
    ttlSeconds?: number;
    waitUntil: (p: Promise<unknown>) => void;
    /** Return false to skip storing a value (e.g. "not found", which a later write could change). */
    shouldCache?: (value: T) => boolean;
  },
): Promise<T> {
  const cached = await kv.get<{ value: T }>(key, "json").catch(() => null);
  if (cached) return cached.value;
  const value = await load();
  if (shouldCache(value)) cacheValue(kv, key, value, { ttlSeconds, waitUntil });
  return value;
}

/** Stores a read model in the background (the shape readThrough reads); a failure is only logged. */
export function cacheValue<T>(
  kv: KVNamespace,
  key: string,
  value: T,
  {
    ttlSeconds = DEFAULT_TTL_SECONDS,
    waitUntil,
  }: { ttlSeconds?: number; waitUntil: (p: Promise<unknown>) => void },
) {
  waitUntil(
    kv.put(key, JSON.stringify({ value }), { expirationTtl: Math.max(60, ttlSeconds) }).catch((error) => {
      console.error(JSON.stringify({ level: "error", message: "kv put failed", key, error: String(error) }));
    }),
  );
}

export async function invalidate(kv: KVNamespace, keys: readonly string[]) {
  await Promise.all(keys.map((key) => kv.delete(key)));
}

/**
 * After anything an expert's public pages show changes (profile, prices, verification, featuring,
 * reviews, answered questions): their profile, their custom-URL lookups and the featured list in KV,
 * and the pages that show them in the edge cache (their profile under every address, home, browse and
 * the category pages).
 */
export function invalidateExpert(
  context: { cache: KVNamespace; purgePublicPages?: AppLoadContext["purgePublicPages"] },
  expert: { id: number; customUrls?: ReadonlyArray<string | null | undefined> },
) {
  return invalidateExperts(context, [expert]);
}

/** invalidateExpert for several experts at once: the pages they share are purged once. */
export async function invalidateExperts(
  context: { cache: KVNamespace; purgePublicPages?: AppLoadContext["purgePublicPages"] },
  experts: ReadonlyArray<{ id: number; customUrls?: ReadonlyArray<string | null | undefined> }>,
) {
  if (experts.length === 0) return;
  const urlsOf = (expert: (typeof experts)[number]) =>
    (expert.customUrls ?? []).filter((url): url is string => Boolean(url));
  await invalidate(context.cache, [
    cacheKeys.featuredExperts(),
    ...experts.flatMap((expert) => [
      cacheKeys.expertProfile(expert.id),
      ...urlsOf(expert).map((url) => cacheKeys.expertIdByCustomUrl(url)),
    ]),
  ]);
  await context.purgePublicPages?.([
    ...experts.flatMap((expert) => [
      `/expert/${expert.id}`,
      `/experts/${expert.id}`,
      ...urlsOf(expert).flatMap((url) => [`/${url}`, `/expert/${url}`]),
    ]),
    "/",
    "/experts",
    "/browse",
    // Every category page: an expert's categories may have just changed, and the old ones list them too.
    ...["all", ...CATEGORY_DISPLAY_ORDER.map((category) => category.slug)].map((slug) => `/category/${slug}`),
  ]);
}

export function invalidateCategories(kv: KVNamespace) {
  return invalidate(kv, [cacheKeys.categories()]);
}
