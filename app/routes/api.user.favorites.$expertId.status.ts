import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/lib/api.server";
import { isFavorite } from "~/models/favorites.server";
import { PRIVATE_CACHE_CONTROL } from "~/services/cache.server";
import { parseExpertId } from "~/services/profile-page.server";

/** GET /api/user/favorites/{expertId}/status: { favorited } for the signed-in user. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(context, request);
  const expertId = parseExpertId(params.expertId);
  const favorited = expertId === null ? false : await isFavorite(context.db, user.id, expertId);
  return Response.json({ favorited }, { headers: { "Cache-Control": PRIVATE_CACHE_CONTROL } });
}
