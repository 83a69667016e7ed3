import { and, asc, count, desc, eq, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors.server";
import { categories, expertCategories, experts, questions, reviews, users } from "~/db/schema.server";
import { sortCategoriesForDisplay } from "~/lib/categories";
import { toFtsQuery } from "~/lib/search";
import { instantToLocal } from "~/lib/slots";
import type {
  AdminExpertFilter,
  ExpertGeneralInput,
  ExpertPricingInput,
  ExpertProfileInput,
} from "~/schemas/expert";
import { bookingClientName, upcomingBookingsCount, upcomingBookingsQuery } from "./bookings.server";
import { expertReviewsQuery, toPublicReview } from "./discovery.server";
import { notificationStatements } from "./notifications.server";

/** The profile step failed because the custom URL was taken between the check and the write. */
export class CustomUrlTakenError extends Error {
  constructor() {
    super("custom URL taken");
  }
}

/** The person already has an expert profile (one per user, a database constraint). */
export class AlreadyExpertError extends Error {
  constructor() {
    super("already an expert");
  }
}

/** D1's message names the constraint: "UNIQUE constraint failed: experts.user_id" or the index name. */
function uniqueViolationOn(error: unknown, needle: string): boolean {
  if (!isUniqueViolation(error)) return false;
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (String((current as Error).message ?? current).includes(needle)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function profileWriteError(error: unknown): unknown {
  if (uniqueViolationOn(error, "custom_url")) return new CustomUrlTakenError();
  if (uniqueViolationOn(error, "user_id") || uniqueViolationOn(error, "experts_user_unique")) {
    return new AlreadyExpertError();
  }
  return error;
}

const emptyToNull = (value: string | null | undefined) => (value && value.length > 0 ? value : null);

export type CategoryOption = { id: number; name: string; slug: string };

/** Every category, in SPEC.md's display order, for the Primary Category select and the expertise picker. */
export async function listCategoryOptions(db: Database): Promise<CategoryOption[]> {
  const rows = await db
    .select({ id: categories.id, name: categories.name, slug: categories.slug })
    .from(categories)
    .orderBy(asc(categories.displayOrder), asc(categories.name));
  return sortCategoriesForDisplay(rows);
}

export type ResolvedCategories =
  | { ok: true; primaryId: number; expertise: string[]; categoryIds: number[] }
  | { ok: false; field: "categoryId" | "expertise" };

/**
 * Checks the primary category and the expertise names against the database. The profile's category
 * rows are the expertise categories plus the primary one (so category pages list the expert under both).
 */
export async function resolveCategories(
  db: Database,
  input: { categoryId: number; expertise: readonly string[] },
): Promise<ResolvedCategories> {
  const rows = await db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .where(
      input.expertise.length > 0
        ? or(eq(categories.id, input.categoryId), inArray(categories.name, [...input.expertise]))
        : eq(categories.id, input.categoryId),
    );
  if (!rows.some((row) => row.id === input.categoryId)) return { ok: false, field: "categoryId" };
  const idByName = new Map(rows.map((row) => [row.name, row.id]));
  const expertiseIds: number[] = [];
  for (const name of input.expertise) {
    const id = idByName.get(name);
    if (id === undefined) return { ok: false, field: "expertise" };
    expertiseIds.push(id);
  }
  return {
    ok: true,
    primaryId: input.categoryId,
    expertise: [...input.expertise],
    categoryIds: [...new Set([input.categoryId, ...expertiseIds])],
  };
}

/** True when another live or deleted profile holds this custom URL (case-insensitively). */
export async function isCustomUrlTaken(db: Database, customUrl: string, exceptExpertId?: number) {
  const [row] = await db
    .select({ id: experts.id })
    .from(experts)
    .where(
      and(
        sql`lower(${experts.customUrl}) = lower(${customUrl})`,
        exceptExpertId === undefined ? undefined : sql`${experts.id} <> ${exceptExpertId}`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Creates the expert profile of `userId` and makes the account an expert, in one batch (one
 * transaction): the profile, its category rows, and the role. An admin keeps the admin role.
 * `timeZone` (a canonical IANA name) is the zone of the weekly schedule.
 */
export async function createExpertProfile(
  db: Database,
  input: {
    userId: number;
    profile: ExpertProfileInput;
    timeZone: string;
    categories: Extract<ResolvedCategories, { ok: true }>;
    profileImage?: string | null;
    headerImage?: string | null;
  },
): Promise<{ id: number }> {
  const { profile } = input;
  try {
    const [inserted] = await db.batch([
      db
        .insert(experts)
        .values({
          userId: input.userId,
          bio: profile.bio,
          expertise: input.categories.expertise.join(", "),
          title: profile.title,
          occupation: profile.occupation,
          // The wizard asks for "Company/Organization"; the public profile shows the company.
          company: profile.occupation,
          customUrl: emptyToNull(profile.customUrl),
          categoryId: input.categories.primaryId,
          questionRate: profile.questionRate,
          sessionPrice: profile.sessionPrice,
          timeZone: input.timeZone,
          profileImage: input.profileImage ?? null,
          headerImage: input.headerImage ?? null,
          isTopExpert: false,
          isVerified: false,
        })
        .returning({ id: experts.id }),
      db.insert(expertCategories).select(
        db
          .select({
            id: sql<number>`null`.as("id"),
            expertId: experts.id,
            categoryId: categories.id,
            createdAt: sql<number>`cast(unixepoch('subsec') * 1000 as integer)`.as("created_at"),
          })
          .from(experts)
          .innerJoin(categories, inArray(categories.id, input.categories.categoryIds))
          .where(eq(experts.userId, input.userId)),
      ),
      db
        .update(users)
        .set({ role: "expert" })
        .where(and(eq(users.id, input.userId), eq(users.role, "user"))),
    ]);
    return inserted[0];
  } catch (error) {
    throw profileWriteError(error);
  }
}

/** Everything the settings screen edits, for the signed-in owner only. */
export async function getOwnExpertProfile(db: Database, { userId }: { userId: number }) {
  const [row] = await db
    .select({
      id: experts.id,
      title: experts.title,
      occupation: experts.occupation,
      company: experts.company,
      location: experts.location,
      customUrl: experts.customUrl,
      categoryId: experts.categoryId,
      expertise: experts.expertise,
      bio: experts.bio,
      consultingTopics: experts.consultingTopics,
      qualifications: experts.qualifications,
      socialWebsite: experts.socialWebsite,
      socialLinkedIn: experts.socialLinkedIn,
      socialTwitter: experts.socialTwitter,
      socialInstagram: experts.socialInstagram,
      profileImage: experts.profileImage,
      headerImage: experts.headerImage,
      questionRate: experts.questionRate,
      sessionPrice: experts.sessionPrice,
      isVerified: experts.isVerified,
      isTopExpert: experts.isTopExpert,
    })
    .from(experts)
    .where(and(eq(experts.userId, userId), isNull(experts.deletedAt)))
    .limit(1);
  if (!row) return null;
  return {
    ...row,
    expertise: row.expertise
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean),
  };
}

export type OwnExpertProfile = NonNullable<Awaited<ReturnType<typeof getOwnExpertProfile>>>;

/** The owner's profile, matched by both ids, so a wrong id never reaches another expert's row. */
const ownedBy = (owner: { expertId: number; userId: number }) =>
  and(eq(experts.id, owner.expertId), eq(experts.userId, owner.userId), isNull(experts.deletedAt));

/**
 * Saves the General Information tab: the profile fields and the category rows, in one batch.
 * Returns the custom URL before the change (for cache invalidation), or null when nothing matched.
 */
export async function updateExpertGeneral(
  db: Database,
  owner: { expertId: number; userId: number },
  input: ExpertGeneralInput,
  resolved: Extract<ResolvedCategories, { ok: true }>,
  now: Date,
): Promise<{ previousCustomUrl: string | null } | null> {
  try {
    const [before, updated] = await db.batch([
      db.select({ customUrl: experts.customUrl }).from(experts).where(ownedBy(owner)).limit(1),
      db
        .update(experts)
        .set({
          title: input.title,
          occupation: emptyToNull(input.occupation),
          company: emptyToNull(input.company),
          location: emptyToNull(input.location),
          customUrl: emptyToNull(input.customUrl),
          categoryId: resolved.primaryId,
          expertise: resolved.expertise.join(", "),
          bio: input.bio,
          consultingTopics: emptyToNull(input.consultingTopics),
          qualifications: emptyToNull(input.qualifications),
          socialWebsite: emptyToNull(input.socialWebsite),
          socialLinkedIn: emptyToNull(input.socialLinkedIn),
          socialTwitter: emptyToNull(input.socialTwitter),
          socialInstagram: emptyToNull(input.socialInstagram),
          updatedAt: now,
        })
        .where(ownedBy(owner))
        .returning({ id: experts.id }),
      db
        .delete(expertCategories)
        .where(
          and(
            eq(expertCategories.expertId, owner.expertId),
            sql`exists (select 1 from ${experts} where ${experts.id} = ${owner.expertId} and ${experts.userId} = ${owner.userId})`,
          ),
        ),
      db.insert(expertCategories).select(
        db
          .select({
            id: sql<number>`null`.as("id"),
            expertId: experts.id,
            categoryId: categories.id,
            createdAt: sql<number>`cast(unixepoch('subsec') * 1000 as integer)`.as("created_at"),
          })
          .from(experts)
          .innerJoin(categories, inArray(categories.id, resolved.categoryIds))
          .where(ownedBy(owner)),
      ),
    ]);
    if (updated.length === 0) return null;
    return { previousCustomUrl: before[0]?.customUrl ?? null };
  } catch (error) {
    throw profileWriteError(error);
  }
}

/** Saves the Pricing tab. Returns the custom URL (for cache invalidation), or null when nothing matched. */
export async function updateExpertPricing(
  db: Database,
  owner: { expertId: number; userId: number },
  input: ExpertPricingInput,
  now: Date,
): Promise<{ customUrl: string | null } | null> {
  const [row] = await db
    .update(experts)
    .set({ questionRate: input.questionRate, sessionPrice: input.sessionPrice, updatedAt: now })
    .where(ownedBy(owner))
    .returning({ customUrl: experts.customUrl });
  return row ?? null;
}

export type ExpertImageKind = "profile" | "header";

/**
 * Points the owner's profile or header image at `url`; returns the URL it replaced, or null when the
 * profile is not the owner's (nothing changes then).
 */
export async function setExpertImage(
  db: Database,
  owner: { expertId: number; userId: number },
  kind: ExpertImageKind,
  url: string,
  now: Date,
): Promise<{ previous: string | null; customUrl: string | null } | null> {
  const column = kind === "profile" ? experts.profileImage : experts.headerImage;
  const [before, updated] = await db.batch([
    db.select({ previous: column }).from(experts).where(ownedBy(owner)).limit(1),
    db
      .update(experts)
      .set(kind === "profile" ? { profileImage: url, updatedAt: now } : { headerImage: url, updatedAt: now })
      .where(ownedBy(owner))
      .returning({ customUrl: experts.customUrl }),
  ]);
  if (updated.length === 0) return null;
  return { previous: before[0]?.previous ?? null, customUrl: updated[0].customUrl };
}

/** Whether expert `expertId` exists and has not closed their account. */
export async function isActiveExpert(db: Database, expertId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: experts.id })
    .from(experts)
    .where(and(eq(experts.id, expertId), isNull(experts.deletedAt)))
    .limit(1);
  return row !== undefined;
}

/**
 * True while any profile or account still shows this image. Image keys are content-addressed, so two
 * experts who upload the same picture share one object: it may only be deleted when nobody uses it.
 */
export async function isImageInUse(db: Database, url: string): Promise<boolean> {
  const [row] = await db
    .select({ n: sql<number>`1` })
    .from(experts)
    .where(or(eq(experts.profileImage, url), eq(experts.headerImage, url)))
    .limit(1);
  if (row) return true;
  const [user] = await db
    .select({ n: sql<number>`1` })
    .from(users)
    .where(eq(users.profileImage, url))
    .limit(1);
  return user !== undefined;
}

/** Every picture a person's account shows (theirs and their expert profile's), as stored URLs. */
export async function imagesOfUser(db: Database, userId: number): Promise<string[]> {
  const [row] = await db
    .select({ user: users.profileImage, profile: experts.profileImage, header: experts.headerImage })
    .from(users)
    .leftJoin(experts, eq(experts.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  return row ? [row.user, row.profile, row.header].filter((url): url is string => Boolean(url)) : [];
}

// ---------- Dashboard ----------

const OPEN_QUESTION_STATUSES = ["pending", "in_progress"] as const;
export const DASHBOARD_PENDING_LIMIT = 5;
export const DASHBOARD_UPCOMING_LIMIT = 3;
export const DASHBOARD_REVIEWS_LIMIT = 5;
const HOUR_MS = 60 * 60 * 1000;

/** What an expert still owes clients: sessions not yet over and questions not yet answered. */
export async function listExpertCommitments(db: Database, expertId: number, now: number) {
  const [upcoming, open] = await db.batch([
    upcomingBookingsQuery(db, { expertId, now: new Date(now) }),
    db
      .select({ id: questions.id })
      .from(questions)
      .where(and(eq(questions.expertId, expertId), inArray(questions.status, [...OPEN_QUESTION_STATUSES]))),
  ]);
  return { upcomingBookingIds: upcoming.map((row) => row.id), openQuestionIds: open.map((row) => row.id) };
}

/**
 * The dashboard's cards and lists in one round trip: open questions, upcoming confirmed sessions,
 * the real mean response time (answeredAt - paidAt) and the mean review rating.
 */
export async function getExpertDashboard(db: Database, { expertId, now }: { expertId: number; now: Date }) {
  const [stats, pending, upcoming, recentReviews] = await db.batch([
    db
      .select({
        isVerified: experts.isVerified,
        timeZone: experts.timeZone,
        pendingQuestions: sql<number>`(select count(*) from ${questions} where ${questions.expertId} = ${expertId} and ${questions.status} in ('pending', 'in_progress'))`,
        upcomingBookings: upcomingBookingsCount(expertId, now),
        answeredWithTimes: sql<number>`(select count(*) from ${questions} where ${questions.expertId} = ${expertId} and ${questions.status} = 'answered' and ${questions.answeredAt} is not null and ${questions.paidAt} is not null)`,
        meanResponseMs: sql<
          number | null
        >`(select avg(${questions.answeredAt} - ${questions.paidAt}) from ${questions} where ${questions.expertId} = ${expertId} and ${questions.status} = 'answered' and ${questions.answeredAt} is not null and ${questions.paidAt} is not null)`,
        meanRating: sql<
          number | null
        >`(select avg(${reviews.rating}) from ${reviews} where ${reviews.expertId} = ${expertId})`,
        reviewCount: sql<number>`(select count(*) from ${reviews} where ${reviews.expertId} = ${expertId})`,
      })
      .from(experts)
      .where(eq(experts.id, expertId)),
    db
      .select({
        id: questions.id,
        name: questions.name,
        question: questions.question,
        status: questions.status,
        requestAudioResponse: questions.requestAudioResponse,
        createdAt: questions.createdAt,
        deadlineAt: questions.deadlineAt,
      })
      .from(questions)
      .where(and(eq(questions.expertId, expertId), inArray(questions.status, [...OPEN_QUESTION_STATUSES])))
      .orderBy(sql`coalesce(${questions.deadlineAt}, ${questions.createdAt})`, asc(questions.id))
      .limit(DASHBOARD_PENDING_LIMIT),
    // The same reading of "upcoming" as the Bookings page and Upcoming Appointments.
    upcomingBookingsQuery(db, { expertId, now, limit: DASHBOARD_UPCOMING_LIMIT }),
    // What clients wrote when they rated: the expert is the one who reads it.
    expertReviewsQuery(db, expertId, DASHBOARD_REVIEWS_LIMIT),
  ]);
  const row = stats[0];
  const timeZone = row?.timeZone ?? "UTC";
  const meanResponseMs =
    row?.meanResponseMs === null || row?.meanResponseMs === undefined ? null : Number(row.meanResponseMs);
  const meanRating =
    row?.meanRating === null || row?.meanRating === undefined ? null : Number(row.meanRating);
  return {
    isVerified: Boolean(row?.isVerified),
    pendingQuestions: Number(row?.pendingQuestions ?? 0),
    upcomingBookings: Number(row?.upcomingBookings ?? 0),
    /** Hours to one decimal, or null (shown N/A) before the first answer. */
    averageResponseHours: meanResponseMs === null ? null : Math.round((meanResponseMs / HOUR_MS) * 10) / 10,
    answeredCount: Number(row?.answeredWithTimes ?? 0),
    /** One decimal, or null (shown N/A) before the first review. */
    averageRating: meanRating === null ? null : Math.round(meanRating * 10) / 10,
    reviewCount: Number(row?.reviewCount ?? 0),
    /** The expert's zone: the dashboard's dates are theirs. */
    timeZone,
    recentReviews: recentReviews.map(toPublicReview),
    pendingList: pending,
    // In the expert's zone now, not the wall clock stored at booking time (they may have moved).
    upcomingList: upcoming.map(({ endsAt, name, clientAccountName, ...booking }) => {
      const start = instantToLocal(booking.startsAt, timeZone);
      return {
        ...booking,
        clientName: bookingClientName(name, clientAccountName),
        date: start.date,
        startTime: start.time,
        endTime: instantToLocal(endsAt, timeZone).time,
      };
    }),
  };
}

export type ExpertDashboard = Awaited<ReturnType<typeof getExpertDashboard>>;

// ---------- Admin ----------

export const ADMIN_PAGE_SIZE = 20;

/** The experts list for admins: newest first, filtered and searched, one page at a time. */
export async function listExpertsForAdmin(
  db: Database,
  { filter, search, page }: { filter: AdminExpertFilter; search: string; page: number },
) {
  const conditions: Array<SQL | undefined> = [isNull(experts.deletedAt)];
  if (filter === "unverified") conditions.push(eq(experts.isVerified, false));
  if (filter === "verified") conditions.push(eq(experts.isVerified, true));
  if (filter === "featured") conditions.push(eq(experts.isTopExpert, true));
  const term = search.trim().toLowerCase();
  if (term) {
    // instr, not LIKE: D1 refuses a LIKE pattern over 50 bytes ("pattern too complex"), which a
    // pasted e-mail address and name reach; instr takes the term literally, so nothing is escaped.
    const matches = (column: SQL) => sql`instr(lower(${column}), ${term}) > 0`;
    // SQLite's lower() folds ASCII letters only ("Émilie" stays "Émilie"): a term with other letters
    // also looks names up in the public search's index, whose tokenizer folds every letter. (Only
    // then: the index ignores punctuation, and an ASCII term is taken literally.)
    const byName = /[^\p{ASCII}]/u.test(term) ? toFtsQuery(term) : null;
    conditions.push(
      or(
        matches(sql`${users.name}`),
        matches(sql`${users.username}`),
        matches(sql`coalesce(${experts.title}, '')`),
        matches(sql`coalesce(${experts.customUrl}, '')`),
        byName === null
          ? undefined
          : sql`${experts.id} IN (SELECT rowid FROM experts_fts WHERE experts_fts MATCH ${`{name} : (${byName})`})`,
      ),
    );
  }
  const where = and(...conditions);
  const [rows, total] = await db.batch([
    db
      .select({
        id: experts.id,
        name: users.name,
        username: users.username,
        email: users.email,
        title: experts.title,
        customUrl: experts.customUrl,
        profileImage: experts.profileImage,
        // Aliased: D1's batch answers rows as objects, so two "name" columns would collide.
        categoryName: sql<string | null>`${categories.name}`.as("category_name"),
        isVerified: experts.isVerified,
        verifiedAt: experts.verifiedAt,
        isTopExpert: experts.isTopExpert,
        createdAt: experts.createdAt,
      })
      .from(experts)
      .innerJoin(users, eq(users.id, experts.userId))
      .leftJoin(categories, eq(categories.id, experts.categoryId))
      .where(where)
      .orderBy(desc(experts.createdAt), desc(experts.id))
      .limit(ADMIN_PAGE_SIZE)
      .offset((page - 1) * ADMIN_PAGE_SIZE),
    db.select({ n: count() }).from(experts).innerJoin(users, eq(users.id, experts.userId)).where(where),
  ]);
  return { experts: rows, total: total[0]?.n ?? 0, page, pageSize: ADMIN_PAGE_SIZE };
}

/**
 * Verifies or unverifies an expert (only verified experts carry the Verified Expert mark). A
 * first verification that gives the mark notifies the expert, in the same batch; verifying an expert
 * already verified (a stale tab) writes nothing. Returns what the cache needs, or null.
 */
export async function setExpertVerified(
  db: Database,
  { expertId, verified, now }: { expertId: number; verified: boolean; now: Date },
) {
  const [expert] = await db
    .select({ userId: experts.userId, customUrl: experts.customUrl })
    .from(experts)
    .where(and(eq(experts.id, expertId), isNull(experts.deletedAt)))
    .limit(1);
  if (!expert) return null;
  // Only a change of state writes: verifying twice keeps the first verification time. The home page
  // features verified experts only, so losing the mark takes an expert off it too.
  const update = db
    .update(experts)
    .set({
      isVerified: verified,
      verifiedAt: verified ? now : null,
      updatedAt: now,
      ...(verified ? {} : { isTopExpert: false }),
    })
    .where(and(eq(experts.id, expertId), isNull(experts.deletedAt), eq(experts.isVerified, !verified)));
  if (verified) {
    await db.batch([
      update,
      ...notificationStatements(
        db,
        {
          userId: expert.userId,
          kind: "expert_verified",
          title: "Your expert profile is verified",
          body: "An administrator verified your profile: it now shows the Verified Expert mark.",
          link: "/expert/dashboard",
          dedupeKey: `expert-verified:${expertId}`,
        },
        // Only when this very update gave the mark (it stamps verified_at with this instant).
        {
          when: sql`exists (select 1 from ${experts} where ${experts.id} = ${expertId} and ${experts.verifiedAt} = ${now.getTime()})`,
        },
      ),
    ]);
  } else {
    await update;
  }
  return { id: expertId, customUrl: expert.customUrl };
}

/**
 * Features or unfeatures an expert (the home page's featured section lists featured experts only).
 * Only a verified expert is featured: `"unverified"` when one is not (or lost the mark meanwhile).
 */
export async function setExpertFeatured(
  db: Database,
  { expertId, featured, now }: { expertId: number; featured: boolean; now: Date },
) {
  const live = and(eq(experts.id, expertId), isNull(experts.deletedAt));
  const [row] = await db
    .update(experts)
    .set({ isTopExpert: featured, updatedAt: now })
    .where(featured ? and(live, eq(experts.isVerified, true)) : live)
    .returning({ id: experts.id, customUrl: experts.customUrl });
  if (row || !featured) return row ?? null;
  const [exists] = await db.select({ id: experts.id }).from(experts).where(live).limit(1);
  return exists ? ("unverified" as const) : null;
}
