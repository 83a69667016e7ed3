import { redirect } from "@remix-run/cloudflare";

/** The `page` a list's URL asks for: 1 unless it is a whole number from 1 to 10,000. */
export function requestedPage(url: URL): number {
  const page = Number(url.searchParams.get("page"));
  return Number.isSafeInteger(page) && page >= 1 && page <= 10_000 ? page : 1;
}

/**
 * Throws a redirect to the list's last page when `page` is past it: its items were all handled (a
 * Verify or Mark handled on the last page) or the link is stale. The page would otherwise say the
 * list is empty, with no way back to the pages that are not.
 */
export function redirectPastLastPage(url: URL, { page, total, pageSize }: PageOfList): void {
  const last = Math.max(1, Math.ceil(total / pageSize));
  if (page <= last) return;
  const search = new URLSearchParams(url.search);
  if (last === 1) search.delete("page");
  else search.set("page", String(last));
  const query = search.toString();
  throw redirect(query ? `${url.pathname}?${query}` : url.pathname);
}

type PageOfList = { page: number; total: number; pageSize: number };
