import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiJson } from "~/lib/api.server";
import { loadBrowsePage } from "~/services/read-models.server";

/**
 * GET /api/experts[?q=&category=&sort=&minPrice=&maxPrice=&page=]: the browse list (SPEC.md section
 * 7), with the browse screen's query rules: anything invalid falls back to its default.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const page = await loadBrowsePage(context, new URL(request.url), {
    basePath: "/experts",
    pathCategory: null,
  });
  return apiJson(page.result.experts, {
    headers: { "X-Total-Count": String(page.result.total), "X-Page-Count": String(page.result.pageCount) },
  });
}
