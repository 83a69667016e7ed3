/**
 * Turns the demo data (scripts/demo-data.ts) into insertable rows with concrete ids and instants,
 * placed around `now`, through the shared builders in tests/factories.ts. Pure: no I/O.
 */
import { LIVE_BOOKING_STATUSES } from "../../app/db/schema.server";
import { SUBSCRIPTION_QUESTION_CREDIT } from "../../app/lib/questions";
import { DEFAULT_SCHEDULE } from "../../app/lib/slots";
import {
  ANSWER_DEADLINE_MS,
  bookingTimes,
  buildAvailability,
  buildBooking,
  buildContactMessage,
  buildDemoCategories,
  buildExpert,
  buildExpertCategory,
  buildFavorite,
  buildNotification,
  buildPayment,
  buildQuestion,
  buildReview,
  buildUser,
  type NewAvailability,
  type NewBooking,
  type NewCategory,
  type NewContactMessage,
  type NewExpert,
  type NewExpertCategory,
  type NewFavorite,
  type NewNotification,
  type NewPayment,
  type NewQuestion,
  type NewReview,
  type NewUser,
} from "../../tests/factories";
import {
  DEMO_ACCOUNTS,
  DEMO_BOOKINGS,
  DEMO_CATEGORIES,
  DEMO_CLIENTS,
  DEMO_CONTACT_MESSAGES,
  DEMO_EXPERTS,
  DEMO_FAVORITES,
  DEMO_NOTIFICATIONS,
  DEMO_QUESTIONS,
  type DemoAccount,
  type DemoExpert,
  type DemoPerson,
  type DemoReview,
} from "../demo-data";
import { dateInZone, nthMatchingDay } from "./zoned-time";

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** The cron runs every 5 minutes: state changes it makes land a few minutes after the fact. */
const CRON_LAG_MS = 3 * MINUTE_MS;
const REMINDER_AFTER_MS = 12 * HOUR_MS;
const BOOKING_HOLD_MS = 15 * MINUTE_MS;
const SUBSCRIPTION_PRICE = 2000;
const CUSTOM_URL = /^[a-z0-9-]{3,50}$/;

/** Tables in the order they must be inserted (parents before children). */
export const DEMO_TABLES = [
  "categories",
  "users",
  "experts",
  "expert_categories",
  "availability",
  "user_favorites",
  "questions",
  "bookings",
  "reviews",
  "payments",
  "notifications",
  "contact_messages",
] as const;
export type DemoTable = (typeof DEMO_TABLES)[number];

export type DemoRows = {
  categories: NewCategory[];
  users: NewUser[];
  experts: NewExpert[];
  expert_categories: NewExpertCategory[];
  availability: NewAvailability[];
  user_favorites: NewFavorite[];
  questions: NewQuestion[];
  bookings: NewBooking[];
  reviews: NewReview[];
  payments: NewPayment[];
  notifications: NewNotification[];
  contact_messages: NewContactMessage[];
};

export type BuildDemoRowsOptions = {
  now: Date;
  /** The first free id of each table: the seed never reuses an id that is or was taken. */
  firstIds: Record<DemoTable, number>;
  /** Categories already in the database, by slug: they are reused, not inserted again. */
  existingCategoryIds: ReadonlyMap<string, number>;
  /** Password hash for each username the seed creates. */
  passwordHashes: ReadonlyMap<string, string>;
  /** A random token for meeting links. */
  randomToken: () => string;
};

/** Every username the seed creates: the demo accounts, the extra clients and the experts' users. */
export function demoUsernames(): string[] {
  return [...demoPeople().keys()];
}

/** The demo accounts that can sign in, with their passwords; everyone else gets an unusable one. */
export function demoAccounts(): DemoAccount[] {
  return Object.values(DEMO_ACCOUNTS);
}

function demoPeople(): Map<string, DemoPerson & Partial<DemoAccount>> {
  const people = new Map<string, DemoPerson & Partial<DemoAccount>>();
  const add = (person: DemoPerson & Partial<DemoAccount>) => {
    if (!people.has(person.username)) people.set(person.username, person);
  };
  for (const account of demoAccounts()) add(account);
  for (const client of DEMO_CLIENTS) add(client);
  for (const expert of DEMO_EXPERTS) add({ ...expert, role: "expert" });
  return people;
}

function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`Demo data: ${message}`);
}

function checkExpert(expert: DemoExpert): void {
  const where = `expert ${expert.slug}`;
  invariant(
    expert.bio.length >= 100 && expert.bio.length <= 400,
    `${where}: bio must be 100 to 400 characters`,
  );
  invariant(expert.consultingTopics.length <= 300, `${where}: consulting topics longer than 300 characters`);
  invariant(expert.categories.length >= 1 && expert.categories.length <= 3, `${where}: 1 to 3 categories`);
  invariant(expert.questionRate >= 500, `${where}: question rate below 500 cents`);
  invariant(expert.sessionPrice >= 3000, `${where}: session price below 3000 cents`);
  invariant(expert.customUrl === null || CUSTOM_URL.test(expert.customUrl), `${where}: bad custom URL`);
  for (const field of [expert.title, expert.occupation, expert.company, expert.location]) {
    invariant(field === null || field.length <= 100, `${where}: a field is longer than 100 characters`);
  }
}

export function buildDemoRows(options: BuildDemoRowsOptions): DemoRows {
  const { now, firstIds, existingCategoryIds, passwordHashes } = options;
  const at = (msBeforeNow: number) => new Date(now.getTime() - msBeforeNow);
  const nextId = { ...firstIds };
  const take = (table: DemoTable) => {
    const id = nextId[table];
    nextId[table] += 1;
    return id;
  };
  const rows: DemoRows = {
    categories: [],
    users: [],
    experts: [],
    expert_categories: [],
    availability: [],
    user_favorites: [],
    questions: [],
    bookings: [],
    reviews: [],
    payments: [],
    notifications: [],
    contact_messages: [],
  };

  // Categories: reuse the ones that exist (matched by slug), insert the rest.
  const categoryIds = new Map(existingCategoryIds);
  for (const category of buildDemoCategories()) {
    if (categoryIds.has(category.slug)) continue;
    const id = take("categories");
    categoryIds.set(category.slug, id);
    rows.categories.push({ ...category, id, createdAt: at(600 * DAY_MS) });
  }
  const categoryId = (slug: string) => {
    const id = categoryIds.get(slug);
    invariant(id !== undefined, `unknown category ${slug}`);
    return id;
  };
  const categoryName = new Map(DEMO_CATEGORIES.map((category) => [category.slug, category.name]));

  // Users.
  const userIds = new Map<string, number>();
  const userNames = new Map<string, string>();
  const userEmails = new Map<string, string>();
  for (const [username, person] of demoPeople()) {
    const id = take("users");
    const passwordHash = passwordHashes.get(username);
    invariant(passwordHash, `no password hash for ${username}`);
    const name = `${person.firstName} ${person.lastName}`;
    userIds.set(username, id);
    userNames.set(username, name);
    userEmails.set(username, person.email);
    rows.users.push(
      buildUser({
        id,
        username,
        passwordHash,
        email: person.email,
        firstName: person.firstName,
        lastName: person.lastName,
        name,
        role: person.role ?? "user",
        isAdmin: person.isAdmin ?? false,
        subscriptionStatus: person.subscriber ? "active" : null,
        subscriptionEndDate: person.subscriber ? at(-30 * DAY_MS) : null,
        createdAt: at(person.joinedDaysAgo * DAY_MS),
      }),
    );
  }
  const userId = (username: string) => {
    const id = userIds.get(username);
    invariant(id !== undefined, `unknown user ${username}`);
    return id;
  };

  // Experts, their categories and schedules.
  const expertsBySlug = new Map<string, { id: number; demo: DemoExpert }>();
  const customUrls = new Set<string>();
  for (const demo of DEMO_EXPERTS) {
    checkExpert(demo);
    if (demo.customUrl) {
      invariant(!customUrls.has(demo.customUrl), `custom URL ${demo.customUrl} used twice`);
      customUrls.add(demo.customUrl);
    }
    const id = take("experts");
    const createdAt = at(demo.joinedDaysAgo * DAY_MS);
    expertsBySlug.set(demo.slug, { id, demo });
    rows.experts.push(
      buildExpert({
        id,
        userId: userId(demo.username),
        bio: demo.bio,
        expertise: demo.categories.map((slug) => categoryName.get(slug)).join(", "),
        consultingTopics: demo.consultingTopics,
        qualifications: demo.qualifications,
        profileImage: `/images/experts/${demo.slug}.webp`,
        headerImage: demo.headerImage,
        title: demo.title,
        occupation: demo.occupation,
        company: demo.company,
        location: demo.location,
        customUrl: demo.customUrl,
        isTopExpert: demo.isTopExpert,
        isVerified: demo.isVerified,
        verifiedAt: demo.isVerified ? new Date(createdAt.getTime() + 2 * DAY_MS) : null,
        categoryId: categoryId(demo.categories[0]),
        sessionPrice: demo.sessionPrice,
        questionRate: demo.questionRate,
        socialWebsite: demo.socialWebsite,
        timeZone: demo.timeZone,
        isAvailable: demo.isAvailable,
        createdAt,
      }),
    );
    for (const slug of demo.categories) {
      rows.expert_categories.push(
        buildExpertCategory({
          id: take("expert_categories"),
          expertId: id,
          categoryId: categoryId(slug),
          createdAt,
        }),
      );
    }
    for (const slot of demo.availability ?? []) {
      rows.availability.push(
        buildAvailability({ id: take("availability"), expertId: id, ...slot, createdAt }),
      );
    }
  }
  const expert = (slug: string) => {
    const found = expertsBySlug.get(slug);
    invariant(found, `unknown expert ${slug}`);
    return found;
  };

  for (const favorite of DEMO_FAVORITES) {
    rows.user_favorites.push(
      buildFavorite({
        id: take("user_favorites"),
        userId: userId(favorite.user),
        expertId: expert(favorite.expert).id,
        createdAt: at(10 * DAY_MS),
      }),
    );
  }

  const addReview = (
    review: DemoReview,
    ids: { userId: number; expertId: number; questionId?: number; bookingId?: number },
    after: Date,
  ) => {
    const createdAt = new Date(Math.min(after.getTime() + 3 * HOUR_MS, now.getTime() - 10 * MINUTE_MS));
    rows.reviews.push(buildReview({ id: take("reviews"), ...ids, ...review, createdAt }));
  };

  // Questions, their reviews and their lines in the payments ledger.
  const questionRows = new Map<string, NewQuestion>();
  for (const demo of DEMO_QUESTIONS) {
    const { id: expertId, demo: expertDemo } = expert(demo.expert);
    const id = take("questions");
    const askerId = userId(demo.asker);
    const createdAt = at(demo.askedHoursAgo * HOUR_MS);
    const paid = demo.status !== "awaiting_payment";
    const paidAt = paid ? new Date(createdAt.getTime() + MINUTE_MS) : null;
    const deadlineAt = paidAt ? new Date(paidAt.getTime() + ANSWER_DEADLINE_MS) : null;
    const handledAt =
      paidAt && demo.handledAfterHours !== undefined
        ? new Date(paidAt.getTime() + demo.handledAfterHours * HOUR_MS)
        : null;
    const lastActivity = handledAt ?? (demo.status === "expired" ? deadlineAt : now);
    const reminderSentAt =
      paidAt && lastActivity && lastActivity.getTime() - paidAt.getTime() > REMINDER_AFTER_MS
        ? new Date(paidAt.getTime() + REMINDER_AFTER_MS + CRON_LAG_MS)
        : null;
    const amount = demo.viaSubscription ? 0 : expertDemo.questionRate;

    invariant(demo.question.length >= 10, `question ${demo.key} is shorter than 10 characters`);
    invariant(paidAt === null || paidAt < now, `question ${demo.key} is paid in the future`);
    invariant(
      (demo.status === "answered") === (demo.answer !== undefined),
      `question ${demo.key}: answer iff answered`,
    );
    invariant(
      ["answered", "rejected"].includes(demo.status) === (handledAt !== null),
      `question ${demo.key}: handledAfterHours iff answered or rejected`,
    );
    invariant(handledAt === null || handledAt < now, `question ${demo.key} is handled in the future`);
    invariant(
      !["pending", "in_progress"].includes(demo.status) || (deadlineAt !== null && deadlineAt > now),
      `question ${demo.key} is open past its deadline`,
    );
    invariant(
      demo.status !== "expired" || (deadlineAt !== null && deadlineAt < now),
      `question ${demo.key} expired before its deadline`,
    );

    const paymentStates: Record<typeof demo.status, NonNullable<NewQuestion["paymentState"]>> = {
      awaiting_payment: "none",
      pending: "test_mode",
      in_progress: "test_mode",
      answered: "captured",
      rejected: "cancelled",
      expired: "cancelled",
    };
    const paymentState = paymentStates[demo.status];

    const row = buildQuestion({
      id,
      userId: askerId,
      expertId,
      name: userNames.get(demo.asker),
      email: userEmails.get(demo.asker),
      question: demo.question,
      answer: demo.answer ?? null,
      requestAudioResponse: demo.requestAudioResponse ?? false,
      showOnProfile: demo.showOnProfile ?? false,
      status: demo.status,
      amount,
      paymentState: demo.viaSubscription ? "subscription" : paymentState,
      subscriptionDay: demo.viaSubscription && paidAt ? paidAt.toISOString().slice(0, 10) : null,
      paidAt,
      deadlineAt,
      reminderSentAt,
      answeredAt: demo.status === "answered" ? handledAt : null,
      declinedAt: demo.status === "rejected" ? handledAt : null,
      expiredAt:
        demo.status === "expired" && deadlineAt ? new Date(deadlineAt.getTime() + CRON_LAG_MS) : null,
      createdAt,
    });
    rows.questions.push(row);
    questionRows.set(demo.key, row);

    if (demo.review) {
      invariant(
        demo.status === "answered" && handledAt,
        `question ${demo.key}: only answered questions are reviewed`,
      );
      addReview(demo.review, { userId: askerId, expertId, questionId: id }, handledAt);
    }

    // Every paid question owes its expert a ledger line; a subscriber's question pays the standard
    // fee (kind subscription_question, as askQuestion writes it), covered by the charges below.
    if (paidAt) {
      const settledAt = demo.status === "answered" ? handledAt : null;
      const closedAt =
        demo.status === "rejected" ? handledAt : demo.status === "expired" ? row.expiredAt : null;
      rows.payments.push(
        buildPayment({
          id: take("payments"),
          kind: demo.viaSubscription ? "subscription_question" : "question",
          status: demo.status === "answered" ? "captured" : closedAt ? "cancelled" : "authorized",
          amount: demo.viaSubscription ? SUBSCRIPTION_QUESTION_CREDIT : amount,
          userId: askerId,
          expertId,
          questionId: id,
          createdAt: paidAt,
          updatedAt: settledAt ?? closedAt ?? paidAt,
          settledAt,
        }),
      );
    }
  }

  // Bookings on the experts' bookable days and hours, their reviews and ledger lines.
  const bookingRows = new Map<string, NewBooking>();
  const liveSlots = new Set<string>();
  for (const demo of DEMO_BOOKINGS) {
    const { id: expertId, demo: expertDemo } = expert(demo.expert);
    const id = take("bookings");
    const clientId = userId(demo.client);
    const schedule = expertDemo.availability ?? DEFAULT_SCHEDULE;
    const today = dateInZone(now, expertDemo.timeZone);
    const date = nthMatchingDay(
      today,
      demo.bookableDay,
      schedule.map((slot) => slot.dayOfWeek),
    );
    const times = bookingTimes(date, demo.startTime, expertDemo.timeZone);
    const startsAt = times.startsAt as Date;
    const endsAt = times.endsAt as Date;
    const withinSchedule = schedule.some(
      (slot) =>
        slot.dayOfWeek === new Date(`${date}T00:00:00Z`).getUTCDay() &&
        slot.startTime <= times.startTime &&
        (times.endTime as string) <= slot.endTime,
    );
    invariant(withinSchedule, `booking ${demo.key} is outside ${demo.expert}'s schedule`);
    const past = demo.status === "completed";
    invariant(past === endsAt < now, `booking ${demo.key}: only completed sessions are in the past`);
    if ((LIVE_BOOKING_STATUSES as readonly string[]).includes(demo.status)) {
      const slot = `${expertId}@${startsAt.getTime()}`;
      invariant(!liveSlots.has(slot), `booking ${demo.key} takes a slot that is already held`);
      liveSlots.add(slot);
    }

    const createdAt = {
      awaiting_payment: at(5 * MINUTE_MS),
      pending: at(20 * MINUTE_MS),
      confirmed: at(2 * DAY_MS),
      completed: new Date(startsAt.getTime() - 4 * DAY_MS),
      cancelled: at(3 * DAY_MS),
      expired: at(3 * HOUR_MS),
    }[demo.status];
    const paid = ["confirmed", "completed", "cancelled"].includes(demo.status);
    const confirmedAt = paid ? new Date(createdAt.getTime() + 2 * MINUTE_MS) : null;
    const cancelledAt = demo.status === "cancelled" ? at(1 * DAY_MS) : null;
    const refundedAt = cancelledAt ? new Date(cancelledAt.getTime() + MINUTE_MS) : null;

    const row = buildBooking({
      id,
      userId: clientId,
      expertId,
      ...times,
      status: demo.status,
      meetingLink: paid ? `https://meet.jit.si/expert-answers-${options.randomToken()}` : null,
      amount: expertDemo.sessionPrice,
      name: userNames.get(demo.client),
      email: userEmails.get(demo.client),
      notes: demo.notes,
      holdExpiresAt: ["awaiting_payment", "expired"].includes(demo.status)
        ? new Date(createdAt.getTime() + BOOKING_HOLD_MS)
        : null,
      confirmedAt,
      linkSentAt: past ? new Date(startsAt.getTime() - 15 * MINUTE_MS) : null,
      completedAt: past ? new Date(endsAt.getTime() + CRON_LAG_MS) : null,
      cancelledAt,
      cancelledBy: cancelledAt ? clientId : null,
      refundedAt,
      createdAt,
    });
    rows.bookings.push(row);
    bookingRows.set(demo.key, row);

    if (demo.review) {
      invariant(past, `booking ${demo.key}: only completed sessions are reviewed`);
      addReview(demo.review, { userId: clientId, expertId, bookingId: id }, endsAt);
    }

    if (paid || demo.status === "pending") {
      rows.payments.push(
        buildPayment({
          id: take("payments"),
          kind: "booking",
          status: demo.status === "pending" ? "pending" : refundedAt ? "refunded" : "captured",
          amount: expertDemo.sessionPrice,
          userId: clientId,
          expertId,
          bookingId: id,
          createdAt,
          updatedAt: refundedAt ?? confirmedAt ?? createdAt,
          settledAt: refundedAt ?? confirmedAt,
        }),
      );
    }
  }

  // The subscriber's two monthly charges: the first month and today's renewal.
  for (const account of demoAccounts().filter((candidate) => candidate.subscriber)) {
    for (const daysAgo of [30, 0]) {
      const paidAt = at(daysAgo * DAY_MS + HOUR_MS);
      rows.payments.push(
        buildPayment({
          id: take("payments"),
          kind: "subscription",
          status: "captured",
          amount: SUBSCRIPTION_PRICE,
          userId: userId(account.username),
          createdAt: paidAt,
          updatedAt: paidAt,
          settledAt: paidAt,
        }),
      );
    }
  }

  for (const demo of DEMO_NOTIFICATIONS) {
    let createdAt: Date | null | undefined;
    let dedupeKey: string;
    if ("question" in demo.about) {
      const question = questionRows.get(demo.about.question);
      invariant(question, `notification about unknown question ${demo.about.question}`);
      createdAt = demo.kind === "question_answered" ? question.answeredAt : question.paidAt;
      dedupeKey = `${demo.kind}:question:${question.id}`;
    } else {
      const booking = bookingRows.get(demo.about.booking);
      invariant(booking, `notification about unknown booking ${demo.about.booking}`);
      createdAt = booking.cancelledAt ?? booking.confirmedAt;
      dedupeKey = `${demo.kind}:booking:${booking.id}`;
    }
    invariant(createdAt, `notification ${dedupeKey} has no event to date it from`);
    rows.notifications.push(
      buildNotification({
        id: take("notifications"),
        userId: userId(demo.user),
        kind: demo.kind,
        title: demo.title,
        body: demo.body,
        link: demo.link,
        dedupeKey,
        readAt: demo.read ? new Date(Math.min(createdAt.getTime() + HOUR_MS, now.getTime())) : null,
        createdAt,
      }),
    );
  }

  for (const demo of DEMO_CONTACT_MESSAGES) {
    const createdAt = at(demo.sentHoursAgo * HOUR_MS);
    rows.contact_messages.push(
      buildContactMessage({
        id: take("contact_messages"),
        name: demo.name,
        email: demo.email,
        subject: demo.subject,
        message: demo.message,
        handledAt:
          demo.handledAfterHours === undefined
            ? null
            : new Date(createdAt.getTime() + demo.handledAfterHours * HOUR_MS),
        createdAt,
      }),
    );
  }

  return rows;
}
