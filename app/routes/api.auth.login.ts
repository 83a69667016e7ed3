import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { SignInError, verifyCredentials } from "~/auth/authenticator.server";
import { startFreshSession } from "~/auth/sign-in.server";
import { publicUser } from "~/auth/status.server";
import { apiError, apiJson, methodNotAllowed, readJson } from "~/lib/api.server";
import { LoginSchema } from "~/schemas/auth";

export const allowedMethods = ["POST"] as const;

/**
 * POST /api/auth/login {username, password} (SPEC.md section 7): the login screens' check, throttle
 * included (401 "Invalid username or password", 429 when throttled). Answers {authenticated, user}
 * and sets the session cookie (a new session id at every sign-in).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(...allowedMethods);
  const credentials = await readJson(request, LoginSchema);
  try {
    const { user, passwordHash } = await verifyCredentials(context, request, credentials);
    const cookie = await startFreshSession(context, request, user.id, passwordHash);
    return apiJson({ authenticated: true, user: publicUser(user) }, { headers: { "Set-Cookie": cookie } });
  } catch (error) {
    if (error instanceof SignInError) return apiError(error.status, error.message);
    throw error;
  }
}

export const loader = () => methodNotAllowed(...allowedMethods);
