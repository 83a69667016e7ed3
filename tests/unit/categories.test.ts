import { describe, expect, it } from "vitest";
import { CATEGORY_DISPLAY_ORDER, sortCategoriesForDisplay } from "~/lib/categories";

const SPEC_ORDER = [
  "Starting a Business",
  "Marketing and Branding",
  "Funding and Finance",
  "E-commerce",
  "Business Automation",
  "Sales",
  "Legal",
  "Scaling and Hiring",
  "Niche Models",
  "Tech and AI",
];

describe("CATEGORY_DISPLAY_ORDER", () => {
  it("lists SPEC.md's ten categories in order", () => {
    expect(CATEGORY_DISPLAY_ORDER.map((category) => category.name)).toEqual(SPEC_ORDER);
  });

  it("has unique, kebab-case slugs", () => {
    const slugs = CATEGORY_DISPLAY_ORDER.map((category) => category.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const slug of slugs) expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });
});

describe("sortCategoriesForDisplay", () => {
  it("puts known categories into the display order, whatever order they come in", () => {
    const shuffled = [...CATEGORY_DISPLAY_ORDER].reverse().map((category, id) => ({ ...category, id }));
    const sorted = sortCategoriesForDisplay(shuffled);
    expect(sorted.map((category) => category.name)).toEqual(SPEC_ORDER);
    // Extra fields survive.
    expect(sorted[0]).toMatchObject({ slug: "starting-a-business", id: 9 });
  });

  it("puts unknown categories after the known ones, alphabetically", () => {
    const sorted = sortCategoriesForDisplay([
      { slug: "zoology", name: "Zoology" },
      { slug: "legal", name: "Legal" },
      { slug: "accounting", name: "Accounting" },
      { slug: "sales", name: "Sales" },
    ]);
    expect(sorted.map((category) => category.name)).toEqual(["Sales", "Legal", "Accounting", "Zoology"]);
  });

  it("does not change the list it was given", () => {
    const input = [
      { slug: "tech-and-ai", name: "Tech and AI" },
      { slug: "sales", name: "Sales" },
    ];
    const copy = structuredClone(input);
    const sorted = sortCategoriesForDisplay(input);
    expect(input).toEqual(copy);
    expect(sorted).not.toBe(input);
  });

  it("returns an empty list for an empty list", () => {
    expect(sortCategoriesForDisplay([])).toEqual([]);
  });
});
