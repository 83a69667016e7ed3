import { Form, Link, useLocation, useNavigate, useNavigation } from "@remix-run/react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { ExpertGrid } from "~/components/expert-card";
import { seo } from "~/components/seo";
import { buttonClass } from "~/components/ui/button";
import type { CategoryData, ExpertCardData } from "~/lib/experts";
import {
  BROWSE_PAGE_SIZE,
  type BrowseQuery,
  browseSearchParams,
  normalizeSearch,
  PRICE_MAX,
  PRICE_MIN,
  PRICE_PRESETS,
  parseBrowseQuery,
  priceRangeLabel,
  SORT_LABELS,
  SORTS,
} from "~/schemas/browse";

/** SPEC.md: six placeholders while a new page of experts loads. */
export const LOADING_PLACEHOLDERS = 6;
/** Typing in the search box updates the results after this pause. */
const SEARCH_DEBOUNCE_MS = 400;

export type BrowseViewData = {
  /** /experts, /browse or /category/{slug}. */
  basePath: string;
  /** The category is part of the path (/category/{slug}), not a query parameter. */
  categoryInPath: boolean;
  /** The category filter's options. */
  categories: Pick<CategoryData, "id" | "name" | "slug">[];
  category: CategoryData | null;
  query: BrowseQuery;
  result: { experts: ExpertCardData[]; total: number; page: number; pageCount: number };
};

const isBrowsePath = (pathname: string) =>
  pathname === "/experts" || pathname === "/browse" || pathname.startsWith("/category/");

/** Where a browse query lives: /category/{slug} on category pages, else ?category= on /experts. */
function hrefFor(view: Pick<BrowseViewData, "basePath" | "categoryInPath">, query: Partial<BrowseQuery>) {
  const pathCategory = view.categoryInPath && query.category;
  const path = pathCategory
    ? `/category/${query.category}`
    : view.categoryInPath
      ? "/experts"
      : view.basePath;
  const params = browseSearchParams(query, { includeCategory: !pathCategory });
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

type Chip = { key: string; label: string; href: string };

/**
 * The browse screen (SPEC.md "Expert browse"): search, category, sort, the Filters menu with the price
 * range, active filter chips with Clear All, the results with loading placeholders, and paging.
 * Everything lives in the URL; without JavaScript the controls still work as a plain GET form.
 */
export function ExpertBrowse({ view }: { view: BrowseViewData }) {
  const { query, result, categories, category } = view;
  const navigate = useNavigate();
  const navigation = useNavigation();
  const location = useLocation();
  const formRef = useRef<HTMLFormElement>(null);
  const filtersRef = useRef<HTMLDetailsElement>(null);
  const ids = useId();
  const [search, setSearch] = useState(query.q);
  // A changed select shows its new option while the results load (then the URL's, which match).
  const [picked, setPicked] = useState<BrowseQuery>();

  const loading =
    navigation.state === "loading" &&
    isBrowsePath(navigation.location.pathname) &&
    `${navigation.location.pathname}${navigation.location.search}` !==
      `${location.pathname}${location.search}`;

  // The search the box last sent to the URL. When the URL's search changes to anything else (Back,
  // a chip, Clear All) the box follows it; when it is the box's own search landing, what the person
  // has typed since stays untouched.
  const sentSearch = useRef(query.q);
  useEffect(() => {
    if (query.q !== sentSearch.current) {
      sentSearch.current = query.q;
      setSearch(query.q);
    }
  }, [query.q]);

  // Close the Filters menu after any navigation (a preset, Apply, a chip). Focus on what it hid (the
  // preset, Apply) goes to its toggle; focus that left with the old results (a chip, Clear All, the
  // last page's Next) goes to the page's heading: either way not to the page's top.
  const shownKey = useRef(location.key);
  useEffect(() => {
    const menu = filtersRef.current;
    if (menu?.open) {
      menu.open = false;
      if (menu.contains(document.activeElement)) menu.querySelector("summary")?.focus();
    }
    if (shownKey.current === location.key) return;
    shownKey.current = location.key;
    setPicked(undefined);
    requestAnimationFrame(() => {
      const heading = document.querySelector("h1");
      if (!heading || document.activeElement !== document.body) return;
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    });
  }, [location.key]);

  const go = (next: Partial<BrowseQuery>, options?: { replace?: boolean; state?: string }) => {
    const target = { ...query, page: 1, ...next };
    sentSearch.current = target.q;
    navigate(hrefFor(view, target), { preventScrollReset: true, ...options });
  };

  // Arrowing through a closed select changes it once a key: a run of changes to one select is one
  // history entry, which Back leaves at once.
  const pick = (select: string) => {
    const next = formQuery();
    setPicked(next);
    go(next, { replace: location.state === select, state: select });
  };

  const formQuery = () => {
    const form = formRef.current;
    if (!form) return query;
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (typeof value === "string") params.set(name, value);
    return parseBrowseQuery(params);
  };

  // Typing searches after a pause. Starting a search adds a history entry (Back returns to the
  // unsearched page); refining it replaces that entry instead of adding one per pause.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the typed text should trigger this
  useEffect(() => {
    const next = normalizeSearch(search);
    if (next === query.q) return;
    const replace = query.q !== "";
    const timer = setTimeout(() => go({ ...formQuery(), q: next }, { replace }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  // What was typed or chosen before the script ran (hydration would write the state back over it):
  // a changed select goes there at once; typed text searches, as typing does.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on hydration
  useEffect(() => {
    const typed = formQuery();
    if (typed.category !== (category?.slug ?? null) || typed.sort !== query.sort) go(typed);
    else setSearch((formRef.current?.elements.namedItem("q") as HTMLInputElement | null)?.value ?? search);
  }, []);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    go(formQuery());
  };

  const chips: Chip[] = [];
  if (query.q)
    chips.push({
      key: "q",
      label: `Search: “${query.q}”`,
      href: hrefFor(view, { ...query, q: "", page: 1 }),
    });
  if (category) {
    chips.push({
      key: "category",
      label: `Category: ${category.name}`,
      href: hrefFor({ basePath: "/experts", categoryInPath: false }, { ...query, category: null, page: 1 }),
    });
  }
  const price = priceRangeLabel(query.minPrice, query.maxPrice);
  if (price) {
    chips.push({
      key: "price",
      label: `Price: ${price}`,
      href: hrefFor(view, { ...query, minPrice: null, maxPrice: null, page: 1 }),
    });
  }
  const clearAllHref = hrefFor(
    { basePath: view.categoryInPath ? "/experts" : view.basePath, categoryInPath: false },
    { sort: query.sort },
  );

  const first = (result.page - 1) * BROWSE_PAGE_SIZE + 1;
  const last = first + result.experts.length - 1;

  return (
    <div className="browse stack-lg">
      <Form
        ref={formRef}
        method="get"
        action="/experts"
        className="browse-controls card"
        role="search"
        aria-label="Find experts"
        onSubmit={onSubmit}
      >
        <div className="browse-controls__search field">
          <label className="label" htmlFor={`${ids}-q`}>
            Search experts
          </label>
          <input
            id={`${ids}-q`}
            className="input"
            type="search"
            name="q"
            value={search}
            maxLength={1000}
            placeholder="Name, title, expertise or category"
            autoComplete="off"
            onChange={(event) => setSearch(event.currentTarget.value)}
          />
        </div>
        <div className="field">
          <label className="label" htmlFor={`${ids}-category`}>
            Category
          </label>
          <select
            id={`${ids}-category`}
            className="select"
            name="category"
            value={(picked ? picked.category : category?.slug) ?? ""}
            onChange={() => pick("category")}
          >
            <option value="">All Categories</option>
            {categories.map((option) => (
              <option key={option.slug} value={option.slug}>
                {option.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="label" htmlFor={`${ids}-sort`}>
            Sort by
          </label>
          <select
            id={`${ids}-sort`}
            className="select"
            name="sort"
            value={(picked ?? query).sort}
            onChange={() => pick("sort")}
          >
            {SORTS.map((sort) => (
              <option key={sort} value={sort}>
                {SORT_LABELS[sort]}
              </option>
            ))}
          </select>
        </div>
        <details
          ref={filtersRef}
          className="filters-menu"
          onKeyDown={(event) => {
            // Escape closes the open menu, as it does the site's other menus, and focus stays on it.
            const menu = filtersRef.current;
            if (event.key !== "Escape" || !menu?.open) return;
            menu.open = false;
            menu.querySelector("summary")?.focus();
          }}
        >
          <summary className={buttonClass({ variant: "secondary" })}>
            <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
              <path d="M3 5h14M6 10h8M9 15h2" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
            Filters
            {price ? <span className="filters-menu__count">1</span> : null}
          </summary>
          <div className="filters-menu__panel card">
            <fieldset className="filters-menu__fieldset">
              <legend className="label">Price per question (USD)</legend>
              <div className="filters-menu__range">
                <div className="field">
                  <label className="hint" htmlFor={`${ids}-min`}>
                    Min ($)
                  </label>
                  <input
                    id={`${ids}-min`}
                    className="input"
                    type="number"
                    name="minPrice"
                    inputMode="numeric"
                    min={PRICE_MIN}
                    max={PRICE_MAX}
                    step={1}
                    placeholder={String(PRICE_MIN)}
                    defaultValue={query.minPrice ?? ""}
                    key={`min-${query.minPrice}`}
                  />
                </div>
                <span aria-hidden="true" className="filters-menu__dash">
                  –
                </span>
                <div className="field">
                  <label className="hint" htmlFor={`${ids}-max`}>
                    Max ($)
                  </label>
                  <input
                    id={`${ids}-max`}
                    className="input"
                    type="number"
                    name="maxPrice"
                    inputMode="numeric"
                    min={PRICE_MIN}
                    max={PRICE_MAX}
                    step={1}
                    placeholder={`${PRICE_MAX}+`}
                    defaultValue={query.maxPrice ?? ""}
                    key={`max-${query.maxPrice}`}
                  />
                </div>
              </div>
              <p className="hint">
                From ${PRICE_MIN} to ${PRICE_MAX}; leave Max empty for no upper limit.
              </p>
            </fieldset>
            <ul className="filters-menu__presets plain-list" aria-label="Price presets">
              {PRICE_PRESETS.map((preset) => {
                const max = preset.max === PRICE_MAX ? null : preset.max;
                const min = preset.min === PRICE_MIN ? null : preset.min;
                const active = query.minPrice === min && query.maxPrice === max;
                return (
                  <li key={preset.label}>
                    <Link
                      to={hrefFor(view, { ...query, minPrice: min, maxPrice: max, page: 1 })}
                      className={buttonClass({ variant: active ? "primary" : "secondary", size: "sm" })}
                      aria-current={active ? "true" : undefined}
                      preventScrollReset
                    >
                      {preset.label}
                    </Link>
                  </li>
                );
              })}
            </ul>
            <div className="filters-menu__actions">
              <button type="submit" className={buttonClass({ size: "sm" })}>
                Apply
              </button>
            </div>
          </div>
        </details>
        <button
          type="submit"
          className={buttonClass({ variant: "ghost", className: "browse-controls__submit" })}
        >
          Search
        </button>
      </Form>

      {chips.length > 0 ? (
        <section className="active-filters" aria-label="Active filters">
          <ul className="active-filters__list plain-list">
            {chips.map((chip) => (
              <li key={chip.key}>
                <Link
                  to={chip.href}
                  className="chip"
                  preventScrollReset
                  aria-label={`Remove filter ${chip.label}`}
                >
                  <span>{chip.label}</span>
                  <span aria-hidden="true" className="chip__x">
                    ×
                  </span>
                </Link>
              </li>
            ))}
          </ul>
          <Link to={clearAllHref} className="active-filters__clear" preventScrollReset>
            Clear All
          </Link>
        </section>
      ) : null}

      <section aria-labelledby={`${ids}-results`} className="browse-results">
        <h2 id={`${ids}-results`} className="visually-hidden">
          Results
        </h2>
        <p className="browse-results__summary muted" role="status">
          {loading
            ? "Loading experts…"
            : result.total === 0
              ? "No experts match."
              : result.experts.length === 0
                ? `${result.total} ${result.total === 1 ? "expert" : "experts"} found`
                : `Showing ${first}–${last} of ${result.total} ${result.total === 1 ? "expert" : "experts"}`}
        </p>
        {loading ? (
          <ExpertGrid experts={[]} loading placeholders={LOADING_PLACEHOLDERS} label="Experts" />
        ) : result.experts.length > 0 ? (
          <ExpertGrid experts={result.experts} label="Experts" />
        ) : (
          <div className="empty-state card">
            <h3>No Experts Found</h3>
            <p className="muted">
              {result.total > 0
                ? "There are no experts on this page."
                : "Try another search or category, or widen the price range."}
            </p>
            <Link
              to={result.total > 0 ? hrefFor(view, { ...query, page: 1 }) : clearAllHref}
              className={buttonClass({ variant: "secondary" })}
            >
              {result.total > 0 ? "Go to the first page" : "Clear All"}
            </Link>
          </div>
        )}
        {!loading && result.pageCount > 1 ? (
          <nav className="pagination" aria-label="Pagination">
            {result.page > 1 ? (
              <Link
                to={hrefFor(view, { ...query, page: Math.min(result.page - 1, result.pageCount) })}
                className={buttonClass({ variant: "secondary", size: "sm" })}
                rel="prev"
              >
                Previous
              </Link>
            ) : (
              <span />
            )}
            <span className="pagination__status">
              {`Page ${Math.min(result.page, result.pageCount)} of ${result.pageCount}`}
            </span>
            {result.page < result.pageCount ? (
              <Link
                to={hrefFor(view, { ...query, page: result.page + 1 })}
                className={buttonClass({ variant: "secondary", size: "sm" })}
                rel="next"
              >
                Next
              </Link>
            ) : (
              <span />
            )}
          </nav>
        ) : null}
      </section>
    </div>
  );
}

/** The page heading and description of a browse or category page. */
export function browseHeading(category: CategoryData | null) {
  return category
    ? {
        title: `${category.name} Experts`,
        description:
          category.description ??
          `Browse verified ${category.name.toLowerCase()} experts, ask a question or book a session.`,
      }
    : {
        title: "Browse Experts",
        description:
          "Find the right expert for your question: search verified professionals by name, expertise or category, compare prices and ratings.",
      };
}

/**
 * Meta tags of a browse or category page: one canonical per category; searches, price filters and
 * pages past the last one (empty, whatever their number) not indexed.
 */
export function browseMeta(data: (BrowseViewData & { origin: string }) | undefined) {
  if (!data) return seo("Browse Experts", browseHeading(null).description);
  const { title, description } = browseHeading(data.category);
  const canonicalPath = data.category ? `/category/${data.category.slug}` : "/experts";
  const params = new URLSearchParams();
  if (data.query.page > 1) params.set("page", String(data.query.page));
  const pageSuffix = data.query.page > 1 ? ` (page ${data.query.page})` : "";
  return seo(`${title}${pageSuffix}`, description, {
    canonical: `${data.origin}${canonicalPath}${params.size ? `?${params}` : ""}`,
    noindex: Boolean(
      data.query.q ||
        data.query.minPrice !== null ||
        data.query.maxPrice !== null ||
        data.query.page > Math.max(1, data.result.pageCount),
    ),
  });
}

/** The whole page: marketplace heading, then the browse screen. */
export function BrowsePage({ view }: { view: BrowseViewData }) {
  const { title, description } = browseHeading(view.category);
  return (
    <div className="container">
      <header className="page-header browse-header">
        <span className="eyebrow">Expert Marketplace</span>
        <h1>{title}</h1>
        <p>{description}</p>
      </header>
      <ExpertBrowse view={view} />
    </div>
  );
}
