import { SELF } from "cloudflare:test";
import { BASE } from "./accounts";

/**
 * A JSON API call as another client of ours sends it: same-origin (Origin and Host set, as browsers
 * and our own scripts do), the session cookie when given, and a JSON body with a JSON content type.
 */
export function callApi(
  method: string,
  path: string,
  {
    body,
    cookie = "",
    origin = BASE,
    contentType,
    address,
  }: { body?: unknown; cookie?: string; origin?: string; contentType?: string; address?: string } = {},
) {
  const headers: Record<string, string> = { Origin: origin, Host: new URL(BASE).host };
  if (address) headers["CF-Connecting-IP"] = address;
  if (cookie) headers.Cookie = cookie;
  // FormData sets its own multipart Content-Type (with the boundary).
  if (body !== undefined && !(body instanceof FormData)) {
    headers["Content-Type"] = contentType ?? "application/json";
  }
  return SELF.fetch(`${BASE}${path}`, {
    method,
    redirect: "manual",
    headers,
    body:
      body === undefined
        ? undefined
        : typeof body === "string" || body instanceof FormData
          ? body
          : JSON.stringify(body),
  });
}

/** The JSON of a response, typed loosely for assertions. */
// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON.
export const json = async (response: Response): Promise<any> => response.json();

/** The error text of a JSON API error. */
export const errorOf = async (response: Response): Promise<string> =>
  ((await response.json()) as { error: string }).error;
