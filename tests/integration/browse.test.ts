import { env } from "cloudflare:test";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { Category } from "~/db/schema.server";
import { browseStatements } from "~/models/discovery.server";
import { DEFAULT_BROWSE_QUERY } from "~/schemas/browse";
import { addExpert, anonymous, cardNames, categoriesBySlug, d1Queries } from "./support/discovery";

/**
 * Browse and category pages against a small marketplace: 4 named experts and 10 "Filler" lawyers
 * (14 in all, so the 12-per-page results have a second page). Storage lives for the whole file and
 * anonymous pages are edge-cached by URL, so no test here changes the experts except the last one.
 */
let categories: Map<string, Category>;
const FILLERS = Array.from({ length: 10 }, (_, index) => `Filler ${String(index + 1).padStart(2, "0")}`);

beforeAll(async () => {
  categories = await categoriesBySlug();
  await addExpert(categories, {
    first: "Ada",
    last: "Quill",
    title: "Analytical Engine Consultant",
    bio: "Explains mechanical computation to curious founders.",
    categories: ["tech-and-ai"],
    questionRate: 2500,
    isTopExpert: true,
    isVerified: true,
    ratings: [5, 4],
  });
  await addExpert(categories, {
    first: "Grace",
    last: "Compton",
    title: "Compiler Pioneer",
    bio: "Finds the bugs in any process, literally and figuratively.",
    expertise: "Tech and AI, Business Automation, Debugging",
    categories: ["tech-and-ai", "business-automation"],
    questionRate: 1500,
    isVerified: true,
  });
  await addExpert(categories, {
    first: "Mara",
    last: "Steele",
    title: "Automotive Executive",
    bio: "Ran a global manufacturer through a turnaround.",
    categories: ["scaling-and-hiring"],
    questionRate: 30000,
    ratings: [3],
  });
  await addExpert(categories, {
    first: "Sally",
    last: "Brandt",
    title: "Shapewear Founder",
    bio: "Turned five thousand dollars of savings into a global brand.",
    expertise: "E-commerce, Marketing and Branding, Sales, Starting a Business",
    categories: ["e-commerce"],
    questionRate: 12000,
    isTopExpert: true,
    ratings: [5, 5, 4],
  });
  for (const [index, name] of FILLERS.entries()) {
    const [first, last] = name.split(" ");
    await addExpert(categories, {
      first,
      last,
      title: "Contracts Lawyer",
      categories: ["legal"],
      questionRate: 500 + (index + 1) * 100,
    });
  }
});

async function page(path: string) {
  const response = await anonymous(path);
  expect(response.status, path).toBe(200);
  return { response, html: await response.text() };
}

async function names(path: string) {
  return cardNames((await page(path)).html);
}

const prices = (html: string) =>
  [...html.matchAll(/<p class="expert-card__price"><strong>\$([\d.]+)<\/strong>/g)].map((m) => Number(m[1]));

/** The HTML of one expert's card. */
function card(html: string, name: string) {
  const start = html.indexOf(`<h3 class="expert-card__name">${name}</h3>`);
  expect(start, `card of ${name}`).toBeGreaterThan(-1);
  const open = html.lastIndexOf("<article", start);
  return html.slice(open, html.indexOf("</article>", start));
}

describe("searching experts", () => {
  it("matches the name, title, bio, expertise and category name", async () => {
    expect(await names("/experts?q=quill")).toEqual(["Ada Quill"]);
    expect(await names("/experts?q=compiler")).toEqual(["Grace Compton"]);
    expect(await names("/experts?q=turnaround")).toEqual(["Mara Steele"]);
    expect(await names("/experts?q=debugging")).toEqual(["Grace Compton"]);
    expect(await names("/experts?q=hiring")).toEqual(["Mara Steele"]);
    expect(await names("/experts?q=legal&page=2")).toEqual([]);
    expect((await names("/experts?q=legal")).sort()).toEqual(FILLERS);
  });

  it("matches the beginnings of words, ignores case, and needs every word", async () => {
    expect(await names("/experts?q=COMPI")).toEqual(["Grace Compton"]);
    expect(await names("/experts?q=grace+compiler")).toEqual(["Grace Compton"]);
    expect(await names("/experts?q=grace+turnaround")).toEqual([]);
  });

  it("shows the search in the box and a chip that removes it", async () => {
    const { html } = await page("/experts?q=compiler&sort=price_high");
    expect(html).toMatch(/<input[^>]*type="search"[^>]*value="compiler"/);
    expect(html).toContain("Search: “compiler”");
    expect(html).toContain('href="/experts?sort=price_high"');
    expect(html).toContain("Clear All");
  });

  it("says No Experts Found when nothing matches", async () => {
    const { html } = await page("/experts?q=zeppelin");
    expect(cardNames(html)).toEqual([]);
    expect(html).toContain("No Experts Found");
  });
});

describe("sorting", () => {
  it("recommended: featured first, then verified, then the longest-standing", async () => {
    expect(await names("/experts")).toEqual([
      "Ada Quill",
      "Sally Brandt",
      "Grace Compton",
      "Mara Steele",
      ...FILLERS.slice(0, 8),
    ]);
  });

  it("price_low and price_high order by the price per question", async () => {
    const low = [
      ...prices((await page("/experts?sort=price_low")).html),
      ...prices((await page("/experts?sort=price_low&page=2")).html),
    ];
    expect(low).toHaveLength(14);
    expect(low).toEqual([...low].sort((a, b) => a - b));
    expect(low[0]).toBe(6);
    expect(low.at(-1)).toBe(300);

    const high = prices((await page("/experts?sort=price_high")).html);
    expect(high.slice(0, 3)).toEqual([300, 120, 25]);
    expect(high).toEqual([...high].sort((a, b) => b - a));
  });

  it("top_rated puts top experts first, then the best rated (reviews beat the default)", async () => {
    const first = await names("/experts?sort=top_rated");
    expect(first.slice(0, 3)).toEqual(["Sally Brandt", "Ada Quill", "Grace Compton"]);
    expect(await names("/experts?sort=top_rated&page=2")).toEqual(["Filler 10", "Mara Steele"]);
  });

  it("falls back to recommended for an unknown sort", async () => {
    expect(await names("/experts?sort=cheapest")).toEqual(await names("/experts"));
    expect((await page("/experts?sort=%3Cscript%3E")).html).toMatch(/<option value="recommended" selected/);
  });
});

describe("filters", () => {
  it("filters by category from the query or the path, `all` meaning every expert", async () => {
    expect(await names("/experts?category=tech-and-ai")).toEqual(["Ada Quill", "Grace Compton"]);
    // Grace's second category counts too.
    expect(await names("/category/business-automation")).toEqual(["Grace Compton"]);
    const all = await page("/category/all");
    expect(all.html).toContain("Showing 1–12 of 14 experts");
    expect(all.html).toContain("<h1>Browse Experts</h1>");
  });

  it("sends another spelling of a category's address to the one spelling, query kept", async () => {
    for (const [written, canonical] of [
      ["/category/Business-Automation", "/category/business-automation"],
      ["/category/ALL?sort=price_low", "/category/all?sort=price_low"],
    ]) {
      const response = await anonymous(written);
      expect(response.status, written).toBe(301);
      expect(response.headers.get("Location"), written).toBe(canonical);
      await response.body?.cancel();
    }
    expect((await anonymous("/category/NO-SUCH-THING")).headers.get("Location")).toBe(
      "/category/no-such-thing",
    );
    expect((await anonymous("/category/no-such-thing")).status).toBe(404);
  });

  it("filters by the price per question, in dollars, with the presets", async () => {
    expect(await names("/experts?maxPrice=10")).toEqual(FILLERS.slice(0, 5));
    expect(await names("/experts?minPrice=100&maxPrice=250")).toEqual(["Sally Brandt"]);
    expect(await names("/experts?minPrice=250&maxPrice=500")).toEqual(["Mara Steele"]);
    const preset = await page("/experts?minPrice=0&maxPrice=100");
    expect(preset.html).toContain("Showing 1–12 of 12 experts");
    expect(preset.html).toContain("Price: Up to $100");
    // Bounds given the wrong way round are swapped.
    expect(await names("/experts?minPrice=250&maxPrice=100")).toEqual(["Sally Brandt"]);
  });

  it("combines search, category, price and sort", async () => {
    expect(await names("/category/legal?q=filler&sort=price_high&maxPrice=12")).toEqual(
      FILLERS.slice(0, 7).reverse(),
    );
  });

  it("shows a chip per active filter and Clear All", async () => {
    const { html } = await page("/category/legal?q=filler&minPrice=100");
    expect(html).toContain("Category: Legal");
    expect(html).toContain("Price: $100+");
    expect(html).toMatch(/<a[^>]*href="\/experts"[^>]*>Clear All<\/a>/);
  });

  it("answers an unknown category with Category Not Found and status 404", async () => {
    const response = await anonymous("/category/underwater-basket-weaving");
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Category Not Found");
    expect(html).toMatch(/<a[^>]*href="\/"[^>]*>Return to Home<\/a>/);
    expect(html).toContain("<title>Category Not Found | Expert Answers</title>");
  });
});

describe("paging", () => {
  it("shows 12 experts a page with Next and Previous links that keep the query", async () => {
    const first = await page("/experts?sort=price_low");
    expect(cardNames(first.html)).toHaveLength(12);
    expect(first.html).toContain("Showing 1–12 of 14 experts");
    expect(first.html).toContain("Page 1 of 2");
    expect(first.html).toMatch(
      /href="\/experts\?sort=price_low&amp;page=2" rel="next"|rel="next"[^>]*href="\/experts\?sort=price_low&amp;page=2"/,
    );

    const second = await page("/experts?sort=price_low&page=2");
    expect(cardNames(second.html)).toEqual(["Ada Quill", "Sally Brandt", "Mara Steele"].slice(1));
    expect(second.html).toContain("Showing 13–14 of 14 experts");
    expect(second.html).toMatch(
      /href="\/experts\?sort=price_low"[^>]*rel="prev"|rel="prev"[^>]*href="\/experts\?sort=price_low"/,
    );
  });

  it("shows an empty page past the last one, and page 1 for a page that is not a number", async () => {
    const past = await page("/experts?page=3");
    expect(cardNames(past.html)).toEqual([]);
    expect(past.html).toContain("No Experts Found");
    expect(past.html).toContain("Go to the first page");
    expect(await names("/experts?page=abc")).toEqual(await names("/experts"));
    expect(await names("/experts?page=-2")).toEqual(await names("/experts"));
  });

  it("answers pages deeper than the 200 it serves empty, in the API too, never with page 1's experts", async () => {
    const deep = await page("/experts?page=9999");
    expect(cardNames(deep.html)).toEqual([]);
    expect(deep.html).toContain("No Experts Found");
    const lastServed = await anonymous("/api/experts?page=200");
    expect(await lastServed.json()).toEqual([]);
    for (const pageNumber of [201, 9999]) {
      const response = await anonymous(`/api/experts?page=${pageNumber}`);
      expect(response.status).toBe(200);
      expect(await response.json(), `page ${pageNumber}`).toEqual([]);
      expect(response.headers.get("X-Total-Count")).toBe("14");
    }
  });
});

describe("the expert card", () => {
  it("shows at most 3 expertise tags then +N more, the badges it has earned, and the price", async () => {
    const { html } = await page("/experts?q=brandt");
    const sally = card(html, "Sally Brandt");
    expect([...sally.matchAll(/<li class="tag">/g)]).toHaveLength(3);
    expect(sally).toContain("+1 more");
    expect(sally).toContain("Top Expert");
    expect(sally).not.toContain("Verified");
    expect(sally).toContain("<strong>$120.00</strong> <span>per question</span>");
    expect(sally).toContain('aria-label="Rated 4.7 out of 5 from 3 reviews"');
    expect(sally).toContain('href="/expert/');

    const ada = card((await page("/experts?q=quill")).html, "Ada Quill");
    expect(ada).toContain("Verified");
    expect(ada).toContain("Top Expert");
    expect(ada).toContain("Rated 4.5 out of 5 from 2 reviews");
    const grace = card((await page("/experts?q=compton")).html, "Grace Compton");
    expect(grace).toContain("Rated 5.0 out of 5, no reviews yet");
    expect(grace).not.toContain("Top Expert");
  });

  it("links to the custom URL when the expert has one", async () => {
    await env.DB.prepare(
      "UPDATE experts SET custom_url = 'ada-q' WHERE title = 'Analytical Engine Consultant'",
    ).run();
    const { html } = await page("/experts?q=analytical");
    expect(card(html, "Ada Quill")).toContain('href="/ada-q"');
  });
});

describe("bad input", () => {
  it("renders safely for a 1,000-character search, SQL, HTML and FTS syntax", async () => {
    const searches = [
      "a".repeat(1000),
      "'; DROP TABLE experts; --",
      '" OR 1=1 --',
      "<script>alert(1)</script>",
      "title:compiler",
      "NEAR(ada grace) OR *",
      "!!!",
      "%%%",
    ];
    for (const q of searches) {
      const response = await anonymous(`/experts?${new URLSearchParams({ q })}`);
      expect(response.status, q).toBe(200);
      const html = await response.text();
      expect(html, q).not.toContain("<script>alert(1)</script>");
    }
    const html = await (await anonymous(`/experts?${new URLSearchParams({ q: "<b>bold</b>" })}`)).text();
    expect(html).toContain("&lt;b&gt;bold&lt;/b&gt;");
    expect(html).not.toContain("<b>bold</b>");
    // The long search is cut to 100 characters, and the table is still there.
    const long = await (await anonymous(`/experts?q=${"a".repeat(1000)}`)).text();
    expect(long).toMatch(new RegExp(`value="${"a".repeat(100)}"`));
    expect((await env.DB.prepare("SELECT count(*) AS n FROM experts").first<{ n: number }>())?.n).toBe(14);
  });

  it("ignores prices outside 0 to 500 and values that are not numbers", async () => {
    const all = await names("/experts");
    for (const query of ["minPrice=600", "maxPrice=-5", "minPrice=abc", "maxPrice=1e9", "minPrice=12.5"]) {
      expect(await names(`/experts?${query}`), query).toEqual(all);
    }
  });

  it("ignores a category nobody has in the query", async () => {
    expect(await names("/experts?category=%3Cscript%3E")).toEqual(await names("/experts"));
  });
});

describe("cost", () => {
  it("makes at most 2 D1 round trips per page, however many cards", async () => {
    for (const path of [
      "/experts?sort=top_rated&q=filler",
      "/category/legal?sort=price_high",
      "/browse?page=2",
    ]) {
      const response = await anonymous(path);
      expect(response.status).toBe(200);
      expect(d1Queries(response), path).toBeLessThanOrEqual(2);
      expect(cardNames(await response.text()).length).toBeGreaterThan(1);
    }
  });

  it("reads the default page through experts_recommended_idx and filters through indexes, without a sort", async () => {
    const dialect = new SQLiteAsyncDialect();
    const plan = async (query: Parameters<typeof browseStatements>[0]) => {
      const statements = browseStatements(query);
      if (!statements) throw new Error("no statements");
      const { sql, params } = dialect.sqlToQuery(statements.page);
      const rows = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      return rows.results.map((row) => row.detail).join("\n");
    };
    const defaults = { ...DEFAULT_BROWSE_QUERY, categoryId: null };
    const first = await plan(defaults);
    expect(first).toContain("USING INDEX experts_recommended_idx");
    expect(first).not.toContain("TEMP B-TREE");
    expect(first).toContain("USING INDEX reviews_expert_idx");
    const legal = categories.get("legal")?.id ?? 0;
    const filtered = await plan({ ...defaults, categoryId: legal, sort: "price_low" });
    expect(filtered).toContain("expert_categories_category_idx");
    expect(await plan({ ...defaults, q: "ship" })).toContain("VIRTUAL TABLE INDEX");
  });

  it("finds search matches through the FTS index, kept in step with edits and deletions", async () => {
    await env.DB.prepare(
      "UPDATE experts SET title = 'Shipbuilding Advisor' WHERE title = 'Automotive Executive'",
    ).run();
    expect(await names("/experts?q=shipbuilding")).toEqual(["Mara Steele"]);
    await env.DB.prepare("UPDATE users SET name = 'Mara Steelworth' WHERE name = 'Mara Steele'").run();
    expect(await names("/experts?q=steelworth")).toEqual(["Mara Steelworth"]);
    await env.DB.prepare("UPDATE experts SET deleted_at = 1 WHERE title = 'Shipbuilding Advisor'").run();
    expect(await names("/experts?q=shipbuilding&sort=top_rated")).toEqual([]);
    const plan = await env.DB.prepare(
      "EXPLAIN QUERY PLAN SELECT rowid FROM experts_fts WHERE experts_fts MATCH '\"ship\"*'",
    ).all<{ detail: string }>();
    expect(plan.results.map((row) => row.detail).join(" ")).toMatch(/VIRTUAL TABLE INDEX/);
  });
});
