import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { getOptionalUser } from "~/auth/session.server";
import { keepFormWhenOffline } from "~/components/keep-form-when-offline";
import { respondToAction } from "~/lib/action-response.server";
import { captureQuestionPayment, parseExpertId, questionDeps } from "~/models/questions.server";
import { isAdminUser } from "~/models/users.server";

/** POST /questions/{id}/capture: an admin retries a charge Stripe refused when the answer was sent. */
export const clientAction = keepFormWhenOffline;

export async function action({ request, params, context }: ActionFunctionArgs) {
  const reply = (outcome: Parameters<typeof respondToAction>[1]) =>
    respondToAction(request, outcome, { redirectTo: "/admin", fallback: "/admin" });
  const user = await getOptionalUser(context, request);
  if (!user) return reply({ ok: false, status: 401, message: "Please log in." });
  if (!isAdminUser(user))
    return reply({ ok: false, status: 403, message: "Only admins can retry payments." });
  const questionId = parseExpertId(params.questionId);
  if (questionId === null) return reply({ ok: false, status: 404, message: "Question not found." });

  const result = await captureQuestionPayment(questionDeps(context), questionId);
  return result.ok
    ? reply({
        ok: true,
        status: 200,
        message: "The payment was captured.",
        toast: { title: "Payment captured" },
      })
    : reply({
        ok: false,
        status: 409,
        message: result.message,
        toast: { title: "Capture failed", description: result.message, variant: "destructive" },
      });
}

export const loader = () => new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
