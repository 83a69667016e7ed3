import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiError, apiJson } from "~/lib/api.server";
import { couldBeCustomUrl } from "~/lib/reserved-urls";
import { readExpertProfile } from "~/services/read-models.server";

/** GET /api/experts/custom/{customUrl}: the public profile by its custom URL (case-insensitive). */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const customUrl = params.customUrl ?? "";
  const expert = couldBeCustomUrl(customUrl) ? await readExpertProfile(context, { customUrl }) : null;
  if (!expert) return apiError(404, "Expert not found");
  return apiJson(expert);
}
