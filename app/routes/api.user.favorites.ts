import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { runRaw } from "~/db/raw.server";
import { requireApiUser } from "~/lib/api.server";
import { favoriteExpertCardsQuery, toCard } from "~/models/discovery.server";
import { PRIVATE_CACHE_CONTROL } from "~/services/cache.server";

/** GET /api/user/favorites: the signed-in user's favourite experts (SPEC.md section 7). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(context, request);
  const rows = await runRaw(favoriteExpertCardsQuery(context.db, user.id));
  return Response.json(rows.map(toCard), { headers: { "Cache-Control": PRIVATE_CACHE_CONTROL } });
}
