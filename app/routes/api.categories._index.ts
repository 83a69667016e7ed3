import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiJson } from "~/lib/api.server";
import { readCategories } from "~/services/read-models.server";

/** GET /api/categories: every category in the display order of the screens (SPEC.md section 7). */
export async function loader({ context }: LoaderFunctionArgs) {
  return apiJson(await readCategories(context));
}
