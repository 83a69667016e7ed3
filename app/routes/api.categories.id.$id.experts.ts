import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiError, apiJson, parsePathId } from "~/lib/api.server";
import { searchExperts } from "~/models/discovery.server";
import { parseBrowseQuery } from "~/schemas/browse";
import { readCategories } from "~/services/read-models.server";

/**
 * GET /api/categories/id/{id}/experts[?sort=&page=&q=&minPrice=&maxPrice=]: the experts of one
 * category, as /category/{slug} lists them (same query, same order, same page size).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = parsePathId(params.id);
  const category = id === null ? null : (await readCategories(context)).find((c) => c.id === id);
  if (!category) return apiError(404, "Category Not Found");
  const query = parseBrowseQuery(new URL(request.url).searchParams);
  const result = await searchExperts(context.db, {
    ...query,
    category: category.slug,
    categoryId: category.id,
  });
  return apiJson(result.experts, {
    headers: { "X-Total-Count": String(result.total), "X-Page-Count": String(result.pageCount) },
  });
}
