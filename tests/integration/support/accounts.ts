import { env, SELF } from "cloudflare:test";
import { hashPassword } from "~/auth/password.server";
import { createDatabase } from "~/db/client.server";
import { experts, users } from "~/db/schema.server";

export const BASE = "https://marketplace.test";
export const db = () => createDatabase(env.DB);

type Role = "user" | "expert" | "admin";

/** Inserts an account straight into D1 (and an expert profile for experts); returns its id. */
export async function insertAccount(
  username: string,
  password: string,
  { role = "user", withExpertProfile }: { role?: Role; withExpertProfile?: boolean } = {},
) {
  const [user] = await db()
    .insert(users)
    .values({
      username,
      email: `${username}@example.com`,
      name: `${username} Name`,
      passwordHash: await hashPassword(password),
      role,
      isAdmin: role === "admin",
    })
    .returning({ id: users.id });
  let expertId: number | null = null;
  if (withExpertProfile ?? role === "expert") {
    const [expert] = await db()
      .insert(experts)
      .values({ userId: user.id, bio: "An expert used by the tests.", title: "Tester", sessionPrice: 5000 })
      .returning({ id: experts.id });
    expertId = expert.id;
  }
  return { userId: user.id, expertId };
}

/**
 * A POST with an arbitrary body, as a browser on our site sends it. Browsers always send Host with
 * Origin, and Remix refuses an action whose Origin has no Host to compare with, so both are set.
 */
export function postRaw(
  path: string,
  body: BodyInit | null,
  {
    contentType,
    cookie = "",
    origin = BASE,
    headers = {},
  }: { contentType?: string; cookie?: string; origin?: string; headers?: Record<string, string> } = {},
) {
  return SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      ...headers,
      Origin: origin,
      Host: new URL(BASE).host,
      ...(contentType ? { "Content-Type": contentType } : {}),
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body,
  });
}

/** A same-origin form POST. */
export function postForm(
  path: string,
  fields: Record<string, string>,
  options: { cookie?: string; origin?: string; headers?: Record<string, string> } = {},
) {
  return postRaw(path, new URLSearchParams(fields), {
    ...options,
    contentType: "application/x-www-form-urlencoded",
  });
}

export function get(path: string, cookie = "", headers: Record<string, string> = {}) {
  return SELF.fetch(`${BASE}${path}`, {
    redirect: "manual",
    headers: { ...headers, ...(cookie ? { Cookie: cookie } : {}) },
  });
}

/** The `name=value` of the session cookie a response sets, or null. */
export function sessionCookieFrom(response: Response): string | null {
  for (const header of response.headers.getSetCookie()) {
    const [pair] = header.split(";");
    if (pair.startsWith("__session=") && pair !== "__session=") return pair;
  }
  return null;
}

export async function signIn(username: string, password: string) {
  const response = await postForm("/auth", { intent: "login", username, password });
  const cookie = sessionCookieFrom(response);
  if (!cookie) throw new Error(`sign-in as ${username} failed with status ${response.status}`);
  return cookie;
}
