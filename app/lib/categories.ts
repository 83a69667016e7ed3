/** SPEC.md's fixed display order of categories: screens always list them in this order. */
export const CATEGORY_DISPLAY_ORDER = [
  { slug: "starting-a-business", name: "Starting a Business" },
  { slug: "marketing-and-branding", name: "Marketing and Branding" },
  { slug: "funding-and-finance", name: "Funding and Finance" },
  { slug: "e-commerce", name: "E-commerce" },
  { slug: "business-automation", name: "Business Automation" },
  { slug: "sales", name: "Sales" },
  { slug: "legal", name: "Legal" },
  { slug: "scaling-and-hiring", name: "Scaling and Hiring" },
  { slug: "niche-models", name: "Niche Models" },
  { slug: "tech-and-ai", name: "Tech and AI" },
] as const;

const positionBySlug = new Map<string, number>(
  CATEGORY_DISPLAY_ORDER.map((category, index) => [category.slug, index]),
);

/** Sorts categories into the display order; unknown ones follow, alphabetically. */
export function sortCategoriesForDisplay<T extends { slug: string; name: string }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => {
    const pa = positionBySlug.get(a.slug) ?? Number.MAX_SAFE_INTEGER;
    const pb = positionBySlug.get(b.slug) ?? Number.MAX_SAFE_INTEGER;
    return pa - pb || a.name.localeCompare(b.name);
  });
}
