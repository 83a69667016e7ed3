/**
 * What the benchmark loads. Each target is one URL on the server under test; `baseline` is the
 * static file every page is compared with. A target `as` a role is requested with that demo
 * account's session cookie (never edge-cached).
 */
export type BenchTarget = {
  name: string;
  path: string;
  /** The static file the pages are measured against. */
  baseline?: boolean;
  /** Requested signed in as this demo account. */
  as?: "client";
  /** An anonymous public page: edge-cached, and held to the public-page budgets. */
  publicPage?: boolean;
};

/** The expert profile the benchmark loads: the demo seed's featured expert (expert 1). */
export const PROFILE_PATH = "/demo-expert";
/** The category page the benchmark loads. */
export const CATEGORY_PATH = "/category/sales";

/**
 * Anonymous pages as visitors get them (from the edge cache once warm), the profile and the ask page
 * signed in (rendered every time), and optionally the anonymous pages with a parameter the edge cache
 * does not know, so each request is rendered by Remix (KV read models warm): the cost of a miss.
 */
export function defaultTargets({ rendered = true }: { rendered?: boolean } = {}): BenchTarget[] {
  const pages: BenchTarget[] = [
    { name: "home", path: "/", publicPage: true },
    { name: "browse", path: "/experts", publicPage: true },
    { name: "category", path: CATEGORY_PATH, publicPage: true },
    { name: "profile", path: PROFILE_PATH, publicPage: true },
  ];
  const bypass = pages.map((page) => ({
    name: `${page.name} (rendered)`,
    path: `${page.path}${page.path.includes("?") ? "&" : "?"}bench=render`,
  }));
  return [
    { name: "static file", path: "/favicon.svg", baseline: true },
    ...pages,
    { name: "profile (signed in)", path: PROFILE_PATH, as: "client" },
    { name: "ask (signed in)", path: "/ask/1", as: "client" },
    ...(rendered ? bypass : []),
  ];
}
