/**
 * Favourite experts: one row per user and expert (a unique index, so adding twice is harmless),
 * always for the signed-in user the caller passes, never for an id taken from input.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { SessionQuery } from "~/auth/session.server";
import type { Database } from "~/db/client.server";
import { execute, firstRow, rawBatch } from "~/db/raw.server";
import { experts, sessions, userFavorites } from "~/db/schema.server";
import type { ExpertLookup } from "./discovery.server";

export type FavoriteChange = { favorited: boolean } | "expert_not_found";

/**
 * Adds `expertId` to the user's favourites. The insert only happens when the expert exists and is not
 * deleted, in the same statement, so nothing is stored for an unknown expert.
 */
export async function addFavorite(db: Database, userId: number, expertId: number): Promise<FavoriteChange> {
  const [, expert] = await rawBatch(db, [
    execute(
      db,
      sql`
      INSERT INTO user_favorites (user_id, expert_id)
      SELECT ${userId}, e.id FROM experts e WHERE e.id = ${expertId} AND e.deleted_at IS NULL
      ON CONFLICT (user_id, expert_id) DO NOTHING`,
    ),
    firstRow<{ id: number }>(db, sql`SELECT id FROM experts WHERE id = ${expertId} AND deleted_at IS NULL`),
  ]);
  return expert ? { favorited: true } : "expert_not_found";
}

export async function removeFavorite(
  db: Database,
  userId: number,
  expertId: number,
): Promise<FavoriteChange> {
  const [, expert] = await rawBatch(db, [
    execute(db, sql`DELETE FROM user_favorites WHERE user_id = ${userId} AND expert_id = ${expertId}`),
    firstRow<{ id: number }>(db, sql`SELECT id FROM experts WHERE id = ${expertId} AND deleted_at IS NULL`),
  ]);
  return expert ? { favorited: false } : "expert_not_found";
}

/**
 * The ids of the experts matching `lookup` (by id, or custom URL in any case, as the profile finds
 * them) that the session's user has favourited: the profile's heart, read in the same batch as the
 * session (readWithSession), so a signed-in profile costs one D1 round trip.
 */
export function favoritesMatching(lookup: ExpertLookup): SessionQuery<{ expertId: number }[]> {
  return (db, sessionId) =>
    db
      .select({ expertId: userFavorites.expertId })
      .from(userFavorites)
      .innerJoin(sessions, eq(sessions.userId, userFavorites.userId))
      .innerJoin(experts, eq(experts.id, userFavorites.expertId))
      .where(
        and(
          eq(sessions.id, sessionId),
          isNull(experts.deletedAt),
          "id" in lookup
            ? eq(experts.id, lookup.id)
            : sql`lower(${experts.customUrl}) = lower(${lookup.customUrl})`,
        ),
      );
}
