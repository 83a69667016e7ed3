import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { apiError, apiJson, methodNotAllowed, parsePathId, readJson, requireApiUser } from "~/lib/api.server";
import { actorOf } from "~/models/questions.server";
import { isAdminUser } from "~/models/users.server";
import { AnswerPatchSchema } from "~/schemas/questions";
import { submitAnswer } from "~/services/answers.server";

export const allowedMethods = ["PATCH"] as const;

/**
 * PATCH /api/questions/{id} {answer, status} (SPEC.md section 7): the expert of the question, or an
 * admin, answers it (`answered`, which captures the payment) or saves a draft (`pending`), with the
 * answer dialog's rules. Anyone else: 404, as on the screens (no hint the question exists).
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "PATCH") return methodNotAllowed(...allowedMethods);
  const user = await requireApiUser(context, request);
  const questionId = parsePathId(params.questionId);
  if (questionId === null) return apiError(404, "Question not found.");
  const input = await readJson(request, AnswerPatchSchema);
  const result = await submitAnswer(context, actorOf(user), questionId, {
    who: isAdminUser(user) && !user.expertProfile ? "admin" : "expert",
    answer: input.answer,
    status: input.status,
    file: null,
  });
  if (!result.ok) return apiError(result.status, result.message, { fieldErrors: result.fieldErrors });
  if (result.kind === "draft") return apiJson({ id: questionId, status: "in_progress" });
  return apiJson({ id: questionId, status: "answered", payment: result.payment });
}

export const loader = () => methodNotAllowed(...allowedMethods);
