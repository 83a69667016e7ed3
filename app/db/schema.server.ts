/**
 * The database shape: the single source of truth. Migrations in /migrations are generated from it
 * with `npm run db:generate` and reviewed before they land.
 *
 * Conventions: money is integer cents; instants are integer milliseconds since the epoch (UTC);
 * booleans are 0/1 integers; text enums are checked by the database.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const id = () => integer("id").primaryKey({ autoIncrement: true });
const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`);
const instant = (name: string) => integer(name, { mode: "timestamp_ms" });
const flag = (name: string) => integer(name, { mode: "boolean" }).notNull().default(false);

export const USER_ROLES = ["user", "expert", "admin"] as const;
export const QUESTION_STATUSES = [
  "awaiting_payment",
  "pending",
  "in_progress",
  "answered",
  "rejected",
  "expired",
] as const;
export const QUESTION_PAYMENT_STATES = [
  "none",
  "test_mode",
  "subscription",
  "authorized",
  "captured",
  "capture_failed",
  "cancelled",
] as const;
export const BOOKING_STATUSES = [
  "awaiting_payment",
  "pending",
  "confirmed",
  "completed",
  "cancelled",
  "expired",
] as const;
/** Booking statuses that occupy a slot: at most one such booking per expert and start. */
export const LIVE_BOOKING_STATUSES = ["awaiting_payment", "pending", "confirmed", "completed"] as const;
export const SUBSCRIPTION_STATUSES = [
  "incomplete",
  "active",
  "past_due",
  "canceled",
  "unpaid",
  "lapsed",
] as const;
export const PAYMENT_KINDS = ["question", "booking", "subscription", "subscription_question"] as const;
export const PAYMENT_STATUSES = [
  "pending",
  "authorized",
  "captured",
  "cancelled",
  "refunded",
  "failed",
] as const;
export const EMAIL_STATUSES = ["pending", "sent", "failed", "logged"] as const;

const inList = (column: string, values: readonly string[]) =>
  sql.raw(`${column} in (${values.map((value) => `'${value}'`).join(", ")})`);

export const users = sqliteTable(
  "users",
  {
    id: id(),
    username: text("username").notNull(),
    passwordHash: text("password_hash").notNull(),
    email: text("email").notNull(),
    name: text("name"),
    firstName: text("first_name"),
    lastName: text("last_name"),
    role: text("role", { enum: USER_ROLES }).notNull().default("user"),
    isAdmin: flag("is_admin"),
    profileImage: text("profile_image"),
    stripeCustomerId: text("stripe_customer_id"),
    stripeSubscriptionId: text("stripe_subscription_id"),
    subscriptionStatus: text("subscription_status", { enum: SUBSCRIPTION_STATUSES }),
    subscriptionEndDate: instant("subscription_end_date"),
    subscriptionCancelAtPeriodEnd: flag("subscription_cancel_at_period_end"),
    /** Last Stripe subscription event applied, so events arriving out of order never roll state back. */
    subscriptionEventAt: instant("subscription_event_at"),
    passwordChangedAt: instant("password_changed_at"),
    deletedAt: instant("deleted_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("users_username_unique").on(sql`lower(${t.username})`),
    uniqueIndex("users_stripe_customer_unique").on(t.stripeCustomerId),
    uniqueIndex("users_stripe_subscription_unique").on(t.stripeSubscriptionId),
    index("users_subscription_end_idx").on(t.subscriptionStatus, t.subscriptionEndDate),
    check("users_role_check", inList("role", USER_ROLES)),
  ],
);

/** Server-side sessions. The cookie holds a random token; only its SHA-256 is stored. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: instant("expires_at").notNull(),
    lastSeenAt: instant("last_seen_at"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

/** Failed sign-ins per key ("user:name" or "ip:addr") for throttling. */
export const loginThrottle = sqliteTable("login_throttle", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  windowStartedAt: instant("window_started_at").notNull(),
  lockedUntil: instant("locked_until"),
});

/**
 * The networks each username has signed in from ("name|network"), for 30 days after the last time.
 * Strangers' wrong guesses from elsewhere lock the account's sign-in, but not from these.
 */
export const trustedSignInNetworks = sqliteTable("trusted_sign_in_networks", {
  key: text("key").primaryKey(),
  trustedUntil: instant("trusted_until").notNull(),
});

/** Requests per client address and action in a fixed window (contact messages, sign-ups...). */
export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull().default(0),
  windowStartedAt: instant("window_started_at").notNull(),
});

export const categories = sqliteTable(
  "categories",
  {
    id: id(),
    name: text("name", { length: 100 }).notNull(),
    slug: text("slug", { length: 100 }).notNull(),
    description: text("description"),
    iconUrl: text("icon_url"),
    imageUrl: text("image_url"),
    /** Position in SPEC.md's fixed display order. */
    displayOrder: integer("display_order").notNull().default(1000),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("categories_name_unique").on(t.name),
    uniqueIndex("categories_slug_unique").on(t.slug),
    index("categories_order_idx").on(t.displayOrder, t.name),
  ],
);

/**
 * Migration 0002 (experts_search_fts) keeps an FTS5 index of experts in step with triggers on
 * experts, users, expert_categories and categories. A migration that rebuilds one of those tables
 * (drizzle-kit does for some column changes in SQLite) drops its triggers: recreate them in it.
 */
export const experts = sqliteTable(
  "experts",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    bio: text("bio").notNull().default(""),
    /** Comma-separated category names (SPEC.md). */
    expertise: text("expertise").notNull().default(""),
    consultingTopics: text("consulting_topics"),
    qualifications: text("qualifications"),
    profileImage: text("profile_image"),
    headerImage: text("header_image"),
    title: text("title", { length: 100 }),
    occupation: text("occupation", { length: 100 }),
    company: text("company", { length: 100 }),
    location: text("location", { length: 100 }),
    customUrl: text("custom_url", { length: 50 }),
    isTopExpert: flag("is_top_expert"),
    isVerified: flag("is_verified"),
    verifiedAt: instant("verified_at"),
    categoryId: integer("category_id").references(() => categories.id, { onDelete: "set null" }),
    sessionPrice: integer("session_price").notNull().default(10000),
    questionRate: integer("question_rate").notNull().default(500),
    socialInstagram: text("social_instagram"),
    socialTwitter: text("social_twitter"),
    socialLinkedIn: text("social_linkedin"),
    socialWebsite: text("social_website"),
    /** IANA zone the weekly schedule is written in. */
    timeZone: text("time_zone").notNull().default("America/New_York"),
    isAvailable: integer("is_available", { mode: "boolean" }).notNull().default(true),
    /** Set when the owner deletes their account: the profile disappears, bookings and payments stay. */
    deletedAt: instant("deleted_at"),
    createdAt: createdAt(),
    updatedAt: instant("updated_at"),
  },
  (t) => [
    uniqueIndex("experts_user_unique").on(t.userId),
    uniqueIndex("experts_custom_url_unique").on(sql`lower(${t.customUrl})`),
    index("experts_category_idx").on(t.categoryId),
    index("experts_top_idx").on(t.isTopExpert, t.id),
    index("experts_question_rate_idx").on(t.questionRate),
    /** Browse's default "recommended" order (top, then verified, then oldest), walked without a sort. */
    index("experts_recommended_idx").on(sql`${t.isTopExpert} desc`, sql`${t.isVerified} desc`, t.id),
    check("experts_question_rate_check", sql`${t.questionRate} >= 500`),
    check("experts_session_price_check", sql`${t.sessionPrice} >= 0`),
  ],
);

export const expertCategories = sqliteTable(
  "expert_categories",
  {
    id: id(),
    expertId: integer("expert_id")
      .notNull()
      .references(() => experts.id, { onDelete: "cascade" }),
    categoryId: integer("category_id")
      .notNull()
      .references(() => categories.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("expert_categories_unique").on(t.expertId, t.categoryId),
    index("expert_categories_category_idx").on(t.categoryId, t.expertId),
  ],
);

export const userFavorites = sqliteTable(
  "user_favorites",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expertId: integer("expert_id")
      .notNull()
      .references(() => experts.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("user_favorites_unique").on(t.userId, t.expertId),
    index("user_favorites_expert_idx").on(t.expertId),
  ],
);

export const questions = sqliteTable(
  "questions",
  {
    id: id(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    expertId: integer("expert_id").references(() => experts.id, { onDelete: "set null" }),
    name: text("name"),
    email: text("email"),
    question: text("question").notNull(),
    answer: text("answer"),
    /** R2 key of the recorded answer. */
    audioResponse: text("audio_response"),
    /** True container type of the recording (audio/webm, audio/ogg, audio/mp4, audio/mpeg...). */
    audioContentType: text("audio_content_type"),
    requestAudioResponse: flag("request_audio_response"),
    /** The asker lets the answered question appear on the expert's public profile. */
    showOnProfile: flag("show_on_profile"),
    status: text("status", { enum: QUESTION_STATUSES }).notNull().default("pending"),
    amount: integer("amount").notNull().default(0),
    currency: text("currency").notNull().default("usd"),
    paymentIntentId: text("payment_intent_id"),
    paymentState: text("payment_state", { enum: QUESTION_PAYMENT_STATES }).notNull().default("none"),
    /** UTC day (yyyy-MM-dd) a subscriber's question used; unique per user, cleared to restore it. */
    subscriptionDay: text("subscription_day"),
    paidAt: instant("paid_at"),
    deadlineAt: instant("deadline_at"),
    reminderSentAt: instant("reminder_sent_at"),
    answeredAt: instant("answered_at"),
    declinedAt: instant("declined_at"),
    expiredAt: instant("expired_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("questions_payment_intent_unique").on(t.paymentIntentId),
    uniqueIndex("questions_subscription_day_unique")
      .on(t.userId, t.subscriptionDay)
      .where(sql`${t.subscriptionDay} is not null`),
    index("questions_expert_status_idx").on(t.expertId, t.status, t.createdAt),
    index("questions_user_idx").on(t.userId, t.createdAt),
    index("questions_status_deadline_idx").on(t.status, t.deadlineAt),
    index("questions_payment_state_idx").on(t.paymentState),
    check("questions_status_check", inList("status", QUESTION_STATUSES)),
  ],
);

export const availability = sqliteTable(
  "availability",
  {
    id: id(),
    expertId: integer("expert_id")
      .notNull()
      .references(() => experts.id, { onDelete: "cascade" }),
    /** 0 = Sunday ... 6 = Saturday, in the expert's time zone. */
    dayOfWeek: integer("day_of_week").notNull(),
    /** "HH:MM" in the expert's time zone. */
    startTime: text("start_time").notNull(),
    endTime: text("end_time").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("availability_expert_idx").on(t.expertId, t.dayOfWeek),
    check("availability_day_check", sql`${t.dayOfWeek} between 0 and 6`),
    check("availability_range_check", sql`${t.startTime} < ${t.endTime}`),
  ],
);

export const bookings = sqliteTable(
  "bookings",
  {
    id: id(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    expertId: integer("expert_id")
      .notNull()
      .references(() => experts.id, { onDelete: "cascade" }),
    /** The expert's local date (yyyy-MM-dd) and times (HH:MM), as they were when booked. */
    date: text("date").notNull(),
    startTime: text("start_time").notNull(),
    endTime: text("end_time").notNull(),
    /** The session's start and end as UTC instants: the truth for ordering and deadlines. */
    startsAt: instant("starts_at").notNull(),
    endsAt: instant("ends_at").notNull(),
    duration: integer("duration").notNull().default(60),
    status: text("status", { enum: BOOKING_STATUSES }).notNull().default("pending"),
    meetingLink: text("meeting_link"),
    paymentIntentId: text("payment_intent_id"),
    amount: integer("amount").notNull().default(0),
    currency: text("currency").notNull().default("usd"),
    name: text("name"),
    email: text("email"),
    notes: text("notes"),
    /** The zone the client booked from: their notices give the time in it. Null when not known. */
    clientTimeZone: text("client_time_zone"),
    holdExpiresAt: instant("hold_expires_at"),
    confirmedAt: instant("confirmed_at"),
    linkSentAt: instant("link_sent_at"),
    completedAt: instant("completed_at"),
    cancelledAt: instant("cancelled_at"),
    cancelledBy: integer("cancelled_by").references(() => users.id, { onDelete: "set null" }),
    refundId: text("refund_id"),
    refundedAt: instant("refunded_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("bookings_payment_intent_unique").on(t.paymentIntentId),
    uniqueIndex("bookings_live_slot_unique")
      .on(t.expertId, t.startsAt)
      .where(inList("status", LIVE_BOOKING_STATUSES)),
    index("bookings_expert_start_idx").on(t.expertId, t.startsAt),
    index("bookings_user_start_idx").on(t.userId, t.startsAt),
    index("bookings_status_start_idx").on(t.status, t.startsAt),
    index("bookings_status_hold_idx").on(t.status, t.holdExpiresAt),
    check("bookings_status_check", inList("status", BOOKING_STATUSES)),
  ],
);

export const reviews = sqliteTable(
  "reviews",
  {
    id: id(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    expertId: integer("expert_id")
      .notNull()
      .references(() => experts.id, { onDelete: "cascade" }),
    rating: integer("rating").notNull(),
    comment: text("comment"),
    bookingId: integer("booking_id").references(() => bookings.id, { onDelete: "set null" }),
    questionId: integer("question_id").references(() => questions.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("reviews_expert_idx").on(t.expertId, t.createdAt),
    uniqueIndex("reviews_booking_unique").on(t.bookingId),
    uniqueIndex("reviews_question_unique").on(t.questionId),
    check("reviews_rating_check", sql`${t.rating} between 1 and 5`),
  ],
);

/**
 * The payments ledger: one line per money movement we owe or are owed. Earnings read from here.
 * Personal details live on users/questions/bookings, so deleting a person keeps these lines intact.
 */
export const payments = sqliteTable(
  "payments",
  {
    id: id(),
    kind: text("kind", { enum: PAYMENT_KINDS }).notNull(),
    status: text("status", { enum: PAYMENT_STATUSES }).notNull().default("pending"),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull().default("usd"),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    expertId: integer("expert_id").references(() => experts.id, { onDelete: "set null" }),
    questionId: integer("question_id").references(() => questions.id, { onDelete: "set null" }),
    bookingId: integer("booking_id").references(() => bookings.id, { onDelete: "set null" }),
    stripePaymentIntentId: text("stripe_payment_intent_id"),
    stripeInvoiceId: text("stripe_invoice_id"),
    stripeRefundId: text("stripe_refund_id"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    updatedAt: instant("updated_at"),
    settledAt: instant("settled_at"),
  },
  (t) => [
    uniqueIndex("payments_question_unique").on(t.questionId),
    uniqueIndex("payments_booking_unique").on(t.bookingId),
    uniqueIndex("payments_invoice_unique").on(t.stripeInvoiceId),
    index("payments_expert_idx").on(t.expertId, t.status, t.createdAt),
    index("payments_user_idx").on(t.userId),
    index("payments_intent_idx").on(t.stripePaymentIntentId),
    check("payments_amount_check", sql`${t.amount} >= 0`),
  ],
);

/** Stripe webhook events already handled: each event id is processed once. */
export const stripeEvents = sqliteTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  processedAt: createdAt(),
});

export const notifications = sqliteTable(
  "notifications",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    link: text("link"),
    /** Makes a notification idempotent: the same event never notifies the same person twice. */
    dedupeKey: text("dedupe_key"),
    readAt: instant("read_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("notifications_user_idx").on(t.userId, t.readAt, t.createdAt),
    uniqueIndex("notifications_dedupe_unique").on(t.userId, t.dedupeKey),
  ],
);

export const emailOutbox = sqliteTable(
  "email_outbox",
  {
    id: id(),
    toEmail: text("to_email").notNull(),
    subject: text("subject").notNull(),
    bodyText: text("body_text").notNull(),
    bodyHtml: text("body_html"),
    notificationId: integer("notification_id").references(() => notifications.id, { onDelete: "set null" }),
    status: text("status", { enum: EMAIL_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: instant("next_attempt_at"),
    lastError: text("last_error"),
    providerMessageId: text("provider_message_id"),
    sentAt: instant("sent_at"),
    createdAt: createdAt(),
  },
  (t) => [index("email_outbox_due_idx").on(t.status, t.nextAttemptAt)],
);

export const contactMessages = sqliteTable(
  "contact_messages",
  {
    id: id(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    handledAt: instant("handled_at"),
    createdAt: createdAt(),
  },
  (t) => [index("contact_messages_created_idx").on(t.createdAt)],
);

export const newsletterSignups = sqliteTable(
  "newsletter_signups",
  {
    id: id(),
    email: text("email").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("newsletter_email_unique").on(sql`lower(${t.email})`)],
);

/** One row per run of the scheduled handler, for the admin view. */
export const cronRuns = sqliteTable(
  "cron_runs",
  {
    id: id(),
    cron: text("cron").notNull(),
    startedAt: instant("started_at").notNull(),
    finishedAt: instant("finished_at"),
    /** JSON: per task, how many rows changed. */
    summary: text("summary"),
    /** JSON: per failure, the task, row id and message. */
    failures: text("failures"),
  },
  (t) => [index("cron_runs_started_idx").on(t.startedAt)],
);

export type User = typeof users.$inferSelect;
export type Expert = typeof experts.$inferSelect;
export type Category = typeof categories.$inferSelect;
export type Question = typeof questions.$inferSelect;
export type Booking = typeof bookings.$inferSelect;
export type Review = typeof reviews.$inferSelect;
