import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getAuthStatus } from "~/auth/status.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  return Response.json(await getAuthStatus(context, request), {
    headers: { "Cache-Control": "private, no-store" },
  });
}
