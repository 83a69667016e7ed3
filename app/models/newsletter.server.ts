import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { newsletterSignups } from "~/db/schema.server";

/**
 * Adds an address once. The unique index on lower(email) decides, so two racing sign-ups of
 * the same address (in any letter case) store one row. Whether it was there before is not told
 * to anyone: that would say who reads the newsletter.
 */
export async function subscribeToNewsletter(db: Database, { email }: { email: string }) {
  await db.insert(newsletterSignups).values({ email: email.trim().toLowerCase() }).onConflictDoNothing();
}

/** Removes an address, in any letter case; the same answer whether or not it was there. */
export async function unsubscribeFromNewsletter(db: Database, { email }: { email: string }) {
  await db
    .delete(newsletterSignups)
    .where(sql`lower(${newsletterSignups.email}) = ${email.trim().toLowerCase()}`);
}
