/**
 * The public pages' read models: D1 reads (app/models/discovery.server.ts) cached in KV under the
 * keys of cacheKeys, so a warm page costs no D1 query at all. Writers invalidate them with
 * invalidateExpert / invalidateCategories (cache.server.ts) when an expert, category or review changes;
 * the TTL heals anything an invalidation missed.
 *
 * What goes into KV is read from the primary database, never through the request's D1 session: an
 * anonymous visitor's session may read a replica that has not yet seen a write, and a copy of that
 * stored just after the writer's invalidation would be shown for the whole TTL.
 */
import { type AppLoadContext, data } from "@remix-run/cloudflare";
import type { ExpertProfileData } from "~/lib/experts";
import {
  type ExpertLookup,
  getExpertProfile,
  listCategories,
  listFeaturedExperts,
  searchExperts,
} from "~/models/discovery.server";
import { parseBrowseQuery } from "~/schemas/browse";
import { cacheKeys, cacheValue, readThrough } from "./cache.server";

type ReadContext = Pick<AppLoadContext, "db" | "primaryDb" | "cache" | "waitUntil">;

export function readCategories(context: ReadContext) {
  return readThrough(context.cache, cacheKeys.categories(), () => listCategories(context.primaryDb), {
    waitUntil: context.waitUntil,
  });
}

export function readFeaturedExperts(context: ReadContext) {
  return readThrough(
    context.cache,
    cacheKeys.featuredExperts(),
    () => listFeaturedExperts(context.primaryDb),
    {
      waitUntil: context.waitUntil,
    },
  );
}

/**
 * An expert's profile by id or custom URL. A custom URL resolves through its own small key (URL to
 * id), so both paths share one cached profile. "Not found" is never cached: the id or URL may be
 * taken a moment later.
 */
export async function readExpertProfile(
  context: ReadContext,
  lookup: ExpertLookup,
): Promise<ExpertProfileData | null> {
  if ("id" in lookup) {
    return readThrough(
      context.cache,
      cacheKeys.expertProfile(lookup.id),
      () => getExpertProfile(context.primaryDb, lookup),
      { waitUntil: context.waitUntil, shouldCache: (profile) => profile !== null },
    );
  }
  const urlKey = cacheKeys.expertIdByCustomUrl(lookup.customUrl);
  const cachedId = await context.cache.get<{ value: number }>(urlKey, "json").catch(() => null);
  if (cachedId) {
    const profile = await readExpertProfile(context, { id: cachedId.value });
    // The expert may have changed their URL since: only a profile that still has it answers here.
    if (profile?.customUrl?.toLowerCase() === lookup.customUrl.toLowerCase()) return profile;
    context.waitUntil(context.cache.delete(urlKey).catch(() => undefined));
  }

  const profile = await getExpertProfile(context.primaryDb, lookup);
  if (profile) {
    // Warm both keys: the next visit by URL or by id costs no D1 query.
    cacheValue(context.cache, urlKey, profile.id, { waitUntil: context.waitUntil });
    cacheValue(context.cache, cacheKeys.expertProfile(profile.id), profile, { waitUntil: context.waitUntil });
  }
  return profile;
}

/**
 * The browse and category pages' data: the categories (KV) and one page of matching experts (one D1
 * batch). `pathCategory` is the slug in /category/{slug} ("all" for every category), or null on
 * /experts and /browse where the category comes from the query. An unknown path category is a 404.
 */
export async function loadBrowsePage(
  context: ReadContext,
  url: URL,
  { basePath, pathCategory }: { basePath: string; pathCategory: string | null },
) {
  const categories = await readCategories(context);
  const query = parseBrowseQuery(url.searchParams);
  const slug = pathCategory === null ? query.category : pathCategory.toLowerCase();
  const category = slug && slug !== "all" ? (categories.find((c) => c.slug === slug) ?? null) : null;
  if (pathCategory !== null && pathCategory.toLowerCase() !== "all" && !category) {
    throw data({ error: "Category Not Found" }, { status: 404 });
  }
  // A query category nobody has is ignored: the page shows every category instead.
  const effective = { ...query, category: category?.slug ?? null };
  const result = await searchExperts(context.db, { ...effective, categoryId: category?.id ?? null });
  return {
    basePath,
    categoryInPath: pathCategory !== null,
    // The filter names each category; only the chosen one is described on the page.
    categories: categories.map(({ id, name, slug }) => ({ id, name, slug })),
    category,
    query: effective,
    result,
  };
}
