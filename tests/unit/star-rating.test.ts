import { readdirSync, readFileSync } from "node:fs";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TopExpertBadge, VerifiedBadge } from "~/components/expert-card";
import { StarRating } from "~/components/star-rating";

const stylesDir = new URL("../../app/styles/", import.meta.url);
const discoveryCss = readFileSync(new URL("discovery.css", stylesDir), "utf8");

const render = (rating: number, reviewCount: number, countStyle?: "short" | "long") =>
  renderToStaticMarkup(createElement(StarRating, { rating, reviewCount, countStyle }));

/** The points of the clip-path polygon in `selector`'s own rule (not a rule it shares), in percent. */
function polygonOf(selector: string): { evenOdd: boolean; points: [number, number][] } {
  const rules = discoveryCss.split(`\n${selector} {`).slice(1);
  const body = rules
    .map((rule) => rule.slice(0, rule.indexOf("}")).match(/clip-path:\s*polygon\(([^)]*)\)/)?.[1])
    .find(Boolean);
  if (!body) throw new Error(`${selector} has no clip-path polygon`);
  const parts = body.split(",").map((part) => part.trim());
  const evenOdd = parts[0] === "evenodd";
  const points = parts.slice(evenOdd ? 1 : 0).map((pair) => {
    const [x, y] = pair.split(/\s+/).map((value) => Number.parseFloat(value));
    return [x, y] as [number, number];
  });
  return { evenOdd, points };
}

describe("StarRating", () => {
  it("fills the gold strip to the rating's share of five, clamped to the strip", () => {
    const fill = (html: string) => html.match(/class="star-rating__fill" style="width:([^"]+)"/)?.[1];
    expect(fill(render(4.6, 5))).toBe("92%");
    expect(fill(render(5, 1))).toBe("100%");
    expect(fill(render(0, 0))).toBe("0%");
    expect(fill(render(7, 1))).toBe("100%");
    expect(fill(render(-1, 1))).toBe("0%");
  });

  it("is one image to screen readers, with the rating and count in words", () => {
    const html = render(4.6, 5, "long");
    expect(html).toContain('role="img" aria-label="Rated 4.6 out of 5 from 5 reviews"');
    expect(html).toContain('<span class="star-rating__stars" aria-hidden="true">');
    expect(html).toContain("(5 reviews)");
    expect(render(0, 0)).toContain('aria-label="Rated 0.0 out of 5, no reviews yet"');
  });

  it("cuts the strip to five equal stars a fifth of its width apart, joined by seams with no area", () => {
    const { points } = polygonOf(".star-rating__stars");
    const star = points.slice(0, 11);
    expect(star[10]).toEqual(star[0]); // each star closes back at its tip
    for (let index = 1; index < 5; index++) {
      const shifted = points.slice(index * 11, index * 11 + 11);
      shifted.forEach(([x, y], point) => {
        expect(x).toBeCloseTo(star[point][0] + 20 * index, 1);
        expect(y).toBeCloseTo(star[point][1], 5);
      });
    }
    // Back from the last tip to the first over the same tips: the seams enclose nothing.
    const tips = [0, 1, 2, 3, 4].map((index) => points[index * 11]);
    expect(points.slice(55)).toEqual(tips.slice(0, 4).reverse());
    // Every star inside its own fifth, so a fill of r/5 of the width covers exactly r stars.
    for (let index = 0; index < 5; index++) {
      for (const [x] of points.slice(index * 11, index * 11 + 11)) {
        expect(x).toBeGreaterThan(index * 20);
        expect(x).toBeLessThan(index * 20 + 20);
      }
    }
  });
});

describe("badges", () => {
  it("name the badge in text; the icon is CSS", () => {
    expect(renderToStaticMarkup(createElement(VerifiedBadge, { label: "Verified Expert" }))).toBe(
      '<span class="badge badge--verified badge--seal">Verified Expert</span>',
    );
    expect(renderToStaticMarkup(createElement(TopExpertBadge))).toBe(
      '<span class="badge badge--top badge--star">Top Expert</span>',
    );
  });

  it("cut the seal with its check as a hole, and the star, inside the icon's box", () => {
    const seal = polygonOf(".badge--seal::before");
    expect(seal.evenOdd).toBe(true);
    const star = polygonOf(".badge--star::before");
    expect(star.points).toHaveLength(10);
    for (const [x, y] of [...seal.points, ...star.points]) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(100);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThanOrEqual(100);
    }
  });
});

describe("stylesheets", () => {
  // Each SVG image a stylesheet uses is a separate document the browser builds before the first
  // paint (about 13 ms of a cold phone page load for the three icons the stars and badges once used).
  it("use no SVG images", () => {
    const sheets = readdirSync(stylesDir).filter((name) => name.endsWith(".css"));
    expect(sheets.length).toBeGreaterThan(0);
    for (const name of sheets) {
      const css = readFileSync(new URL(name, stylesDir), "utf8");
      expect(css, name).not.toMatch(/url\(\s*["']?(data:image\/svg|[^)"']*\.svg)/i);
    }
  });
});
