import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { rateLimits } from "~/db/schema.server";

const HOUR_MS = 60 * 60 * 1000;

/**
 * How often one client address may do what anyone can do without an account, per hour: enough for
 * a family or an office behind one address, far too few to flood the admin inbox or fill the
 * database.
 */
export const RATE_LIMITS = {
  contact: { limit: 5, windowMs: HOUR_MS },
  newsletter: { limit: 10, windowMs: HOUR_MS },
  signup: { limit: 20, windowMs: HOUR_MS },
} as const;

export type RateLimitedAction = keyof typeof RATE_LIMITS;

export const RATE_LIMITED_MESSAGE = "Too many requests from your network. Please try again in an hour.";

/**
 * Counts this request against its address's allowance (one upsert, so requests sent at once each
 * get their own place in the count) and says whether it is within it. Without an address (a local
 * request that came through no proxy) nothing is counted.
 */
export async function withinRateLimit(
  db: Database,
  action: RateLimitedAction,
  address: string | null,
  now: number,
): Promise<boolean> {
  if (!address) return true;
  const { limit, windowMs } = RATE_LIMITS[action];
  const expired = sql`${rateLimits.windowStartedAt} < ${now - windowMs}`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key: `${action}:${address}`, count: 1, windowStartedAt: new Date(now) })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${expired} then 1 else ${rateLimits.count} + 1 end`,
        windowStartedAt: sql`case when ${expired} then ${now} else ${rateLimits.windowStartedAt} end`,
      },
    })
    .returning({ count: rateLimits.count });
  return row.count <= limit;
}
