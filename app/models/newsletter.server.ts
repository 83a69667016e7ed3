import type { Database } from "~/db/client.server";
import { newsletterSignups } from "~/db/schema.server";

export type NewsletterOutcome = "subscribed" | "already_subscribed";

/**
 * Adds an address once. The unique index on lower(email) decides, so two racing sign-ups of
 * the same address (in any letter case) store one row.
 */
export async function subscribeToNewsletter(
  db: Database,
  { email }: { email: string },
): Promise<NewsletterOutcome> {
  const inserted = await db
    .insert(newsletterSignups)
    .values({ email: email.trim().toLowerCase() })
    .onConflictDoNothing()
    .returning({ id: newsletterSignups.id });
  return inserted.length > 0 ? "subscribed" : "already_subscribed";
}
