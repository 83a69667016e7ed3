import { parseWithZod } from "@conform-to/zod/v4";
import { type AppLoadContext, data } from "@remix-run/cloudflare";
import { readForm } from "~/lib/form-data.server";
import { endSubscriptionOfDeletedAccount, subscriptionDeps } from "~/models/subscriptions.server";
import {
  changeUserPassword,
  deleteUserAccount,
  type SessionUser,
  updateUserProfile,
} from "~/models/users.server";
import { AccountProfileSchema, ChangePasswordSchema, WRONG_CURRENT_PASSWORD_MESSAGE } from "~/schemas/auth";
import { redirectWithToast } from "~/services/flash.server";
import { clearSessionCookie, currentSessionId, endSession, forgetCachedUser } from "./session.server";

/**
 * The account controls shared by /expert/account and /dashboard/settings. They act only on the
 * signed-in user: no id in the form is ever read.
 */
export async function handleAccountAction(
  context: AppLoadContext,
  request: Request,
  user: SessionUser,
  { afterLogout }: { afterLogout: string },
) {
  const form = await readForm(request);
  const intent = form.get("intent");
  const db = context.primaryDb;

  switch (intent) {
    case "profile": {
      const submission = parseWithZod(form, { schema: AccountProfileSchema });
      if (submission.status !== "success") {
        return data({ intent, result: submission.reply(), ok: false }, { status: 400 });
      }
      await updateUserProfile(db, user.id, submission.value);
      forgetCachedUser(context);
      return { intent, result: submission.reply(), ok: true };
    }
    case "password": {
      const submission = parseWithZod(form, { schema: ChangePasswordSchema });
      if (submission.status !== "success") {
        return data({ intent, result: submission.reply({ resetForm: false }), ok: false }, { status: 400 });
      }
      const outcome = await changeUserPassword(db, {
        userId: user.id,
        currentPassword: submission.value.currentPassword,
        newPassword: submission.value.newPassword,
        keepSessionId: await currentSessionId(request),
      });
      if (outcome === "wrong_current_password") {
        return data(
          {
            intent,
            result: submission.reply({ fieldErrors: { currentPassword: [WRONG_CURRENT_PASSWORD_MESSAGE] } }),
            ok: false,
          },
          { status: 400 },
        );
      }
      return { intent, result: submission.reply({ resetForm: true }), ok: true };
    }
    case "logout": {
      const cookie = await endSession(db, request);
      return redirectWithToast(
        afterLogout,
        { title: "Logged out successfully", description: "You have been logged out of your account." },
        { headers: { "Set-Cookie": cookie } },
      );
    }
    case "delete": {
      // A deleted person is never billed again: their subscription ends first, or nothing is deleted.
      const ended = await endSubscriptionOfDeletedAccount(subscriptionDeps(context), user.id);
      if (!ended.ok) {
        return redirectWithToast(new URL(request.url).pathname, {
          title: "Account deletion failed.",
          description: ended.message,
          variant: "destructive",
        });
      }
      await deleteUserAccount(db, user.id, new Date(context.now()));
      return redirectWithToast(
        "/",
        { title: "Account deleted", description: "Your account and personal details have been removed." },
        { headers: { "Set-Cookie": clearSessionCookie() } },
      );
    }
    default:
      return data({ intent: null, result: null, ok: false, error: "Unknown action." }, { status: 400 });
  }
}
