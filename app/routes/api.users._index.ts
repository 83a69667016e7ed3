import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { createAccountAndSignIn } from "~/auth/sign-in.server";
import { publicUser } from "~/auth/status.server";
import { apiError, apiJson, methodNotAllowed, parseOrThrow, readJsonObject } from "~/lib/api.server";
import { getSessionUserById } from "~/models/users.server";
import { CreateExpertUserApiSchema, CreateUserApiSchema } from "~/schemas/auth";

export const allowedMethods = ["POST"] as const;

/**
 * POST /api/users (SPEC.md section 7): creates a plain user account, as registration, /subscribe and
 * the expert sign-up do, and signs it in (Set-Cookie). Role and admin flags are never taken from the
 * body. 409 when the username is taken; nothing is created then.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(...allowedMethods);
  const body = await readJsonObject(request);
  const expertSignup = "firstName" in body || "lastName" in body;
  const input = parseOrThrow(expertSignup ? CreateExpertUserApiSchema : CreateUserApiSchema, body);
  const account = await createAccountAndSignIn(context, request, input);
  if (!account.ok) {
    return apiError(account.httpStatus, account.message, {
      fieldErrors: { [account.field]: [account.message] },
    });
  }
  const user = await getSessionUserById(context.primaryDb, account.userId);
  return apiJson(user ? publicUser(user) : { id: account.userId }, {
    status: 201,
    headers: { "Set-Cookie": account.cookie },
  });
}

export const loader = () => methodNotAllowed(...allowedMethods);
