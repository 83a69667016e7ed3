import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { requireUser } from "~/auth/guards.server";
import { readForm } from "~/lib/form-data.server";
import { createReview } from "~/models/reviews.server";
import { ReviewSchema } from "~/schemas/reviews";
import { invalidateExpert } from "~/services/cache.server";

/** POST /reviews: the dashboard's "Rate" form (an answered question or a completed session, once). */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(context, request);
  const submission = parseWithZod(await readForm(request), { schema: ReviewSchema });
  if (submission.status !== "success") {
    return Response.json({ ok: false, result: submission.reply() }, { status: 400 });
  }
  const result = await createReview(context.primaryDb, user.id, submission.value);
  if (!result.ok) {
    return Response.json(
      { ok: false, result: submission.reply({ formErrors: [result.message] }) },
      { status: result.status },
    );
  }
  // The rating on the expert's card and profile comes from the reviews: drop the cached copies.
  await invalidateExpert(context.cache, { id: result.expertId, customUrls: [result.customUrl] });
  return Response.json({ ok: true, rating: submission.value.rating });
}

export async function loader() {
  throw new Response("Not Found", { status: 404 });
}
