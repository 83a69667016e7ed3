import { parseWithZod } from "@conform-to/zod/v4";
import { type AppLoadContext, data } from "@remix-run/cloudflare";
import { readForm } from "~/lib/form-data.server";
import {
  bookingDeps,
  cancelBooking,
  hasSessionTooSoonToCancel,
  listUpcomingBookingIdsOfClient,
  releaseHoldsOfClosingAccount,
  setAvailableForBookings,
} from "~/models/bookings.server";
import { imagesOfUser, listExpertCommitments } from "~/models/experts.server";
import {
  actorOf,
  declineQuestion,
  dropUnpaidQuestionsOfClosingAccount,
  expertsShowingQuestionsOf,
  questionDeps,
  withdrawQuestionsOfClosingAsker,
} from "~/models/questions.server";
import { endSubscriptionOfDeletedAccount, subscriptionDeps } from "~/models/subscriptions.server";
import {
  changeUserPassword,
  deleteUserAccount,
  isLastAdmin,
  type SessionUser,
  updateUserProfile,
} from "~/models/users.server";
import { AccountProfileSchema, ChangePasswordSchema, WRONG_CURRENT_PASSWORD_MESSAGE } from "~/schemas/auth";
import { invalidateExpert, invalidateExperts } from "~/services/cache.server";
import { deleteImageIfUnused } from "~/services/expert-images.server";
import { redirectWithToast } from "~/services/flash.server";
import { clientAddress } from "./authenticator.server";
import { clearSessionCookie, currentSessionId, endSession, forgetCachedUser } from "./session.server";
import { clearFailures, recordFailure, reserveAttempt } from "./throttle.server";

/** Never sent back to the browser, whatever the outcome. */
const PASSWORD_FIELDS = ["currentPassword", "newPassword", "confirmPassword"];

/**
 * Saves the signed-in person's name and e-mail (the account screens and PATCH /api/users/{id}). An
 * expert's name is on their public profile and cards, so those cached copies go too.
 */
export async function updateAccountProfile(
  context: AppLoadContext,
  user: SessionUser,
  input: Parameters<typeof updateUserProfile>[2],
) {
  await updateUserProfile(context.primaryDb, user.id, input);
  forgetCachedUser(context);
  const expert = user.expertProfile;
  if (expert) await invalidateExpert(context, { id: expert.id, customUrls: [expert.customUrl] });
}

export const PASSWORD_THROTTLED_MESSAGE = "Too many password attempts. Please wait 15 minutes and try again.";

/**
 * Changes the signed-in person's password (the account screens and POST /api/auth/change-password).
 * Checking the current password is a guess like a sign-in, so it counts against the same throttle
 * (the account's username and the client's address): a stolen session cannot try passwords freely.
 */
export async function changePassword(
  context: AppLoadContext,
  request: Request,
  user: SessionUser,
  input: { currentPassword: string; newPassword: string },
): Promise<"changed" | "wrong_current_password" | "throttled"> {
  const db = context.primaryDb;
  const keys = { username: user.username, address: clientAddress(request), sessionUserId: user.id };
  const throttle = await reserveAttempt(db, keys, context.now());
  if (throttle.locked) return "throttled";
  if (throttle.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, throttle.delayMs));
  const outcome = await changeUserPassword(db, {
    userId: user.id,
    ...input,
    keepSessionId: await currentSessionId(request),
  });
  if (outcome === "wrong_current_password") await recordFailure(db, keys, context.now());
  else await clearFailures(db, keys, context.now());
  return outcome;
}

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
      await updateAccountProfile(context, user, submission.value);
      return { intent, result: submission.reply(), ok: true };
    }
    case "password": {
      const submission = parseWithZod(form, { schema: ChangePasswordSchema });
      if (submission.status !== "success") {
        return data(
          { intent, result: submission.reply({ hideFields: PASSWORD_FIELDS }), ok: false },
          { status: 400 },
        );
      }
      const outcome = await changePassword(context, request, user, {
        currentPassword: submission.value.currentPassword,
        newPassword: submission.value.newPassword,
      });
      if (outcome !== "changed") {
        const [message, status] =
          outcome === "throttled" ? [PASSWORD_THROTTLED_MESSAGE, 429] : [WRONG_CURRENT_PASSWORD_MESSAGE, 400];
        return data(
          {
            intent,
            result: submission.reply({
              fieldErrors: { currentPassword: [message] },
              hideFields: PASSWORD_FIELDS,
            }),
            ok: false,
          },
          { status },
        );
      }
      return { intent, result: submission.reply({ resetForm: true, hideFields: PASSWORD_FIELDS }), ok: true };
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

export const SESSION_TOO_SOON_MESSAGE =
  "You have a session in the next 24 hours, which can no longer be cancelled. You can delete your account once it has ended.";

export const LAST_ADMIN_MESSAGE =
  "This is the only administrator account. It cannot be deleted while nobody else can run the admin area.";

/**
 * Deletes the signed-in person's account (settings page and DELETE /api/users/{id}). A deleted person
 * is never billed again: their subscription ends first, or nothing is deleted. An expert's clients are
 * not left paying for work that will not happen: upcoming sessions are cancelled and refunded, and
 * open questions declined (their cards are not charged), before the profile disappears. As a client,
 * nobody answers or holds a session for them any more, and they are not charged for it. Their
 * pictures are removed from storage.
 */
export async function closeAccount(
  context: AppLoadContext,
  user: SessionUser,
): Promise<{ ok: true } | { ok: false; message: string; status?: 409 }> {
  if (await isLastAdmin(context.primaryDb, user)) {
    return { ok: false, status: 409, message: LAST_ADMIN_MESSAGE };
  }
  if (await hasSessionTooSoonToCancel(context.primaryDb, user.id, new Date(context.now()))) {
    return { ok: false, status: 409, message: SESSION_TOO_SOON_MESSAGE };
  }
  const ended = await endSubscriptionOfDeletedAccount(subscriptionDeps(context), user.id);
  if (!ended.ok) return ended;
  const expert = user.expertProfile;
  const actor = actorOf(user);
  if (expert) {
    // First, so no session can be held while the rest of the account is closed.
    await setAvailableForBookings(context.primaryDb, {
      expertId: expert.id,
      isAvailable: false,
      now: new Date(context.now()),
    });
    // Unpaid questions first: one paid later finds itself expired, so it is never left open.
    await dropUnpaidQuestionsOfClosingAccount(questionDeps(context), { expertId: expert.id });
    await endExpertCommitments(context, actor, expert.id);
    await releaseHoldsOfClosingAccount(bookingDeps(context), { expertId: expert.id });
  }
  // As a client: their questions are withdrawn (never charged), their holds lapse, and their sessions
  // are cancelled and refunded as their own cancellation would be (not within 24 hours of the start).
  await dropUnpaidQuestionsOfClosingAccount(questionDeps(context), { userId: user.id });
  await withdrawQuestionsOfClosingAsker(questionDeps(context), user.id);
  await releaseHoldsOfClosingAccount(bookingDeps(context), { userId: user.id });
  for (const bookingId of await listUpcomingBookingIdsOfClient(
    context.primaryDb,
    user.id,
    new Date(context.now()),
  )) {
    await cancelBooking(bookingDeps(context), { actor, bookingId, closingAccount: true });
  }
  const images = await imagesOfUser(context.primaryDb, user.id);
  const profilesShowingTheirQuestions = await expertsShowingQuestionsOf(context.primaryDb, user.id);
  if (!(await deleteUserAccount(context.primaryDb, user.id, new Date(context.now())))) {
    // Another admin closed theirs meanwhile: this one is the last after all.
    return { ok: false, status: 409, message: LAST_ADMIN_MESSAGE };
  }
  // A hold paid, or a question asked and paid, while the above ran. Nothing confirms for a deleted
  // expert, and no question is paid for a deleted asker, so this second look finds every straggler.
  if (expert) await endExpertCommitments(context, actor, expert.id);
  await dropUnpaidQuestionsOfClosingAccount(questionDeps(context), { userId: user.id });
  await withdrawQuestionsOfClosingAsker(questionDeps(context), user.id);
  if (expert) await invalidateExpert(context, { id: expert.id, customUrls: [expert.customUrl] });
  // Their questions left those profiles' Q&A: the cached copies go too.
  await invalidateExperts(
    context,
    profilesShowingTheirQuestions.map((shown) => ({ id: shown.id, customUrls: [shown.customUrl] })),
  );
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

/** Cancels and refunds an expert's upcoming sessions and declines their open questions. */
async function endExpertCommitments(
  context: AppLoadContext,
  actor: ReturnType<typeof actorOf>,
  expertId: number,
) {
  const { upcomingBookingIds, openQuestionIds } = await listExpertCommitments(
    context.primaryDb,
    expertId,
    context.now(),
  );
  for (const bookingId of upcomingBookingIds) {
    await cancelBooking(bookingDeps(context), { actor, bookingId, closingAccount: true });
  }
  for (const questionId of openQuestionIds) {
    await declineQuestion(questionDeps(context), { actor, questionId, closingAccount: true });
  }
}
