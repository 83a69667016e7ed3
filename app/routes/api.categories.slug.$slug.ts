import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiError, apiJson } from "~/lib/api.server";
import { readCategories } from "~/services/read-models.server";

/** GET /api/categories/slug/{slug}: one category, 404 when there is none by that slug. */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const slug = (params.slug ?? "").toLowerCase();
  const category = (await readCategories(context)).find((candidate) => candidate.slug === slug);
  if (!category) return apiError(404, "Category Not Found");
  return apiJson(category);
}
