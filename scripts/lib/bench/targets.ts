/**
 * What the benchmark loads. Each target is one URL on the server under test; `baseline` is the
 * static file every page is compared with. Later work (budgets, more pages) adds targets here.
 */
export type BenchTarget = {
  name: string;
  path: string;
  /** The static file the pages are measured against. */
  baseline?: boolean;
};

/** The expert profile the benchmark loads: the demo seed's featured expert. */
export const PROFILE_PATH = "/demo-expert";

/**
 * Anonymous pages as visitors get them (from the edge cache once warm), and the same pages with a
 * parameter the edge cache does not know, so each request is rendered by Remix (KV read models
 * warm): the cost of a cache miss.
 */
export function defaultTargets({ rendered = true }: { rendered?: boolean } = {}): BenchTarget[] {
  const pages: BenchTarget[] = [
    { name: "home", path: "/" },
    { name: "browse", path: "/experts" },
    { name: "profile", path: PROFILE_PATH },
  ];
  const bypass = pages.map((page) => ({
    name: `${page.name} (rendered)`,
    path: `${page.path}${page.path.includes("?") ? "&" : "?"}bench=render`,
  }));
  return [
    { name: "static file", path: "/favicon.svg", baseline: true },
    ...pages,
    ...(rendered ? bypass : []),
  ];
}
