import { env, SELF } from "cloudflare:test";
import type { Category } from "~/db/schema.server";
import { insertDemoCategories, insertExpert, insertReview } from "../../factories";
import { BASE, db } from "./accounts";

/** The names on the expert cards of a page, in order. */
export function cardNames(html: string): string[] {
  return [...html.matchAll(/<h3 class="expert-card__name">([^<]*)<\/h3>/g)].map((match) => decode(match[1]));
}

const decode = (text: string) =>
  text
    .replaceAll("&#x27;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");

/** Polls until `check` passes (background work such as KV and edge-cache writes lands a moment later). */
export async function eventually<T>(
  check: () => Promise<T | null | undefined | false>,
  what: string,
): Promise<T> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const value = await check();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export function waitForKv(key: string) {
  return eventually(() => env.CACHE.get(key), `KV key ${key}`);
}

/** An anonymous GET, optionally with headers. */
export function anonymous(path: string, headers: Record<string, string> = {}) {
  return SELF.fetch(`${BASE}${path}`, { redirect: "manual", headers });
}

/** The number of D1 round trips the Worker reports for a response (tests and development only). */
export const d1Queries = (response: Response) => Number(response.headers.get("X-D1-Queries"));

type ExpertSpec = {
  first: string;
  last: string;
  title: string;
  bio?: string;
  expertise?: string;
  categories: string[];
  questionRate: number;
  sessionPrice?: number;
  isTopExpert?: boolean;
  isVerified?: boolean;
  customUrl?: string | null;
  ratings?: number[];
  company?: string | null;
  location?: string | null;
  profileImage?: string | null;
  qualifications?: string | null;
};

/** Inserts one expert (user, profile, categories, reviews) and returns the rows. */
export async function addExpert(categoriesBySlug: Map<string, Category>, spec: ExpertSpec) {
  const categoryIds = spec.categories.map((slug) => {
    const category = categoriesBySlug.get(slug);
    if (!category) throw new Error(`unknown category ${slug}`);
    return category.id;
  });
  const { user, expert } = await insertExpert(db(), {
    user: { firstName: spec.first, lastName: spec.last, name: `${spec.first} ${spec.last}` },
    expert: {
      title: spec.title,
      bio: spec.bio ?? `${spec.first} helps founders with practical, experienced advice.`,
      expertise: spec.expertise ?? spec.categories.map((slug) => categoriesBySlug.get(slug)?.name).join(", "),
      questionRate: spec.questionRate,
      sessionPrice: spec.sessionPrice ?? 10000,
      isTopExpert: spec.isTopExpert ?? false,
      isVerified: spec.isVerified ?? false,
      customUrl: spec.customUrl ?? null,
      company: spec.company ?? null,
      location: spec.location ?? null,
      profileImage: spec.profileImage ?? null,
      qualifications: spec.qualifications ?? null,
    },
    categoryIds,
  });
  for (const rating of spec.ratings ?? []) await insertReview(db(), { expertId: expert.id, rating });
  return { user, expert };
}

export async function categoriesBySlug() {
  const rows = await insertDemoCategories(db());
  return new Map(rows.map((row) => [row.slug, row]));
}
