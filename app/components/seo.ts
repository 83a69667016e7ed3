import type { MetaDescriptor } from "@remix-run/cloudflare";

export const SITE_NAME = "Expert Answers";

export type SeoOptions = {
  /** Use the title as written (the home page's title is SPEC.md's). */
  exact?: boolean;
  /** Absolute URL of the one canonical address of this page. */
  canonical?: string;
  /** Absolute URL of the picture shared with the link (Open Graph and Twitter cards). */
  image?: string | null;
  /** Open Graph type: "website" unless the page is about one person ("profile"). */
  type?: "website" | "profile";
  /** Ask search engines not to index this page (search results, private pages). */
  noindex?: boolean;
  /** Structured data (schema.org) as JSON-LD; Remix escapes it for the <script> tag. */
  jsonLd?: Record<string, unknown>;
};

/**
 * A page's <title>, meta description and sharing tags; every route's `meta` should go through this.
 * Titles get " | Expert Answers" appended unless `exact`. With `canonical` the page also gets its
 * canonical link and og:url; with `image`, large Twitter cards.
 */
export function seo(
  title: string,
  description: string,
  { exact = false, canonical, image, type = "website", noindex = false, jsonLd }: SeoOptions = {},
): MetaDescriptor[] {
  const fullTitle = exact || title === SITE_NAME ? title : `${title} | ${SITE_NAME}`;
  const tags: MetaDescriptor[] = [
    { title: fullTitle },
    { name: "description", content: description },
    { property: "og:title", content: fullTitle },
    { property: "og:description", content: description },
    { property: "og:type", content: type },
    { property: "og:site_name", content: SITE_NAME },
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: fullTitle },
    { name: "twitter:description", content: description },
  ];
  if (canonical) {
    tags.push({ tagName: "link", rel: "canonical", href: canonical });
    tags.push({ property: "og:url", content: canonical });
  }
  if (image) {
    tags.push({ property: "og:image", content: image });
    tags.push({ name: "twitter:image", content: image });
  }
  if (noindex) tags.push({ name: "robots", content: "noindex, follow" });
  if (jsonLd) tags.push({ "script:ld+json": jsonLd });
  return tags;
}

/** A description cut to about 160 characters at a word boundary, for meta tags. */
export function summarize(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  // By code point, so an emoji (two UTF-16 units) is never cut in half.
  const cut = Array.from(flat)
    .slice(0, max - 1)
    .join("");
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, "")}…`;
}

/** An absolute URL on this site for a path or an already absolute URL. */
export function absoluteUrl(origin: string, pathOrUrl: string): string {
  return new URL(pathOrUrl, origin).toString();
}
