import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { endSession, forgetCachedUser } from "~/auth/session.server";
import { apiJson, methodNotAllowed } from "~/lib/api.server";

export const allowedMethods = ["POST"] as const;

/** POST /api/auth/logout: ends this session everywhere at once (signed out already: nothing to do). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(...allowedMethods);
  const cookie = await endSession(context.primaryDb, request);
  forgetCachedUser(context);
  return apiJson({ success: true }, { headers: { "Set-Cookie": cookie } });
}

export const loader = () => methodNotAllowed(...allowedMethods);
