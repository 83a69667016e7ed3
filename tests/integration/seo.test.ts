import { createExecutionContext, env } from "cloudflare:test";
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { beforeAll, describe, expect, it } from "vitest";
import type { Expert } from "~/db/schema.server";
import { loader as robotsLoader } from "~/routes/robots[.]txt";
import { loader as sitemapLoader } from "~/routes/sitemap[.]xml";
import { loadShell } from "~/services/shell.server";
import { createLoadContext } from "../../workers/load-context";
import { BASE, postForm } from "./support/accounts";
import { addExpert, anonymous, categoriesBySlug } from "./support/discovery";

let ada: Expert;
let plain: Expert;

beforeAll(async () => {
  const categories = await categoriesBySlug();
  ({ expert: ada } = await addExpert(categories, {
    first: "Ada",
    last: "Quill",
    title: "Analytical Engine Consultant",
    categories: ["tech-and-ai"],
    questionRate: 2500,
    customUrl: "ada-quill",
  }));
  ({ expert: plain } = await addExpert(categories, {
    first: "Pat",
    last: "Plain",
    title: "Generalist",
    categories: ["sales"],
    questionRate: 500,
  }));
});

const titleOf = (html: string) => html.match(/<title>([^<]*)<\/title>/)?.[1];
const descriptionOf = (html: string) => html.match(/<meta name="description" content="([^"]*)"/)?.[1];

describe("search engines and sharing", () => {
  it("gives every discovery page its own title and description", async () => {
    const paths = [
      "/",
      "/experts",
      "/subscribe",
      "/category/tech-and-ai",
      "/category/sales",
      "/ada-quill",
      `/expert/${plain.id}`,
    ];
    const titles = new Set<string | undefined>();
    const descriptions = new Set<string | undefined>();
    for (const path of paths) {
      const html = await (await anonymous(path)).text();
      titles.add(titleOf(html));
      descriptions.add(descriptionOf(html));
    }
    expect(titles.size).toBe(paths.length);
    expect(descriptions.size).toBe(paths.length);
  });

  it("points /browse and /category/all at /experts, and categories at themselves", async () => {
    for (const [path, canonical] of [
      ["/browse", "/experts"],
      ["/category/all", "/experts"],
      ["/experts?sort=price_low", "/experts"],
      ["/category/tech-and-ai?sort=top_rated", "/category/tech-and-ai"],
    ]) {
      const html = await (await anonymous(path)).text();
      expect(html, path).toContain(`<link rel="canonical" href="${BASE}${canonical}"/>`);
    }
    const noindex = '<meta name="robots" content="noindex, follow"/>';
    expect(await (await anonymous("/experts?q=ada")).text()).toContain(noindex);
    // A page past the last is an empty list under any number: not a page to index.
    expect(await (await anonymous("/experts?page=999999")).text()).toContain(noindex);
    expect(await (await anonymous("/category/sales?page=50")).text()).toContain(noindex);
    expect(await (await anonymous("/experts")).text()).not.toContain(noindex);
    expect(await (await anonymous("/category/sales")).text()).not.toContain(noindex);
  });

  it("gives the company, legal, subscription and application pages their canonical address", async () => {
    for (const path of [
      "/about",
      "/contact",
      "/privacy-policy",
      "/terms-of-service",
      "/subscribe",
      "/become-expert",
    ]) {
      const html = await (await anonymous(`${path}?utm_source=newsletter`)).text();
      expect(html, path).toContain(`<link rel="canonical" href="${BASE}${path}"/>`);
      expect(html, path).toContain(`<meta property="og:url" content="${BASE}${path}"/>`);
      expect(html, path).not.toContain('name="robots"');
    }
  });

  it("sends other spellings of a page's address to its one address (301), query kept", async () => {
    for (const [path, canonical] of [
      ["/About", "/about"],
      ["/ABOUT/", "/about"],
      ["/about/", "/about"],
      ["/Terms-Of-Service?x=1", "/terms-of-service?x=1"],
      ["/Experts/?page=2", "/experts?page=2"],
      ["/category/sales/", "/category/sales"],
      [`/expert/${plain.id}/`, `/expert/${plain.id}`],
      ["/Ada-Quill/", "/Ada-Quill"],
    ]) {
      const response = await anonymous(path);
      expect(response.status, path).toBe(301);
      expect(response.headers.get("Location"), path).toBe(canonical);
    }
    // A custom URL's letters are its route's to settle, a page that does not exist stays a 404, and
    // neither the API nor a form's post is redirected.
    expect((await anonymous("/Ada-Quill")).headers.get("Location")).toBe("/ada-quill");
    expect((await anonymous("/no/such/page/")).status).toBe(404);
    expect((await anonymous("/api/experts/")).status).not.toBe(301);
    expect((await anonymous("/about")).status).toBe(200);
    // A form's post is answered where it was sent: here, /Contact's refusal of an empty form.
    const post = await postForm("/Contact", { name: "" });
    expect(post.status).toBe(400);
  });

  it("keeps one visitor's confirmation pages out of search results", async () => {
    for (const path of ["/thank-you?question=1", "/confirmation", "/success", "/cancel"]) {
      const html = await (await anonymous(path)).text();
      expect(html, path).toContain('<meta name="robots" content="noindex, follow"/>');
    }
  });

  it("lists the home, browse, subscription, category and expert pages in /sitemap.xml", async () => {
    const response = await anonymous("/sitemap.xml");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("application/xml");
    const xml = await response.text();
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    for (const path of [
      "/",
      "/experts",
      "/subscribe",
      "/become-expert",
      "/about",
      "/contact",
      "/privacy-policy",
      "/terms-of-service",
      "/category/tech-and-ai",
      "/category/legal",
      "/ada-quill",
      `/expert/${plain.id}`,
    ]) {
      expect(xml, path).toContain(`<loc>${BASE}${path}</loc>`);
    }
    expect(xml).not.toContain(`/expert/${ada.id}<`);
  });

  it("names APP_URL's origin in the sitemap, robots.txt and canonical links, whatever host was asked", async () => {
    const site = { ...env, APP_URL: "https://expertanswers.example" };
    const call = async <T>(loader: (args: LoaderFunctionArgs) => T, path: string) => {
      const request = new Request(`https://copy.workers.dev${path}`);
      const { context } = createLoadContext(request, site, createExecutionContext());
      return loader({ request, context, params: {} });
    };
    const sitemap = await (await call(sitemapLoader, "/sitemap.xml")).text();
    expect(sitemap).toContain("<loc>https://expertanswers.example/experts</loc>");
    expect(sitemap).not.toContain("workers.dev");
    const robots = await (await call(robotsLoader, "/robots.txt")).text();
    expect(robots).toContain("Sitemap: https://expertanswers.example/sitemap.xml");
    const shell = await call(loadShell, "/about");
    expect(shell.data.origin).toBe("https://expertanswers.example");
  });

  it("serves /robots.txt pointing at the sitemap and keeping crawlers out of private areas", async () => {
    const response = await anonymous("/robots.txt");
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain("User-agent: *");
    expect(text).toContain(`Sitemap: ${BASE}/sitemap.xml`);
    const rules = text
      .split("\n")
      .map((line) => line.match(/^(Allow|Disallow): (\S+)$/))
      .filter((match) => match !== null)
      .map(([, kind, pattern]) => ({ allow: kind === "Allow", pattern }));
    // As Google and RFC 9309 read them: the longest matching rule wins; "$" ends a pattern.
    const crawlable = (path: string) => {
      const matching = rules.filter(({ pattern }) =>
        pattern.endsWith("$") ? path === pattern.slice(0, -1) : path.startsWith(pattern),
      );
      const longest = matching.sort((a, b) => b.pattern.length - a.pattern.length)[0];
      return longest?.allow ?? true;
    };
    for (const path of [
      "/dashboard",
      "/dashboard/questions",
      "/admin",
      "/admin/experts",
      "/api/experts",
      "/expert/dashboard",
      "/book",
      "/book/3",
      "/ask?expert=3",
      "/auth",
    ]) {
      expect(crawlable(path), path).toBe(false);
    }
    // Public pages, and experts whose custom URLs merely start like a private area.
    for (const path of [
      "/",
      "/experts",
      "/expert/12",
      "/bookkeeping-bea",
      "/authentic-brand",
      "/asking-better",
      "/dashboards-by-dana",
      "/administration-pro",
    ]) {
      expect(crawlable(path), path).toBe(true);
    }
  });
});
