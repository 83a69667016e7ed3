import type { MetaDescriptor } from "@remix-run/cloudflare";

export const SITE_NAME = "Expert Answers";

/**
 * A page's <title> and meta description; every route's `meta` should go through this. Titles get
 * " | Expert Answers" appended unless `exact` (the home page's title is SPEC.md's, as written).
 */
export function seo(title: string, description: string, { exact = false } = {}): MetaDescriptor[] {
  const fullTitle = exact || title === SITE_NAME ? title : `${title} | ${SITE_NAME}`;
  return [
    { title: fullTitle },
    { name: "description", content: description },
    { property: "og:title", content: fullTitle },
    { property: "og:description", content: description },
  ];
}
