import { beforeAll, describe, expect, it } from "vitest";
import { CATEGORY_DISPLAY_ORDER } from "~/lib/categories";
import { addExpert, anonymous, cardNames, categoriesBySlug, d1Queries } from "./support/discovery";

beforeAll(async () => {
  const categories = await categoriesBySlug();
  await addExpert(categories, {
    first: "Top",
    last: "Verified",
    title: "Featured and verified",
    categories: ["sales"],
    questionRate: 1000,
    isTopExpert: true,
    isVerified: true,
  });
  await addExpert(categories, {
    first: "Top",
    last: "Unverified",
    title: "Featured only",
    categories: ["legal"],
    questionRate: 1000,
    isTopExpert: true,
  });
  await addExpert(categories, {
    first: "Not",
    last: "Featured",
    title: "Ordinary expert",
    categories: ["legal"],
    questionRate: 1000,
    isVerified: true,
  });
});

describe("the home page", () => {
  it("has SPEC.md's title, hero claims and sections in order", async () => {
    const response = await anonymous("/");
    expect(response.status).toBe(200);
    expect(d1Queries(response)).toBeLessThanOrEqual(2);
    const html = await response.text();
    expect(html).toContain("<title>On-Demand Expert Q&amp;A</title>");
    expect(html).toMatch(/<meta name="description" content="Get expert answers within 24 hours[^"]*"/);
    for (const claim of [
      "500+",
      "professionals",
      "20+",
      "online now",
      "answer time",
      "Most answers arrive within 12.",
    ]) {
      expect(html).toContain(claim);
    }
    const order = [
      'id="hero-title"',
      'id="categories"',
      'id="featured-title"',
      'id="how-it-works"',
      'id="testimonials-title"',
      'id="faq"',
    ].map((marker) => html.indexOf(marker));
    expect(order.every((position) => position > 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it("lists the categories in SPEC.md's display order, each linking to its page with its image", async () => {
    const html = await (await anonymous("/")).text();
    const track = html.slice(
      html.indexOf('id="category-track"'),
      html.indexOf("</ul>", html.indexOf('id="category-track"')),
    );
    const slugs = [...track.matchAll(/href="\/category\/([a-z-]+)"/g)].map((match) => match[1]);
    expect(slugs).toEqual(CATEGORY_DISPLAY_ORDER.map((category) => category.slug));
    expect(track).toContain('src="/images/categories/starting-a-business.webp"');
    expect(html).toContain('aria-label="Scroll categories left"');
    expect(html).toContain('aria-label="Scroll categories right"');
  });

  it("features only the featured experts, verified mark only for the verified one", async () => {
    const html = await (await anonymous("/")).text();
    expect(cardNames(html)).toEqual(["Top Verified", "Top Unverified"]);
    expect(html).toContain("Browse All Experts");
    const unverified = html.slice(
      html.indexOf(">Top Unverified<"),
      html.indexOf("</article>", html.indexOf(">Top Unverified<")),
    );
    expect(unverified).not.toContain("Verified</span>");
    expect(unverified).toContain("View Profile");
  });

  it("has testimonials and the FAQ with SPEC.md's copy", async () => {
    const html = await (await anonymous("/")).text();
    expect(html).toContain("What Our Clients Say");
    expect([...html.matchAll(/class="card testimonial"/g)]).toHaveLength(3);
    for (const question of ["Can I ask a follow-up question?", "How does the subscription work?"]) {
      expect(html).toContain(question);
    }
    // The collapsed answers are also given to search engines as FAQPage structured data.
    expect(html).toContain('"@type":"FAQPage"');
    expect(html).toContain("counts as a new question");
    expect(html).toContain("one new question per day");
    expect(html).toContain("medical, legal or financial advice");
    expect(html).toContain("not provided");
  });
});
