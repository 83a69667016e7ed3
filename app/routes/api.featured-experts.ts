import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiJson } from "~/lib/api.server";
import { readFeaturedExperts } from "~/services/read-models.server";

/** GET /api/featured-experts: the experts an admin featured, as on the home page (SPEC.md section 7). */
export async function loader({ context }: LoaderFunctionArgs) {
  return apiJson(await readFeaturedExperts(context));
}
