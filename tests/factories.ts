/**
 * Builders of valid, insertable rows for tests, shared with the demo seed (scripts/seed.ts), so both
 * hold one idea of what a valid row is. Each builder fills sensible defaults and takes overrides;
 * the insert helpers write through a drizzle database from ~/db/client.server's createDatabase.
 *
 * Pure TypeScript: this file runs inside workerd in the integration tests, so no Node-only imports.
 */
import { asc } from "drizzle-orm";
import { hashPassword } from "../app/auth/password.server";
import type { Database } from "../app/db/client.server";
import {
  type availability,
  bookings,
  categories,
  type contactMessages,
  expertCategories,
  experts,
  type notifications,
  type payments,
  questions,
  reviews,
  type userFavorites,
  users,
} from "../app/db/schema.server";
import { DEMO_CATEGORIES } from "../scripts/demo-data";
import { addDays, addMinutesToTime, zonedTimeToInstant } from "../scripts/lib/zoned-time";

export type NewUser = typeof users.$inferInsert;
export type NewCategory = typeof categories.$inferInsert;
export type NewExpert = typeof experts.$inferInsert;
export type NewExpertCategory = typeof expertCategories.$inferInsert;
export type NewAvailability = typeof availability.$inferInsert;
export type NewFavorite = typeof userFavorites.$inferInsert;
export type NewQuestion = typeof questions.$inferInsert;
export type NewBooking = typeof bookings.$inferInsert;
export type NewReview = typeof reviews.$inferInsert;
export type NewPayment = typeof payments.$inferInsert;
export type NewNotification = typeof notifications.$inferInsert;
export type NewContactMessage = typeof contactMessages.$inferInsert;

const HOUR_MS = 60 * 60 * 1000;
/** Questions must be answered within this long of being paid (SPEC.md: 24 hours). */
export const ANSWER_DEADLINE_MS = 24 * HOUR_MS;
export const SESSION_MINUTES = 60;

/**
 * A stored password that no password verifies (verifyPassword rejects an unknown scheme), for
 * accounts that must not be signed in to. Use buildUserWithPassword for one that can.
 */
export const UNUSABLE_PASSWORD_HASH = "!unusable";

let sequence = 0;
/** A number unique within this test run, for names and e-mail addresses that must not collide. */
export function nextSequence(): number {
  sequence += 1;
  return sequence;
}

export function buildUser(overrides: Partial<NewUser> = {}): NewUser {
  const n = nextSequence();
  const firstName = overrides.firstName ?? "Test";
  const lastName = overrides.lastName ?? `User ${n}`;
  return {
    username: `user-${n}`,
    email: `user-${n}@example.com`,
    firstName,
    lastName,
    name: `${firstName} ${lastName}`,
    role: "user",
    isAdmin: false,
    passwordHash: UNUSABLE_PASSWORD_HASH,
    ...overrides,
  };
}

/** A user row whose password is `password` (PBKDF2, as the app stores it). */
export async function buildUserWithPassword(
  password: string,
  overrides: Partial<NewUser> = {},
): Promise<NewUser> {
  return buildUser({ ...overrides, passwordHash: await hashPassword(password) });
}

export function buildCategory(overrides: Partial<NewCategory> = {}): NewCategory {
  const n = nextSequence();
  return {
    name: `Category ${n}`,
    slug: `category-${n}`,
    description: `Questions about category ${n}.`,
    displayOrder: 1000 + n,
    ...overrides,
  };
}

/** The ten categories in SPEC.md's display order, with the demo descriptions and images. */
export function buildDemoCategories(): NewCategory[] {
  return DEMO_CATEGORIES.map((category) => ({
    name: category.name,
    slug: category.slug,
    description: category.description,
    imageUrl: category.imageUrl,
    iconUrl: category.iconUrl,
    displayOrder: category.displayOrder,
  }));
}

export function buildExpert(overrides: Partial<NewExpert> & Pick<NewExpert, "userId">): NewExpert {
  return {
    bio: "Fifteen years of helping small companies find customers, price their work and grow steadily.",
    expertise: "Starting a Business",
    consultingTopics: "Business plans, pricing, first customers",
    title: "Small Business Advisor",
    occupation: "Consultant",
    questionRate: 500,
    sessionPrice: 10000,
    timeZone: "America/New_York",
    isAvailable: true,
    isTopExpert: false,
    isVerified: false,
    ...overrides,
  };
}

export function buildExpertCategory(
  overrides: Partial<NewExpertCategory> & Pick<NewExpertCategory, "expertId" | "categoryId">,
): NewExpertCategory {
  return { ...overrides };
}

export function buildAvailability(
  overrides: Partial<NewAvailability> & Pick<NewAvailability, "expertId">,
): NewAvailability {
  return { dayOfWeek: 1, startTime: "09:00", endTime: "17:00", ...overrides };
}

export function buildFavorite(
  overrides: Partial<NewFavorite> & Pick<NewFavorite, "userId" | "expertId">,
): NewFavorite {
  return { ...overrides };
}

/**
 * A question. By default it is paid (in test mode) and waiting for the expert: status pending,
 * paid now, due 24 hours later. Pass `status`, `answer` and times for the other states.
 */
export function buildQuestion(overrides: Partial<NewQuestion> = {}): NewQuestion {
  const paidAt = overrides.paidAt ?? new Date();
  return {
    question: "How should I price my first consulting package for small businesses?",
    status: "pending",
    amount: 500,
    currency: "usd",
    paymentState: "test_mode",
    requestAudioResponse: false,
    showOnProfile: false,
    paidAt,
    deadlineAt: new Date(paidAt.getTime() + ANSWER_DEADLINE_MS),
    createdAt: paidAt,
    ...overrides,
  };
}

/** A booking's local date and times and its UTC instants, from the expert's wall clock and zone. */
export function bookingTimes(
  date: string,
  startTime: string,
  timeZone = "UTC",
  duration = SESSION_MINUTES,
): Pick<NewBooking, "date" | "startTime" | "endTime" | "startsAt" | "endsAt" | "duration"> {
  const startsAt = zonedTimeToInstant(date, startTime, timeZone);
  return {
    date,
    startTime,
    endTime: addMinutesToTime(startTime, duration),
    startsAt,
    endsAt: new Date(startsAt.getTime() + duration * 60 * 1000),
    duration,
  };
}

/**
 * A confirmed, paid booking. Without times it takes 10:00 UTC on a day at least a week ahead,
 * a different day per call, so two built bookings never hold the same slot.
 */
export function buildBooking(overrides: Partial<NewBooking> & Pick<NewBooking, "expertId">): NewBooking {
  const today = new Date().toISOString().slice(0, 10);
  const times = bookingTimes(addDays(today, 7 + nextSequence()), "10:00");
  return {
    ...times,
    status: "confirmed",
    amount: 10000,
    currency: "usd",
    name: "Test Client",
    email: "client@example.com",
    notes: "I'd like to talk through my pricing and the first hires.",
    meetingLink: `https://meet.jit.si/expert-answers-${randomToken()}`,
    confirmedAt: new Date(),
    ...overrides,
  };
}

export function buildReview(overrides: Partial<NewReview> & Pick<NewReview, "expertId">): NewReview {
  return { rating: 5, comment: "Clear, practical and quick. Exactly what I needed.", ...overrides };
}

export function buildPayment(
  overrides: Partial<NewPayment> & Pick<NewPayment, "kind" | "amount">,
): NewPayment {
  return { status: "pending", currency: "usd", ...overrides };
}

export function buildNotification(
  overrides: Partial<NewNotification> & Pick<NewNotification, "userId">,
): NewNotification {
  return {
    kind: "question_answered",
    title: "Your question was answered",
    body: "An expert answered your question.",
    ...overrides,
  };
}

export function buildContactMessage(overrides: Partial<NewContactMessage> = {}): NewContactMessage {
  const n = nextSequence();
  return {
    name: `Visitor ${n}`,
    email: `visitor-${n}@example.com`,
    subject: "A question about the marketplace",
    message: "Hello, I have a question about how the marketplace works.",
    ...overrides,
  };
}

/** 12 random hex characters (WebCrypto, so it works in Node and workerd). */
export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// Insert helpers: each writes one row (or the demo categories) and returns what the database holds.

/** Inserts the ten demo categories unless they exist; returns all categories in display order. */
export async function insertDemoCategories(db: Database) {
  await db.insert(categories).values(buildDemoCategories()).onConflictDoNothing();
  return db.select().from(categories).orderBy(asc(categories.displayOrder), asc(categories.name));
}

/** Inserts a user; with `password` it can sign in with it. */
export async function insertUser(db: Database, overrides: Partial<NewUser> & { password?: string } = {}) {
  const { password, ...rest } = overrides;
  const row = password === undefined ? buildUser(rest) : await buildUserWithPassword(password, rest);
  const [user] = await db.insert(users).values(row).returning();
  return user;
}

/**
 * Inserts a user with role expert and their expert profile, linked to `categoryIds` (the first one
 * becomes the profile's main category).
 */
export async function insertExpert(
  db: Database,
  options: {
    user?: Partial<NewUser> & { password?: string };
    expert?: Partial<NewExpert>;
    categoryIds?: number[];
  } = {},
) {
  const user = await insertUser(db, { role: "expert", ...options.user });
  const categoryIds = options.categoryIds ?? [];
  const [expert] = await db
    .insert(experts)
    .values(buildExpert({ userId: user.id, categoryId: categoryIds[0] ?? null, ...options.expert }))
    .returning();
  if (categoryIds.length > 0) {
    await db
      .insert(expertCategories)
      .values(categoryIds.map((categoryId) => buildExpertCategory({ expertId: expert.id, categoryId })));
  }
  return { user, expert };
}

export async function insertQuestion(db: Database, overrides: Partial<NewQuestion> = {}) {
  const [question] = await db.insert(questions).values(buildQuestion(overrides)).returning();
  return question;
}

export async function insertBooking(
  db: Database,
  overrides: Partial<NewBooking> & Pick<NewBooking, "expertId">,
) {
  const [booking] = await db.insert(bookings).values(buildBooking(overrides)).returning();
  return booking;
}

export async function insertReview(
  db: Database,
  overrides: Partial<NewReview> & Pick<NewReview, "expertId">,
) {
  const [review] = await db.insert(reviews).values(buildReview(overrides)).returning();
  return review;
}
