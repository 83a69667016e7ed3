import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { apiError, methodNotAllowed, readJson, requireApiUser } from "~/lib/api.server";
import { confirmQuestionPayment, parseExpertId, questionDeps } from "~/models/questions.server";
import { ConfirmPaymentSchema } from "~/schemas/questions";

export const allowedMethods = ["POST"] as const;

/**
 * POST /api/questions/{id}/payment {paymentIntentId}: the browser confirmed the payment; the server
 * checks the PaymentIntent with Stripe (this question's, authorised, right amount) before the
 * question counts as paid. 400 with the reason otherwise; nothing changes.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(...allowedMethods);
  const user = await requireApiUser(context, request);
  const questionId = parseExpertId(params.questionId);
  if (questionId === null) return apiError(404, "Question not found.");
  const { paymentIntentId } = await readJson(request, ConfirmPaymentSchema);
  const result = await confirmQuestionPayment(questionDeps(context), {
    userId: user.id,
    questionId,
    paymentIntentId,
  });
  if (!result.ok)
    return apiError(result.reason === "not_found" ? 404 : 400, result.message, { reason: result.reason });
  return Response.json(
    { status: "pending", questionId, redirectTo: `/thank-you?question=${questionId}` },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const loader = () => methodNotAllowed(...allowedMethods);
