/**
 * What the public pages show about an expert, and the small rules every screen shares: which URL is
 * an expert's, the rating shown when nobody has reviewed them yet, how expertise becomes tags.
 * Pure: used by loaders and components alike.
 */

/** SPEC.md section 9: an expert nobody has reviewed yet shows 5 stars. */
export const DEFAULT_RATING = 5;
/** The expert card shows this many expertise tags, then "+N more". */
export const CARD_TAG_LIMIT = 3;

/** One expert card (home, browse, category pages, the dashboard's favourites). */
export type ExpertCardData = {
  id: number;
  name: string;
  title: string | null;
  bio: string;
  expertise: string[];
  profileImage: string | null;
  customUrl: string | null;
  isVerified: boolean;
  isTopExpert: boolean;
  /** Integer cents. */
  questionRate: number;
  /** Integer cents. */
  sessionPrice: number;
  /** Mean of the reviews to one decimal, or DEFAULT_RATING when there are none. */
  rating: number;
  reviewCount: number;
};

export type CategoryData = {
  id: number;
  name: string;
  slug: string;
  description: string | null;
  imageUrl: string | null;
  iconUrl: string | null;
};

export type PublicAnswer = {
  id: number;
  question: string;
  answer: string;
  /** Epoch milliseconds. */
  answeredAt: number | null;
};

/** Everything a public profile page shows; stored as one KV read model per expert. */
export type ExpertProfileData = ExpertCardData & {
  headerImage: string | null;
  occupation: string | null;
  company: string | null;
  location: string | null;
  consultingTopics: string | null;
  qualifications: string | null;
  isAvailable: boolean;
  categories: Pick<CategoryData, "id" | "name" | "slug">[];
  answeredCount: number;
  /** Answered questions whose askers allowed them on the profile, newest first. */
  answers: PublicAnswer[];
};

/** The one canonical path of an expert's profile: /{customUrl} when set, else /expert/{id}. */
export function expertProfilePath(expert: { id: number; customUrl: string | null }): string {
  return expert.customUrl ? `/${expert.customUrl.toLowerCase()}` : `/expert/${expert.id}`;
}

/** The name shown for a person: name, else first and last name, else the username. */
/** A deleted account's username is this prefix and its id (app/models/users.server.ts). */
export const DELETED_USERNAME_PREFIX = "deleted:";
/** What a deleted account is called wherever its name used to show. */
export const DELETED_ACCOUNT_NAME = "Deleted account";

export function displayName(person: {
  name?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  username?: string | null;
}): string {
  const name = person.name?.trim();
  if (name) return name;
  const full = [person.firstName, person.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(" ");
  if (full) return full;
  if (person.username?.startsWith(DELETED_USERNAME_PREFIX)) return DELETED_ACCOUNT_NAME;
  return person.username || "Expert";
}

/** SPEC.md: expertise is stored comma-separated; each distinct, non-empty part is a tag. */
export function expertiseTags(expertise: string | null | undefined): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const part of (expertise ?? "").split(",")) {
    const tag = part.trim();
    if (tag && !seen.has(tag.toLowerCase())) {
      seen.add(tag.toLowerCase());
      tags.push(tag);
    }
  }
  return tags;
}

/** The first `limit` tags and how many more there are (shown as "+N more"). */
export function visibleTags(tags: readonly string[], limit = CARD_TAG_LIMIT) {
  return { shown: tags.slice(0, limit), more: Math.max(0, tags.length - limit) };
}

/** A mean rating to one decimal, or the default when there are no reviews. */
export function ratingOrDefault(mean: number | null | undefined, count: number): number {
  if (!count || mean === null || mean === undefined || !Number.isFinite(mean)) return DEFAULT_RATING;
  return Math.round(mean * 10) / 10;
}

/** "4.5" or "5.0": ratings always show one decimal. */
export function formatRating(rating: number): string {
  return rating.toFixed(1);
}
