/**
 * The budgets `npm run bench` enforces (issue 11), as the issue states them. KB means KiB (1024 bytes),
 * as in Lighthouse's own budgets; the bench prints exact byte counts next to every figure.
 */
export const BUDGETS = {
  /** Anonymous home, browse and profile (edge-cached HTML): req/s at least this share of the static file's. */
  publicPageRatio: 0.6,
  /** The profile signed in (rendered every time): req/s at least this share of the static file's. */
  signedInProfileRatio: 0.35,
  /** Single-connection p50 of a public page at most this many ms above the static file's. */
  singleConnectionP50DeltaMs: 5,
  /** D1 round trips (a batch counts once) per public page render. */
  d1QueriesPerPublicPage: 2,
  /** First-visit JavaScript of a public page, gzip. */
  clientJsPerPublicPageBytes: 100 * 1024,
  /** Lighthouse mobile, median of the runs. */
  lcpMs: 1200,
  tbtMs: 50,
  cls: 0.02,
  /** The Worker as deployed (wrangler deploy --dry-run --minify). */
  workerBundleBytes: 1024 * 1024,
} as const;

export type BudgetCheck = { budget: string; limit: string; actual: string; pass: boolean };

export function check(budget: string, pass: boolean, limit: string, actual: string): BudgetCheck {
  return { budget, limit, actual, pass };
}

export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Budget checks as a table for the terminal. */
export function formatBudgets(checks: BudgetCheck[]): string {
  const header = ["budget", "limit", "actual", "result"];
  const lines = checks.map((entry) => [
    entry.budget,
    entry.limit,
    entry.actual,
    entry.pass ? "ok" : "MISSED",
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column].length)),
  );
  const render = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column])).join("  ");
  return [render(header), widths.map((width) => "-".repeat(width)).join("  "), ...lines.map(render)].join(
    "\n",
  );
}
