import type { AppLoadContext } from "@remix-run/cloudflare";
import type * as z from "zod";
import { getOptionalUser } from "~/auth/session.server";
import { BODY_MAX_BYTES, mediaTypeOf, readBodyWithin, strictUtf8 } from "~/lib/form-data.server";
import { parseId } from "~/lib/ids";
import { cleanJsonValue, JsonTooDeepError } from "~/lib/input-text";
import { isActiveExpert } from "~/models/experts.server";
import { isAdminUser, type SessionUser } from "~/models/users.server";

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
  return parseOrThrow(schema, await readJsonBody(request));
}

/** The JSON body as sent: 415 for another content type, 400 when it is not JSON. */
export async function readJsonBody(request: Request): Promise<unknown> {
  // The media type itself, not a substring: "text/plain; charset=application/json" is a type a
  // cross-site form may send without a preflight, and it is not JSON.
  const mediaType = mediaTypeOf(request);
  if (mediaType !== "application/json" && !/^application\/[\w.+-]+\+json$/.test(mediaType)) {
    throw apiError(415, "Expected a JSON body (Content-Type: application/json)");
  }
  const body = await readBodyWithin(request, BODY_MAX_BYTES);
  if (!body) throw apiError(413, "The body is too large");
  // JSON is UTF-8: bytes that are not would otherwise be stored as U+FFFD, silently changed.
  const text = strictUtf8(await body.arrayBuffer());
  if (text === null) throw apiError(400, "The body is not valid UTF-8");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw apiError(400, "The body is not valid JSON");
  }
  try {
    return cleanJsonValue(parsed);
  } catch (error) {
    if (error instanceof JsonTooDeepError) throw apiError(400, error.message);
    throw error;
  }
}

/** Parses with a shared schema, or throws a 400 with the first message and every field's messages. */
export function parseOrThrow<Schema extends z.ZodType>(schema: Schema, value: unknown): z.output<Schema> {
  const parsed = schema.safeParse(value, { error: plainIssueMessage });
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    const wrongType = new Set<string>();
    for (const issue of parsed.error.issues) {
      const key = issue.path.join(".") || "_";
      if (wrongType.has(key)) continue;
      // A value of the wrong type was sent: the screens' own words ("Password is required", "at least
      // 8 characters") would not say what is wrong, so say it, and nothing else about that field.
      // null is a value left out, as the screens' "required" says.
      const sent = valueAt(value, issue.path);
      if (issue.code === "invalid_type" && sent !== undefined && sent !== null) {
        const field = issue.path.length > 0 ? String(issue.path[issue.path.length - 1]) : "The body";
        fieldErrors[key] = [`${field} must be ${EXPECTED[issue.expected] ?? issue.expected}`];
        wrongType.add(key);
      } else {
        fieldErrors[key] = [...(fieldErrors[key] ?? []), issue.message];
      }
    }
    const firstKey = parsed.error.issues[0]?.path.join(".") || "_";
    throw apiError(400, fieldErrors[firstKey]?.[0] ?? "Invalid input", { fieldErrors });
  }
  return parsed.data;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

const EXPECTED: Record<string, string> = {
  number: "a number",
  int: "a whole number",
  string: "text",
  boolean: "true or false",
  object: "a JSON object",
  array: "a list",
  date: "a date",
};

/**
 * The words for an issue a schema gave no message of its own (a wrong type, a number out of range,
 * an unknown option), naming the field as the API spells it; the screens' own messages stay as they are.
 */
function plainIssueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  const path = issue.path ?? [];
  const field = path.length > 0 ? String(path[path.length - 1]) : "The body";
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return `${field} is required`;
      return `${field} must be ${EXPECTED[issue.expected] ?? issue.expected}`;
    case "too_small":
    case "too_big": {
      const bound = issue.code === "too_small" ? issue.minimum : issue.maximum;
      const side = issue.code === "too_small" ? "at least" : "at most";
      const inclusive = issue.inclusive !== false;
      const comparison = inclusive ? side : issue.code === "too_small" ? "more than" : "less than";
      if (issue.origin === "string") return `${field} must be ${side} ${bound} characters long`;
      if (issue.origin === "array") return `${field} must have ${side} ${bound} items`;
      return `${field} must be ${comparison} ${bound}`;
    }
    case "invalid_value":
      return `${field} must be one of: ${issue.values.map((value) => JSON.stringify(value)).join(", ")}`;
    case "invalid_format":
      return `${field} is not a valid ${issue.format === "email" ? "email address" : issue.format}`;
    case "unrecognized_keys":
      return `Unknown field${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.join(", ")}`;
    default:
      return undefined;
  }
}

/** A JSON object body (400 for an array, a string, null...). */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const body = await readJsonBody(request);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw apiError(400, "The body must be a JSON object");
  }
  return body as Record<string, unknown>;
}

const NO_STORE = { "Cache-Control": "private, no-store" };

/** A JSON answer that no shared cache keeps (every API answer may depend on the caller). */
export function apiJson(body: unknown, init: { status?: number; headers?: HeadersInit } = {}): Response {
  const headers = new Headers(init.headers);
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", NO_STORE["Cache-Control"]);
  return Response.json(body, { status: init.status ?? 200, headers });
}

export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * A 405 that names the methods the route takes, as HTTP requires (RFC 9110 15.5.6). An API route
 * exports those methods as `allowedMethods`, which an OPTIONS to it answers with too (workers/app.ts).
 */
export function methodNotAllowed(...allow: HttpMethod[]): Response {
  const response = apiError(405, "Method not allowed");
  response.headers.set("Allow", allow.join(", "));
  return response;
}

/** A positive integer id as written in a path ("12"), or null ("abc", "-3", "0", "1e3"). */
export function parsePathId(value: string | undefined): number | null {
  return parseId(value);
}

/**
 * The signed-in user with an expert profile whose id is `expertId` (401 signed out, 403 anyone else).
 * An admin (with `allowAdmin`) reads any expert's, and gets 404 for one that does not exist or closed
 * their account, as the public expert routes answer.
 */
export async function requireApiExpertOwner(
  context: AppLoadContext,
  request: Request,
  expertId: number,
  { allowAdmin = false }: { allowAdmin?: boolean } = {},
): Promise<SessionUser> {
  const user = await requireApiUser(context, request);
  if (user.expertProfile?.id === expertId) return user;
  if (allowAdmin && isAdminUser(user)) {
    if (!(await isActiveExpert(context.primaryDb, expertId))) throw apiError(404, "Expert not found");
    return user;
  }
  throw apiError(403, "You can only see or change your own expert profile.");
}
