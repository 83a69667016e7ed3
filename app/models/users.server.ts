import { and, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { hashPassword, verifyPassword } from "~/auth/password.server";
import type { Database } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors.server";
import {
  bookings,
  emailOutbox,
  experts,
  notifications,
  questions,
  sessions,
  userFavorites,
  users,
} from "~/db/schema.server";
import { DELETED_USERNAME_PREFIX } from "~/lib/experts";

/** What the app knows about the signed-in person: never the password hash. */
export type SessionUser = {
  id: number;
  username: string;
  name: string | null;
  email: string;
  role: "user" | "expert" | "admin";
  isAdmin: boolean;
  profileImage: string | null;
  subscriptionStatus: string | null;
  subscriptionEndDate: Date | null;
  expertProfile: {
    id: number;
    customUrl: string | null;
    profileImage: string | null;
    questionRate: number;
    sessionPrice: number;
  } | null;
  /** Unread in-app notifications (the header bell). */
  unreadNotifications: number;
};

export class UsernameTakenError extends Error {
  constructor() {
    super("That username is already taken");
  }
}

/** Whether a username is in use, in any case (usernames are unique ignoring case, closed accounts too). */
export async function isUsernameTaken(db: Database, username: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .limit(1);
  return row !== undefined;
}

export const sessionUserColumns = {
  id: users.id,
  username: users.username,
  name: users.name,
  email: users.email,
  role: users.role,
  isAdmin: users.isAdmin,
  profileImage: users.profileImage,
  subscriptionStatus: users.subscriptionStatus,
  subscriptionEndDate: users.subscriptionEndDate,
  // Named apart from users.id and users.profile_image: a D1 batch answers rows as objects keyed by
  // column name, so two columns of one name would overwrite each other there (readWithSession).
  expertId: sql<number | null>`${experts.id}`.as("expert_id"),
  expertCustomUrl: experts.customUrl,
  expertProfileImage: sql<string | null>`${experts.profileImage}`.as("expert_profile_image"),
  expertQuestionRate: experts.questionRate,
  expertSessionPrice: experts.sessionPrice,
  /** The header bell's number, read with the session in the same statement (no extra round trip). */
  unreadNotifications:
    sql<number>`(select count(*) from ${notifications} where ${notifications.userId} = ${users.id} and ${notifications.readAt} is null)`.mapWith(
      Number,
    ),
};

type SessionUserColumns = Omit<
  typeof sessionUserColumns,
  "unreadNotifications" | "expertId" | "expertProfileImage"
>;
type SessionUserRow = {
  [K in keyof SessionUserColumns]: SessionUserColumns[K]["_"]["data"] | null;
} & { unreadNotifications: number | null; expertId: number | null; expertProfileImage: string | null };

export function toSessionUser(row: SessionUserRow): SessionUser {
  return {
    id: row.id!,
    username: row.username!,
    name: row.name,
    email: row.email!,
    role: row.role ?? "user",
    isAdmin: Boolean(row.isAdmin),
    profileImage: row.profileImage ?? row.expertProfileImage,
    subscriptionStatus: row.subscriptionStatus,
    subscriptionEndDate: row.subscriptionEndDate,
    expertProfile:
      row.expertId === null
        ? null
        : {
            id: row.expertId,
            customUrl: row.expertCustomUrl,
            profileImage: row.expertProfileImage,
            questionRate: row.expertQuestionRate ?? 500,
            sessionPrice: row.expertSessionPrice ?? 0,
          },
    unreadNotifications: Number(row.unreadNotifications ?? 0),
  };
}

/** SPEC.md section 6: expert = role expert or an expert profile; admin = role admin or isAdmin. */
export const isExpertUser = (user: SessionUser) => user.role === "expert" || user.expertProfile !== null;
export const isAdminUser = (user: SessionUser) => user.role === "admin" || user.isAdmin;

/** True when no other live account is an admin: closing this one would leave nobody to run the admin area. */
export async function isLastAdmin(db: Database, user: SessionUser): Promise<boolean> {
  if (!isAdminUser(user)) return false;
  const [other] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        sql`(${users.isAdmin} = 1 or ${users.role} = 'admin')`,
        isNull(users.deletedAt),
        sql`${users.id} <> ${user.id}`,
      ),
    )
    .limit(1);
  return !other;
}

export async function getSessionUserById(db: Database, userId: number): Promise<SessionUser | null> {
  const [row] = await db
    .select(sessionUserColumns)
    .from(users)
    .leftJoin(experts, and(eq(experts.userId, users.id), isNull(experts.deletedAt)))
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .limit(1);
  return row ? toSessionUser(row) : null;
}

/** Finds the account for sign-in by username, case-insensitively. */
export async function findCredentialsByUsername(db: Database, username: string) {
  const [row] = await db
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(and(sql`lower(${users.username}) = lower(${username})`, isNull(users.deletedAt)))
    .limit(1);
  return row ?? null;
}

export async function createUser(
  db: Database,
  input: {
    username: string;
    email: string;
    password: string;
    name?: string | null;
    firstName?: string | null;
    lastName?: string | null;
  },
): Promise<number> {
  const passwordHash = await hashPassword(input.password);
  const name = input.name ?? ([input.firstName, input.lastName].filter(Boolean).join(" ") || null);
  try {
    // Role and admin flags are never taken from input: every new account is a plain user.
    const [row] = await db
      .insert(users)
      .values({
        username: input.username,
        email: input.email,
        passwordHash,
        name,
        firstName: input.firstName ?? null,
        lastName: input.lastName ?? null,
      })
      .returning({ id: users.id });
    return row.id;
  } catch (error) {
    if (isUniqueViolation(error)) throw new UsernameTakenError();
    throw error;
  }
}

export async function updateUserProfile(
  db: Database,
  userId: number,
  input: { name: string; email: string },
) {
  await db
    .update(users)
    .set({ name: input.name, email: input.email })
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
}

export type ChangePasswordResult = "changed" | "wrong_current_password";

/** Changes the password and ends every other session of the user, so a stolen cookie dies with it. */
export async function changeUserPassword(
  db: Database,
  input: { userId: number; currentPassword: string; newPassword: string; keepSessionId: string | null },
): Promise<ChangePasswordResult> {
  const [row] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, input.userId), isNull(users.deletedAt)))
    .limit(1);
  if (!row || !(await verifyPassword(input.currentPassword, row.passwordHash))) {
    return "wrong_current_password";
  }
  const passwordHash = await hashPassword(input.newPassword);
  const otherSessions = input.keepSessionId
    ? and(eq(sessions.userId, input.userId), sql`${sessions.id} <> ${input.keepSessionId}`)
    : eq(sessions.userId, input.userId);
  await db.batch([
    db.update(users).set({ passwordHash, passwordChangedAt: new Date() }).where(eq(users.id, input.userId)),
    db.delete(sessions).where(otherSessions),
  ]);
  return "changed";
}

/** An admin account other than `userId` is still live: SQL for the conditions below. */
const anotherAdminLives = (userId: number) =>
  sql`exists (select 1 from ${users} as other where other.id <> ${userId} and other.deleted_at is null
    and (other.is_admin = 1 or other.role = 'admin'))`;

/**
 * Deletes an account: sessions end, personal data is removed, and the rows money depends on
 * (payments, questions, bookings) stay with the person's details blanked out. The last admin's
 * account is kept, checked in the same batch, so two admins deleting theirs at once leave one:
 * false then, and nothing is changed.
 */
export async function deleteUserAccount(db: Database, userId: number, now = new Date()) {
  const unusableHash = `deleted$${crypto.randomUUID()}`;
  // First in the batch; every later statement runs only if it deleted the account.
  const deletedHere = sql`exists (select 1 from ${users} as closed where closed.id = ${userId} and closed.deleted_at = ${now.getTime()})`;
  const [deleted] = await db.batch([
    db
      .update(users)
      .set({
        // A colon is outside every username's alphabet, so no one can register this name first
        // (and make the delete fail on the unique index).
        username: `${DELETED_USERNAME_PREFIX}${userId}`,
        email: `deleted-user-${userId}@invalid`,
        name: null,
        firstName: null,
        lastName: null,
        profileImage: null,
        passwordHash: unusableHash,
        deletedAt: now,
      })
      .where(
        and(
          eq(users.id, userId),
          or(and(eq(users.isAdmin, false), ne(users.role, "admin")), anotherAdminLives(userId)),
        ),
      )
      .returning({ id: users.id }),
    db.delete(sessions).where(and(eq(sessions.userId, userId), deletedHere)),
    db.delete(userFavorites).where(and(eq(userFavorites.userId, userId), deletedHere)),
    // Their e-mails, sent or waiting: nothing more goes to them, and no copy of their address stays.
    db
      .delete(emailOutbox)
      .where(
        and(
          inArray(
            emailOutbox.notificationId,
            db.select({ id: notifications.id }).from(notifications).where(eq(notifications.userId, userId)),
          ),
          deletedHere,
        ),
      ),
    db.delete(notifications).where(and(eq(notifications.userId, userId), deletedHere)),
    db
      .update(questions)
      // Nor do their questions stay on experts' public profiles: the text is theirs.
      .set({ name: null, email: null, showOnProfile: false })
      .where(and(eq(questions.userId, userId), deletedHere)),
    db
      .update(bookings)
      .set({ name: null, email: null, notes: null })
      .where(and(eq(bookings.userId, userId), deletedHere)),
    db
      .update(experts)
      .set({
        deletedAt: now,
        // The custom URL stays, reserved (isCustomUrlTaken counts deleted profiles): links the expert
        // shared must not lead to a stranger who claims it next. Every read skips deleted profiles.
        isAvailable: false,
        bio: "",
        profileImage: null,
        headerImage: null,
        socialInstagram: null,
        socialTwitter: null,
        socialLinkedIn: null,
        socialWebsite: null,
      })
      .where(and(eq(experts.userId, userId), deletedHere)),
  ]);
  return deleted.length > 0;
}
