/**
 * Reads behind the public pages: categories, featured experts, the browse search and expert profiles.
 *
 * Every function costs one D1 round trip (one statement or one batch), however many experts it
 * returns: ratings and counts are computed by correlated subqueries inside the statement, never by a
 * query per card. Search uses the `experts_fts` FTS5 index (migration 0002), filters and sorts use the
 * experts indexes, and results are paged in SQL.
 */
import { desc, eq, type SQL, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { allRows, firstRow, rawBatch } from "~/db/raw.server";
import { reviews } from "~/db/schema.server";
import { sortCategoriesForDisplay } from "~/lib/categories";
import {
  type CategoryData,
  displayName,
  type ExpertCardData,
  type ExpertProfileData,
  expertiseTags,
  type PublicAnswer,
  ratingOrDefault,
} from "~/lib/experts";
import { toFtsQuery } from "~/lib/search";
import { BROWSE_PAGE_SIZE, type BrowseQuery, MAX_PAGE, type Sort } from "~/schemas/browse";

/** How many experts the home page features. */
export const FEATURED_LIMIT = 8;
/** How many answered questions a profile's Q&A tab lists. */
export const PROFILE_ANSWERS_LIMIT = 10;

export type CardRow = {
  id: number;
  name: string | null;
  first_name: string | null;
  last_name: string | null;
  username: string;
  title: string | null;
  bio: string;
  expertise: string;
  profile_image: string | null;
  custom_url: string | null;
  is_verified: number;
  is_top_expert: number;
  question_rate: number;
  session_price: number;
  rating: number | null;
  review_count: number;
};

/** The card's columns for an expert aliased `e` joined to its user `u`. */
const CARD_COLUMNS = sql.raw(`
  e.id AS id, u.name AS name, u.first_name AS first_name, u.last_name AS last_name,
  u.username AS username, e.title AS title, e.bio AS bio, e.expertise AS expertise,
  e.profile_image AS profile_image, e.custom_url AS custom_url, e.is_verified AS is_verified,
  e.is_top_expert AS is_top_expert, e.question_rate AS question_rate, e.session_price AS session_price,
  (SELECT round(avg(r.rating), 1) FROM reviews r WHERE r.expert_id = e.id) AS rating,
  (SELECT count(*) FROM reviews r WHERE r.expert_id = e.id) AS review_count`);

export function toCard(row: CardRow): ExpertCardData {
  const reviewCount = Number(row.review_count ?? 0);
  return {
    id: row.id,
    name: displayName({
      name: row.name,
      firstName: row.first_name,
      lastName: row.last_name,
      username: row.username,
    }),
    title: row.title,
    bio: row.bio,
    expertise: expertiseTags(row.expertise),
    profileImage: row.profile_image,
    customUrl: row.custom_url,
    isVerified: Boolean(row.is_verified),
    isTopExpert: Boolean(row.is_top_expert),
    questionRate: row.question_rate,
    sessionPrice: row.session_price,
    rating: ratingOrDefault(row.rating, reviewCount),
    reviewCount,
  };
}

type CategoryRow = {
  id: number;
  name: string;
  slug: string;
  description: string | null;
  image_url: string | null;
  icon_url: string | null;
};

const toCategory = (row: CategoryRow): CategoryData => ({
  id: row.id,
  name: row.name,
  slug: row.slug,
  description: row.description,
  imageUrl: row.image_url,
  iconUrl: row.icon_url,
});

/** Every category in SPEC.md's fixed display order; categories it does not list follow by name. */
export async function listCategories(db: Database): Promise<CategoryData[]> {
  const rows = await db.all<CategoryRow>(sql`
    SELECT id, name, slug, description, image_url, icon_url FROM categories
    ORDER BY display_order, name`);
  return sortCategoriesForDisplay(rows.map(toCategory));
}

/** The experts an admin featured (isTopExpert), verified ones first. */
export async function listFeaturedExperts(db: Database, limit = FEATURED_LIMIT): Promise<ExpertCardData[]> {
  const rows = await db.all<CardRow>(sql`
    SELECT ${CARD_COLUMNS} FROM experts e JOIN users u ON u.id = e.user_id
    WHERE e.is_top_expert = 1 AND e.deleted_at IS NULL
    ORDER BY e.is_top_expert DESC, e.is_verified DESC, e.id
    LIMIT ${limit}`);
  return rows.map(toCard);
}

const ORDER_BY: Record<Sort, SQL> = {
  // Walks experts_recommended_idx: featured, then verified, then longest on the marketplace.
  recommended: sql.raw("e.is_top_expert DESC, e.is_verified DESC, e.id"),
  price_low: sql.raw("e.question_rate, e.id"),
  price_high: sql.raw("e.question_rate DESC, e.id"),
  // SPEC.md: top experts first, then the rating shown on the card (reviews outrank the default).
  top_rated: sql.raw("e.is_top_expert DESC, coalesce(rating, 5) DESC, review_count DESC, e.id"),
};

export type BrowseResult = {
  experts: ExpertCardData[];
  total: number;
  page: number;
  pageCount: number;
};

/**
 * The two statements behind a browse page: one page of matching cards and the count of all matches.
 * Null when the search has nothing searchable in it (it matches no one).
 */
export function browseStatements(
  query: BrowseQuery & { categoryId: number | null },
  pageSize = BROWSE_PAGE_SIZE,
): { page: SQL; count: SQL } | null {
  const filters: SQL[] = [sql`e.deleted_at IS NULL`];
  if (query.q) {
    const match = toFtsQuery(query.q);
    if (match === null) return null;
    filters.push(sql`e.id IN (SELECT rowid FROM experts_fts WHERE experts_fts MATCH ${match})`);
  }
  if (query.categoryId !== null) {
    filters.push(
      sql`(e.category_id = ${query.categoryId} OR e.id IN (SELECT ec.expert_id FROM expert_categories ec WHERE ec.category_id = ${query.categoryId}))`,
    );
  }
  // Prices are whole dollars in the query, cents in the table.
  if (query.minPrice !== null) filters.push(sql`e.question_rate >= ${query.minPrice * 100}`);
  if (query.maxPrice !== null) filters.push(sql`e.question_rate <= ${query.maxPrice * 100}`);
  const where = sql.join(filters, sql` AND `);
  // A page deeper than MAX_PAGE is empty, like a page past the last: no OFFSET scan that deep.
  const served = query.page <= MAX_PAGE;
  return {
    page: sql`
      SELECT ${CARD_COLUMNS} FROM experts e JOIN users u ON u.id = e.user_id
      WHERE ${where}
      ORDER BY ${ORDER_BY[query.sort]}
      LIMIT ${served ? pageSize : 0} OFFSET ${served ? (query.page - 1) * pageSize : 0}`,
    count: sql`SELECT count(*) AS total FROM experts e WHERE ${where}`,
  };
}

/**
 * One page of experts matching the browse query, and how many match in all, in one D1 batch.
 * `categoryId` is the resolved category (the caller knows the slugs).
 */
export async function searchExperts(
  db: Database,
  query: BrowseQuery & { categoryId: number | null },
  pageSize = BROWSE_PAGE_SIZE,
): Promise<BrowseResult> {
  const statements = browseStatements(query, pageSize);
  if (!statements) return { experts: [], total: 0, page: query.page, pageCount: 0 };
  const [rows, count] = await rawBatch(db, [
    allRows<CardRow>(db, statements.page),
    firstRow<{ total: number }>(db, statements.count),
  ]);
  const total = Number(count?.total ?? 0);
  return {
    experts: rows.map(toCard),
    total,
    page: query.page,
    pageCount: Math.ceil(total / pageSize),
  };
}

export type ExpertLookup = { id: number } | { customUrl: string };

type ProfileRow = CardRow & {
  header_image: string | null;
  occupation: string | null;
  company: string | null;
  location: string | null;
  consulting_topics: string | null;
  qualifications: string | null;
  is_available: number;
};

/**
 * A public profile by id or custom URL (case-insensitive), or null when there is no such expert (or
 * they deleted their account). One batch: the expert, their categories, the answered count and the
 * answers their askers allowed on the profile.
 */
export async function getExpertProfile(
  db: Database,
  lookup: ExpertLookup,
): Promise<ExpertProfileData | null> {
  const match =
    "id" in lookup ? sql`e.id = ${lookup.id}` : sql`lower(e.custom_url) = lower(${lookup.customUrl})`;
  const expertId = sql`(SELECT e.id FROM experts e WHERE ${match} AND e.deleted_at IS NULL)`;

  const [expert, categories, answered, answers] = await rawBatch(db, [
    firstRow<ProfileRow>(
      db,
      sql`
      SELECT ${CARD_COLUMNS}, e.header_image AS header_image, e.occupation AS occupation,
        e.company AS company, e.location AS location, e.consulting_topics AS consulting_topics,
        e.qualifications AS qualifications, e.is_available AS is_available
      FROM experts e JOIN users u ON u.id = e.user_id
      WHERE ${match} AND e.deleted_at IS NULL`,
    ),
    allRows<{ id: number; name: string; slug: string }>(
      db,
      sql`
      SELECT c.id AS id, c.name AS name, c.slug AS slug FROM categories c
      WHERE c.id = (SELECT e.category_id FROM experts e WHERE e.id = ${expertId})
        OR c.id IN (SELECT ec.category_id FROM expert_categories ec WHERE ec.expert_id = ${expertId})
      ORDER BY c.display_order, c.name`,
    ),
    // SPEC.md: only questions with an answer (text or recorded) and status answered count.
    firstRow<{ total: number }>(
      db,
      sql`
      SELECT count(*) AS total FROM questions q
      WHERE q.expert_id = ${expertId} AND q.status = 'answered'
        AND (q.answer IS NOT NULL OR q.audio_response IS NOT NULL)`,
    ),
    allRows<{ id: number; question: string; answer: string; answered_at: number | null }>(
      db,
      sql`
      SELECT q.id AS id, q.question AS question, q.answer AS answer, q.answered_at AS answered_at
      FROM questions q
      WHERE q.expert_id = ${expertId} AND q.status = 'answered' AND q.show_on_profile = 1
        AND q.answer IS NOT NULL AND trim(q.answer) <> ''
      ORDER BY q.answered_at DESC, q.id DESC
      LIMIT ${PROFILE_ANSWERS_LIMIT}`,
    ),
  ]);
  if (!expert) return null;

  const publicAnswers: PublicAnswer[] = answers.map((row) => ({
    id: row.id,
    question: row.question,
    answer: row.answer,
    answeredAt: row.answered_at === null ? null : Number(row.answered_at),
  }));
  return {
    ...toCard(expert),
    headerImage: expert.header_image,
    occupation: expert.occupation,
    company: expert.company,
    location: expert.location,
    consultingTopics: expert.consulting_topics,
    qualifications: expert.qualifications,
    isAvailable: Boolean(expert.is_available),
    categories,
    answeredCount: Number(answered?.total ?? 0),
    answers: publicAnswers,
  };
}

/** A user's favourite experts as cards, most recently added first (a statement, for batching). */
export function favoriteExpertCardsQuery(db: Database, userId: number, limit = 100) {
  return allRows<CardRow>(
    db,
    sql`
    SELECT ${CARD_COLUMNS} FROM user_favorites f
    JOIN experts e ON e.id = f.expert_id AND e.deleted_at IS NULL
    JOIN users u ON u.id = e.user_id
    WHERE f.user_id = ${userId}
    ORDER BY f.created_at DESC, f.id DESC
    LIMIT ${limit}`,
  );
}

export type SitemapEntries = {
  categories: { slug: string }[];
  experts: { id: number; customUrl: string | null; updatedAt: number | null }[];
};

/** Everything /sitemap.xml lists, in one batch. */
export async function listSitemapEntries(db: Database, limit = 45_000): Promise<SitemapEntries> {
  const [categories, experts] = await rawBatch(db, [
    allRows<{ slug: string }>(db, sql`SELECT slug FROM categories ORDER BY display_order, name`),
    allRows<{ id: number; custom_url: string | null; updated_at: number | null; created_at: number }>(
      db,
      sql`
      SELECT id, custom_url, updated_at, created_at FROM experts
      WHERE deleted_at IS NULL ORDER BY id LIMIT ${limit}`,
    ),
  ]);
  return {
    categories,
    experts: experts.map((row) => ({
      id: row.id,
      customUrl: row.custom_url,
      updatedAt: Number(row.updated_at ?? row.created_at) || null,
    })),
  };
}

/**
 * A review as anyone may read it: the rating, the comment and what was reviewed, never who wrote it
 * nor which question (a published question is shown without its asker's name, and a reviewer was
 * never told their name would be public).
 */
export type PublicReview = {
  id: number;
  rating: number;
  comment: string | null;
  subject: "question" | "session";
  /** Epoch milliseconds. */
  createdAt: number;
};

/** An expert's reviews, newest first: a statement to run alone or in a batch (read with toPublicReview). */
export function expertReviewsQuery(db: Database, expertId: number, limit: number) {
  return db
    .select({
      id: reviews.id,
      rating: reviews.rating,
      comment: reviews.comment,
      bookingId: reviews.bookingId,
      createdAt: reviews.createdAt,
    })
    .from(reviews)
    .where(eq(reviews.expertId, expertId))
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(limit);
}

export function toPublicReview(row: {
  id: number;
  rating: number;
  comment: string | null;
  bookingId: number | null;
  createdAt: Date | number;
}): PublicReview {
  return {
    id: row.id,
    rating: row.rating,
    comment: row.comment,
    subject: row.bookingId === null ? "question" : "session",
    createdAt: Number(row.createdAt),
  };
}

/** An expert's reviews, newest first (one statement). */
export async function listExpertReviews(
  db: Database,
  expertId: number,
  limit = 100,
): Promise<PublicReview[]> {
  return (await expertReviewsQuery(db, expertId, limit)).map(toPublicReview);
}
