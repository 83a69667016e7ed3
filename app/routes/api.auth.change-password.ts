import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { changePassword, PASSWORD_THROTTLED_MESSAGE } from "~/auth/account.server";
import { apiError, apiJson, methodNotAllowed, readJson, requireApiUser } from "~/lib/api.server";
import { ChangePasswordApiSchema, WRONG_CURRENT_PASSWORD_MESSAGE } from "~/schemas/auth";

export const allowedMethods = ["POST"] as const;

/**
 * POST /api/auth/change-password {currentPassword, newPassword[, confirmPassword]}: the account
 * screens' rules. Every other session of the account ends; this one stays signed in.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(...allowedMethods);
  const user = await requireApiUser(context, request);
  const input = await readJson(request, ChangePasswordApiSchema);
  const outcome = await changePassword(context, request, user, {
    currentPassword: input.currentPassword,
    newPassword: input.newPassword,
  });
  if (outcome === "throttled") return apiError(429, PASSWORD_THROTTLED_MESSAGE);
  if (outcome === "wrong_current_password") {
    return apiError(400, WRONG_CURRENT_PASSWORD_MESSAGE, {
      fieldErrors: { currentPassword: [WRONG_CURRENT_PASSWORD_MESSAGE] },
    });
  }
  return apiJson({ success: true, message: "Password changed" });
}

export const loader = () => methodNotAllowed(...allowedMethods);
