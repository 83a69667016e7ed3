import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { requireUser } from "~/auth/guards.server";
import { safeRedirect } from "~/auth/redirect";
import { keepFormWhenOffline } from "~/components/keep-form-when-offline";
import { isNavigation } from "~/lib/action-response.server";
import { readForm } from "~/lib/form-data.server";
import { createReview } from "~/models/reviews.server";
import { ReviewSchema } from "~/schemas/reviews";
import { invalidateExpert } from "~/services/cache.server";
import { redirectWithToast } from "~/services/flash.server";

/**
 * POST /reviews: the dashboard's "Rate" form (an answered question or a completed session, once).
 * The form's fetcher gets JSON; a browser without JavaScript (a page post) is sent back to the
 * dashboard with the outcome as a toast.
 */
export const clientAction = keepFormWhenOffline;

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(context, request);
  const form = await readForm(request);
  const back = safeRedirect(form.get("redirectTo"), "/dashboard/questions");
  const submission = parseWithZod(form, { schema: ReviewSchema });
  if (submission.status !== "success") {
    if (isNavigation(request)) {
      const message =
        Object.values(submission.error ?? {})
          .flat()
          .find(Boolean) ?? "Please check your rating.";
      return redirectWithToast(back, {
        title: "Rating not sent",
        description: message,
        variant: "destructive",
      });
    }
    return Response.json({ ok: false, result: submission.reply() }, { status: 400 });
  }
  const result = await createReview(context.primaryDb, user.id, submission.value);
  if (!result.ok) {
    if (isNavigation(request)) {
      return redirectWithToast(back, {
        title: "Rating not sent",
        description: result.message,
        variant: "destructive",
      });
    }
    return Response.json(
      { ok: false, result: submission.reply({ formErrors: [result.message] }) },
      { status: result.status },
    );
  }
  // The rating on the expert's card and profile comes from the reviews: drop the cached copies.
  await invalidateExpert(context, { id: result.expertId, customUrls: [result.customUrl] });
  if (isNavigation(request)) {
    return redirectWithToast(back, { title: "Thank you!", description: "Your rating was saved." });
  }
  return Response.json({ ok: true, rating: submission.value.rating });
}

export async function loader() {
  throw new Response("Not Found", { status: 404 });
}
