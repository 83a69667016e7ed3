import { and, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { emailOutbox, notifications, users } from "~/db/schema.server";

/** What happened, for the in-app list's icon and for tests; the text is in title and body. */
export type NotificationKind =
  | "question_new"
  | "question_answered"
  | "question_declined"
  | "question_withdrawn"
  | "question_expired"
  | "question_reminder"
  | "booking_confirmed"
  | "booking_cancelled"
  | "meeting_link"
  | "subscription"
  | "expert_verified";

export type NotificationInput = {
  userId: number;
  kind: NotificationKind;
  title: string;
  body: string;
  /** A path inside the app ("/dashboard/questions"). */
  link?: string | null;
  /**
   * Makes the message idempotent: the same key never notifies the same person twice, so a retried
   * request or an overlapping cron run is harmless. Use the event and row: "question-answered:42".
   */
  dedupeKey: string;
};

/** A notification this recent was written by the batch queueing its e-mail (never a repeat of an old one). */
const FRESH_NOTIFICATION_MS = 60 * 60 * 1000;

/**
 * The statements that notify someone in the app and queue the same message as an e-mail. Returned
 * rather than run, so the caller can put them in the batch (one transaction) that makes the change
 * they announce. The e-mail is queued only when the notification is new, and only for a live account.
 */
export function notificationStatements(
  db: Database,
  input: NotificationInput,
  { when }: { when?: SQL } = {},
) {
  const link = input.link ?? null;
  const bodyText = link ? `${input.body}\n\n${link}` : input.body;
  return [
    when
      ? conditionalInsert(db, input, link, when)
      : db
          .insert(notifications)
          .values({
            userId: input.userId,
            kind: input.kind,
            title: input.title,
            body: input.body,
            link,
            dedupeKey: input.dedupeKey,
          })
          .onConflictDoNothing(),
    // Queue the e-mail only for a notification that has none yet and was written just now (not one
    // written long ago whose e-mail has since been pruned), to an account that still exists.
    // (insert ... select must name every column, in the table's order.)
    db.insert(emailOutbox).select(
      db
        .select({
          id: sql<number>`null`.as("id"),
          toEmail: users.email,
          subject: sql<string>`${input.title}`.as("subject"),
          bodyText: sql<string>`${bodyText}`.as("body_text"),
          bodyHtml: sql<string | null>`null`.as("body_html"),
          notificationId: notifications.id,
          status: sql<"pending">`'pending'`.as("status"),
          attempts: sql<number>`0`.as("attempts"),
          nextAttemptAt: sql<number | null>`null`.as("next_attempt_at"),
          lastError: sql<string | null>`null`.as("last_error"),
          providerMessageId: sql<string | null>`null`.as("provider_message_id"),
          sentAt: sql<number | null>`null`.as("sent_at"),
          createdAt: sql<number>`cast(unixepoch('subsec') * 1000 as integer)`.as("created_at"),
        })
        .from(notifications)
        .innerJoin(users, eq(users.id, notifications.userId))
        .where(
          and(
            eq(notifications.userId, input.userId),
            eq(notifications.dedupeKey, input.dedupeKey),
            isNull(users.deletedAt),
            sql`${notifications.createdAt} > cast(unixepoch('subsec') * 1000 as integer) - ${FRESH_NOTIFICATION_MS}`,
            sql`not exists (select 1 from ${emailOutbox} where ${emailOutbox.notificationId} = ${notifications.id})`,
          ),
        ),
    ),
  ] as const;
}

/**
 * The notification insert guarded by `when` (a condition checked as the statement runs, e.g. "the
 * booking is now confirmed"), for a batch whose change may turn out to have been made by someone
 * else first: then nobody is told twice or told something that did not happen.
 * (insert ... select must name every column, in the table's order.)
 */
function conditionalInsert(db: Database, input: NotificationInput, link: string | null, when: SQL) {
  return db
    .insert(notifications)
    .select(
      db
        .select({
          id: sql<number>`null`.as("id"),
          userId: users.id,
          kind: sql<string>`${input.kind}`.as("kind"),
          title: sql<string>`${input.title}`.as("title"),
          body: sql<string>`${input.body}`.as("body"),
          link: sql<string | null>`${link}`.as("link"),
          dedupeKey: sql<string>`${input.dedupeKey}`.as("dedupe_key"),
          readAt: sql<number | null>`null`.as("read_at"),
          createdAt: sql<number>`cast(unixepoch('subsec') * 1000 as integer)`.as("created_at"),
        })
        .from(users)
        .where(and(eq(users.id, input.userId), when)),
    )
    .onConflictDoNothing();
}

/** Notifies one person now (in-app and by e-mail); see notificationStatements to batch it. */
export async function notify(db: Database, input: NotificationInput) {
  await db.batch(notificationStatements(db, input));
}

// ---------------------------------------------------------------------------------------------
// Reading and marking read (always scoped to the session's user)

export const NOTIFICATIONS_SHOWN = 100;

/** The person's notifications, newest first (`offset` of them skipped, for older pages). */
export function listNotifications(
  db: Database,
  userId: number,
  { limit = NOTIFICATIONS_SHOWN, offset = 0 } = {},
) {
  return db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      title: notifications.title,
      body: notifications.body,
      link: notifications.link,
      readAt: notifications.readAt,
      createdAt: notifications.createdAt,
    })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit)
    .offset(offset);
}

/** How many of the person's notifications are unread (the bell's number). */
export async function countUnread(db: Database, userId: number) {
  const [row] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.count ?? 0;
}

/**
 * Opening one of the person's own notifications reads it (kept at its first reading): its link,
 * or null for someone else's or none.
 */
export async function openNotification(
  db: Database,
  { userId, id, now }: { userId: number; id: number; now: Date },
) {
  const [row] = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, ${now.getTime()})` })
    .where(and(eq(notifications.userId, userId), eq(notifications.id, id)))
    .returning({ link: notifications.link });
  return row?.link ?? null;
}

/**
 * Marks one notification (or, without `id`, all of them) read. Someone else's notification is not
 * found: the update is scoped to the user, so it changes nothing. Returns how many changed.
 */
export async function markNotificationsRead(
  db: Database,
  { userId, id, now }: { userId: number; id?: number; now: Date },
) {
  const rows = await db
    .update(notifications)
    .set({ readAt: now })
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        id === undefined ? undefined : eq(notifications.id, id),
      ),
    )
    .returning({ id: notifications.id });
  return rows.length;
}
