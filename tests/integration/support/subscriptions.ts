/** Helpers for the subscription tests (inside workerd): visitors, rows and the subscribe calls. */
import { and, eq, sql } from "drizzle-orm";
import { payments, users } from "~/db/schema.server";
import { db, get, sessionCookieFrom } from "./accounts";
import { postJson } from "./questions";

let counter = 0;

/** The account fields of someone who has never been here. */
export function newVisitor(prefix = "sub") {
  const username = `${prefix}-${Date.now().toString(36)}-${++counter}`;
  return { email: `${username}@example.com`, username, password: "subscriber-pass-1" };
}

export const userRow = async (id: number) => (await db().select().from(users).where(eq(users.id, id)))[0];

export const userByUsername = async (username: string) =>
  (await db().select().from(users).where(sql`lower(${users.username}) = lower(${username})`))[0] ?? null;

export const userCount = async () => (await db().select({ n: sql<number>`count(*)` }).from(users))[0].n;

/** The user's subscription lines in the payments ledger, oldest first. */
export const subscriptionLines = (userId: number) =>
  db()
    .select()
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.kind, "subscription")))
    .orderBy(payments.id);

export type IntentBody = {
  status?: string;
  signedIn?: boolean;
  subscriptionId?: string;
  clientSecret?: string;
  redirectTo?: string;
  error?: string;
  fieldErrors?: Record<string, string[]>;
};

/** What /subscribe's script sends when Subscribe Now is pressed; returns the answer and the new session. */
export async function requestSubscription(body: Record<string, unknown>, cookie = "") {
  const response = await postJson("/api/create-subscription-intent", body, cookie);
  return {
    response,
    body: (await response.json()) as IntentBody,
    cookie: sessionCookieFrom(response) ?? cookie,
  };
}

/** The dashboard's Overview page as HTML. */
export const dashboardHtml = async (cookie: string) => (await get("/dashboard", cookie)).text();
