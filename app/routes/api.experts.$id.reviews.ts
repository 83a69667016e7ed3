import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiError, apiJson, parsePathId } from "~/lib/api.server";
import { listExpertReviews } from "~/models/discovery.server";
import { readExpertProfile } from "~/services/read-models.server";

/** GET /api/experts/{id}/reviews: the expert's reviews (a rating each, 1 to 5), newest first. Public. */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const id = parsePathId(params.id);
  const expert = id === null ? null : await readExpertProfile(context, { id });
  if (!expert) return apiError(404, "Expert not found");
  return apiJson(await listExpertReviews(context.db, expert.id));
}
