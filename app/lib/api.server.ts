import type { AppLoadContext } from "@remix-run/cloudflare";
import type * as z from "zod";
import { getOptionalUser } from "~/auth/session.server";
import type { SessionUser } from "~/models/users.server";

/** JSON API errors: `{ "error": "..." }` with the status that says what went wrong. */
export function apiError(status: number, error: string, extra: Record<string, unknown> = {}): Response {
  return Response.json({ error, ...extra }, { status, headers: { "Cache-Control": "private, no-store" } });
}

export async function requireApiUser(context: AppLoadContext, request: Request): Promise<SessionUser> {
  const user = await getOptionalUser(context, request);
  if (!user) throw apiError(401, "Authentication required");
  return user;
}

/** Parses a JSON body with a shared schema: 415 for another content type, 400 with field messages. */
export async function readJson<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): Promise<z.output<Schema>> {
  if (!(request.headers.get("Content-Type") ?? "").includes("application/json")) {
    throw apiError(415, "Expected a JSON body (Content-Type: application/json)");
  }
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw apiError(400, "The body is not valid JSON");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path.join(".") || "_";
      fieldErrors[key] = [...(fieldErrors[key] ?? []), issue.message];
    }
    throw apiError(400, parsed.error.issues[0]?.message ?? "Invalid input", { fieldErrors });
  }
  return parsed.data;
}
