import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { apiError, methodNotAllowed, requireApiUser } from "~/lib/api.server";
import { addFavorite, removeFavorite } from "~/models/favorites.server";
import { PRIVATE_CACHE_CONTROL } from "~/services/cache.server";
import { parseExpertId } from "~/services/profile-page.server";

export const allowedMethods = ["POST", "DELETE"] as const;

/**
 * POST /api/user/favorites/{expertId} adds, DELETE removes (SPEC.md section 7); always for the
 * signed-in user. An unknown expert is a 404 and nothing is stored; adding twice keeps one row.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "POST" && request.method !== "DELETE") return methodNotAllowed(...allowedMethods);
  const user = await requireApiUser(context, request);
  const expertId = parseExpertId(params.expertId);
  if (expertId === null) return apiError(404, "Expert not found");
  const change =
    request.method === "POST"
      ? await addFavorite(context.db, user.id, expertId)
      : await removeFavorite(context.db, user.id, expertId);
  if (change === "expert_not_found") return apiError(404, "Expert not found");
  return Response.json(change, { headers: { "Cache-Control": PRIVATE_CACHE_CONTROL } });
}

export const loader = () => methodNotAllowed(...allowedMethods);
