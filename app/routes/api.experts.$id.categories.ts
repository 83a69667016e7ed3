import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiError, apiJson, parsePathId } from "~/lib/api.server";
import { readExpertProfile } from "~/services/read-models.server";

/** GET /api/experts/{id}/categories: the expert's categories, as their public profile lists them. */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const id = parsePathId(params.id);
  const expert = id === null ? null : await readExpertProfile(context, { id });
  if (!expert) return apiError(404, "Expert not found");
  return apiJson(expert.categories);
}
