import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { siteOrigin } from "~/config.server";
import { expertProfilePath } from "~/lib/experts";
import { listSitemapEntries } from "~/models/discovery.server";

const escapeXml = (value: string) =>
  value.replace(
    /[<>&'"]/g,
    (char) => `&${{ "<": "lt", ">": "gt", "&": "amp", "'": "apos", '"': "quot" }[char]};`,
  );

/**
 * /sitemap.xml: the home page, the browse page, the subscription, the expert application, the
 * company and legal pages, every category and every expert's canonical profile.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const origin = siteOrigin(context.config, request);
  const { categories, experts } = await listSitemapEntries(context.db);
  const url = (path: string, lastmod?: number | null) =>
    `  <url><loc>${escapeXml(`${origin}${path}`)}</loc>${
      lastmod ? `<lastmod>${new Date(lastmod).toISOString().slice(0, 10)}</lastmod>` : ""
    }</url>`;
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    url("/"),
    url("/experts"),
    url("/subscribe"),
    url("/become-expert"),
    url("/about"),
    url("/contact"),
    url("/privacy-policy"),
    url("/terms-of-service"),
    ...categories.map((category) => url(`/category/${category.slug}`)),
    ...experts.map((expert) => url(expertProfilePath(expert), expert.updatedAt)),
    "</urlset>",
  ].join("\n");
  return new Response(body, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=3600, s-maxage=3600",
    },
  });
}
