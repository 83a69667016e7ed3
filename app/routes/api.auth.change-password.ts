import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { currentSessionId } from "~/auth/session.server";
import { apiError, apiJson, methodNotAllowed, readJson, requireApiUser } from "~/lib/api.server";
import { changeUserPassword } from "~/models/users.server";
import { ChangePasswordApiSchema, WRONG_CURRENT_PASSWORD_MESSAGE } from "~/schemas/auth";

/**
 * POST /api/auth/change-password {currentPassword, newPassword[, confirmPassword]}: the account
 * screens' rules. Every other session of the account ends; this one stays signed in.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireApiUser(context, request);
  const input = await readJson(request, ChangePasswordApiSchema);
  const outcome = await changeUserPassword(context.primaryDb, {
    userId: user.id,
    currentPassword: input.currentPassword,
    newPassword: input.newPassword,
    keepSessionId: await currentSessionId(request),
  });
  if (outcome === "wrong_current_password") {
    return apiError(400, WRONG_CURRENT_PASSWORD_MESSAGE, {
      fieldErrors: { currentPassword: [WRONG_CURRENT_PASSWORD_MESSAGE] },
    });
  }
  return apiJson({ success: true, message: "Password changed" });
}

export const loader = methodNotAllowed;
