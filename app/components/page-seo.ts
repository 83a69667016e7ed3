import type { MetaArgs, MetaDescriptor } from "@remix-run/cloudflare";
import { type SeoOptions, seo } from "./seo";

/**
 * seo() for a page with no data of its own (about, contact, the legal pages...): its canonical
 * address, and og:url, are its path on the site's origin, which the root route's data carries.
 */
export function pageSeo(
  { matches, location }: Pick<MetaArgs, "matches" | "location">,
  title: string,
  description: string,
  options: Omit<SeoOptions, "canonical"> = {},
): MetaDescriptor[] {
  const root = matches.find((match) => match.id === "root")?.data as { origin?: unknown } | undefined;
  const origin = typeof root?.origin === "string" ? root.origin : null;
  return seo(title, description, {
    ...options,
    canonical: origin ? `${origin}${location.pathname}` : undefined,
  });
}
