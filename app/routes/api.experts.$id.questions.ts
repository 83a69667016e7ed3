import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getOptionalUser } from "~/auth/session.server";
import { apiError, apiJson, parsePathId } from "~/lib/api.server";
import { OPEN_QUESTION_STATUSES } from "~/lib/questions";
import { listQuestionsForExpert } from "~/models/questions.server";
import { isAdminUser } from "~/models/users.server";
import { readExpertProfile } from "~/services/read-models.server";

const STATUSES = ["answered", "pending"] as const;

/**
 * GET /api/experts/{id}/questions[?status=answered|pending] (SPEC.md section 7). Without a status,
 * or with `answered`: anyone sees the answers the askers allowed on the public profile (the latest
 * 10, as the profile shows them), and the expert (or an admin) sees every answered question.
 * `pending` (open: pending or in progress) is for the expert and admins only.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = parsePathId(params.id);
  const status = new URL(request.url).searchParams.get("status") ?? "answered";
  if (!STATUSES.includes(status as (typeof STATUSES)[number])) {
    return apiError(400, `status must be one of ${STATUSES.join(", ")}`);
  }
  const expert = id === null ? null : await readExpertProfile(context, { id });
  if (!expert) return apiError(404, "Expert not found");
  const user = await getOptionalUser(context, request);
  const seesAll = user !== null && (user.expertProfile?.id === expert.id || isAdminUser(user));
  if (!seesAll) {
    if (status === "pending") {
      return user
        ? apiError(403, "Only the expert can see their pending questions.")
        : apiError(401, "Authentication required");
    }
    return apiJson(expert.answers);
  }
  const all = await listQuestionsForExpert(context.primaryDb, expert.id);
  return apiJson(
    all.filter((question) =>
      status === "answered"
        ? question.status === "answered"
        : (OPEN_QUESTION_STATUSES as readonly string[]).includes(question.status),
    ),
  );
}
