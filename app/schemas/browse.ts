/**
 * The browse page's query: search, category, sort, price range and page, all in the URL so a
 * filtered page can be shared, reloaded and navigated back to. Parsing never fails: a value that is
 * out of range, unknown or malformed is dropped (SPEC.md "Bad input": the page still renders).
 */

export const SORTS = ["recommended", "price_low", "price_high", "top_rated"] as const;
export type Sort = (typeof SORTS)[number];

export const SORT_LABELS: Record<Sort, string> = {
  recommended: "Recommended",
  price_low: "Price: Low to High",
  price_high: "Price: High to Low",
  top_rated: "Top Rated",
};

/** SPEC.md section 9: the price filter runs from 0 to 500 dollars (the top means "and above"). */
export const PRICE_MIN = 0;
export const PRICE_MAX = 500;
export const PRICE_PRESETS = [
  { label: "$0 - $100", min: 0, max: 100 },
  { label: "$100 - $250", min: 100, max: 250 },
  { label: "$250+", min: 250, max: PRICE_MAX },
] as const;

export const BROWSE_PAGE_SIZE = 12;
/** Longer searches are cut here (a search is a few words, never a document). */
export const SEARCH_MAX_LENGTH = 100;
/** Deeper pages than this are served empty, as pages past the last are (keeps OFFSET scans bounded). */
export const MAX_PAGE = 200;

export type BrowseQuery = {
  q: string;
  /** A category slug, or null for every category. */
  category: string | null;
  sort: Sort;
  /** Whole dollars; null means no lower bound. */
  minPrice: number | null;
  /** Whole dollars; null means no upper bound. */
  maxPrice: number | null;
  page: number;
};

export const DEFAULT_BROWSE_QUERY: BrowseQuery = {
  q: "",
  category: null,
  sort: "recommended",
  minPrice: null,
  maxPrice: null,
  page: 1,
};

/**
 * A search as the page uses it: single spaces, trimmed, at most SEARCH_MAX_LENGTH characters, cut
 * by code point (half an emoji is written as U+FFFD by the server and kept by the browser).
 */
export function normalizeSearch(value: string): string {
  return [...value.replace(/\s+/g, " ").trim()].slice(0, SEARCH_MAX_LENGTH).join("").trim();
}

/**
 * Plain TypeScript rather than zod: the browse screen parses its URL in the browser too, and this
 * keeps zod (about 90 KB gzip) out of the public pages' JavaScript. Same rules as a zod schema with
 * `.catch()` on every field: numbers as `Number()` reads them, then integers in range.
 */
function integerIn(value: string | number | null, min: number, max: number): number | null {
  if (value === null) return null;
  const number = Number(value);
  return Number.isSafeInteger(number) && number >= min && number <= max ? number : null;
}

const CATEGORY_SLUG = /^[a-z0-9-]{1,100}$/;

/** Reads the browse query from a URL's search parameters; anything invalid falls back to its default. */
export function parseBrowseQuery(params: URLSearchParams): BrowseQuery {
  const raw = (name: string) => {
    const value = params.get(name);
    return value === null || value === "" ? null : value;
  };
  const category = raw("category")?.trim().toLowerCase() ?? null;
  const sort = raw("sort") ?? "recommended";
  const parsed = {
    q: normalizeSearch(params.get("q") ?? ""),
    category: category !== null && CATEGORY_SLUG.test(category) ? category : null,
    sort: (SORTS as readonly string[]).includes(sort) ? (sort as Sort) : "recommended",
    page: integerIn(raw("page") ?? 1, 1, Number.MAX_SAFE_INTEGER) ?? 1,
  };
  let minPrice = integerIn(raw("minPrice"), PRICE_MIN, PRICE_MAX);
  let maxPrice = integerIn(raw("maxPrice"), PRICE_MIN, PRICE_MAX);
  if (minPrice !== null && maxPrice !== null && minPrice > maxPrice) {
    [minPrice, maxPrice] = [maxPrice, minPrice];
  }
  // The ends of the range are no bound at all.
  if (minPrice === PRICE_MIN) minPrice = null;
  if (maxPrice === PRICE_MAX) maxPrice = null;
  return { ...parsed, category: parsed.category === "all" ? null : parsed.category, minPrice, maxPrice };
}

/** The search parameters of a browse query, leaving out defaults (and the category when it is in the path). */
export function browseSearchParams(
  query: Partial<BrowseQuery>,
  { includeCategory = true }: { includeCategory?: boolean } = {},
): URLSearchParams {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (includeCategory && query.category) params.set("category", query.category);
  if (query.sort && query.sort !== "recommended") params.set("sort", query.sort);
  if (query.minPrice !== null && query.minPrice !== undefined) params.set("minPrice", String(query.minPrice));
  if (query.maxPrice !== null && query.maxPrice !== undefined) params.set("maxPrice", String(query.maxPrice));
  if (query.page && query.page > 1) params.set("page", String(query.page));
  return params;
}

/** "$100 - $250", "$250+", "Up to $100": the price chip's text. */
export function priceRangeLabel(minPrice: number | null, maxPrice: number | null): string | null {
  if (minPrice === null && maxPrice === null) return null;
  if (maxPrice === null) return `$${minPrice}+`;
  if (minPrice === null) return `Up to $${maxPrice}`;
  return `$${minPrice} - $${maxPrice}`;
}
