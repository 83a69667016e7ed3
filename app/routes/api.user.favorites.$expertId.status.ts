import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { readWithSession } from "~/auth/session.server";
import { apiError, requireApiUser } from "~/lib/api.server";
import { favoritesMatching } from "~/models/favorites.server";
import { PRIVATE_CACHE_CONTROL } from "~/services/cache.server";
import { parseExpertId } from "~/services/profile-page.server";

/**
 * GET /api/user/favorites/{expertId}/status: { favorited } for the signed-in user. An id that is not
 * one ("abc", "2.5") is a 404 after the sign-in check, as on POST and DELETE; an id no expert has is
 * simply not a favourite.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const expertId = parseExpertId(params.expertId);
  // Asked together, so the favourite rides in the session lookup's batch: one D1 round trip.
  const [, favorites] = await Promise.all([
    requireApiUser(context, request),
    expertId === null ? null : readWithSession(context, request, favoritesMatching({ id: expertId })),
  ]);
  if (expertId === null) return apiError(404, "Expert not found");
  const favorited = (favorites ?? []).some((row) => row.expertId === expertId);
  return Response.json({ favorited }, { headers: { "Cache-Control": PRIVATE_CACHE_CONTROL } });
}
