import { parseWithZod } from "@conform-to/zod/v4";
import { type AppLoadContext, data } from "@remix-run/cloudflare";
import { readForm } from "~/lib/form-data.server";
import { bookingDeps, cancelBooking, releaseHoldsOfClosingExpert } from "~/models/bookings.server";
import { imagesOfUser, listExpertCommitments } from "~/models/experts.server";
import { actorOf, declineQuestion, questionDeps } from "~/models/questions.server";
import { endSubscriptionOfDeletedAccount, subscriptionDeps } from "~/models/subscriptions.server";
import {
  changeUserPassword,
  deleteUserAccount,
  type SessionUser,
  updateUserProfile,
} from "~/models/users.server";
import { AccountProfileSchema, ChangePasswordSchema, WRONG_CURRENT_PASSWORD_MESSAGE } from "~/schemas/auth";
import { invalidateExpert } from "~/services/cache.server";
import { deleteImageIfUnused } from "~/services/expert-images.server";
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
      const closed = await closeAccount(context, user);
      if (!closed.ok) {
        return redirectWithToast(new URL(request.url).pathname, {
          title: "Account deletion failed.",
          description: closed.message,
          variant: "destructive",
        });
      }
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

/**
 * Deletes the signed-in person's account (settings page and DELETE /api/users/{id}). A deleted person
 * is never billed again: their subscription ends first, or nothing is deleted. An expert's clients are
 * not left paying for work that will not happen: upcoming sessions are cancelled and refunded, and
 * open questions declined (their cards are not charged), before the profile disappears. Their
 * pictures are removed from storage.
 */
export async function closeAccount(
  context: AppLoadContext,
  user: SessionUser,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const ended = await endSubscriptionOfDeletedAccount(subscriptionDeps(context), user.id);
  if (!ended.ok) return ended;
  const expert = user.expertProfile;
  if (expert) {
    const { upcomingBookingIds, openQuestionIds } = await listExpertCommitments(
      context.primaryDb,
      expert.id,
      context.now(),
    );
    const actor = actorOf(user);
    for (const bookingId of upcomingBookingIds) {
      await cancelBooking(bookingDeps(context), { actor, bookingId });
    }
    for (const questionId of openQuestionIds) {
      await declineQuestion(questionDeps(context), { actor, questionId });
    }
    await releaseHoldsOfClosingExpert(bookingDeps(context), expert.id);
  }
  const images = await imagesOfUser(context.primaryDb, user.id);
  await deleteUserAccount(context.primaryDb, user.id, new Date(context.now()));
  if (expert) await invalidateExpert(context.cache, { id: expert.id, customUrls: [expert.customUrl] });
  // Their pictures go too (unless another profile shows the same one); the account is gone either way.
  for (const url of images) {
    await deleteImageIfUnused(context, url).catch((error) =>
      console.error(
        JSON.stringify({
          level: "error",
          message: "deleting a closed account's image failed",
          url,
          error: String(error),
        }),
      ),
    );
  }
  return { ok: true };
}
