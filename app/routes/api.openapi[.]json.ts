import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { buildOpenApiDocument } from "~/lib/openapi";

/** GET /api/openapi.json: the OpenAPI 3.1 document of the JSON API, built from the zod schemas. */
export function loader({ request }: LoaderFunctionArgs) {
  return Response.json(buildOpenApiDocument(new URL(request.url).origin), {
    headers: { "Cache-Control": "public, max-age=300" },
  });
}
