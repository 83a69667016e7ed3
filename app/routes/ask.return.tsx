import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireUser } from "~/auth/guards.server";
import {
  confirmQuestionPayment,
  getQuestionRow,
  parseExpertId,
  questionDeps,
} from "~/models/questions.server";
import { redirectWithToast } from "~/services/flash.server";
import { paymentNotConfirmedYet } from "~/services/payment-return.server";

/**
 * GET /ask/return?question={id}&payment_intent={pi}: where Stripe sends the browser back after a
 * payment method that needed a redirect (a bank page, 3-D Secure in a new window). The server checks
 * the PaymentIntent itself; the query string is only a hint of which one.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  const url = new URL(request.url);
  const questionId = parseExpertId(url.searchParams.get("question"));
  const paymentIntentId = url.searchParams.get("payment_intent") ?? "";
  const deps = questionDeps(context);
  const found = questionId === null ? null : await getQuestionRow(deps.db, questionId);
  // Someone else's question is answered as one that does not exist: not even its expert shows.
  const question = found?.userId === user.id ? found : null;
  const back = question?.expertId ? `/ask/${question.expertId}` : "/ask";
  if (!question || !paymentIntentId) {
    return redirectWithToast(back, {
      title: "Error",
      description: "An error occurred while submitting your question. Please try again.",
      variant: "destructive",
    });
  }
  let result: Awaited<ReturnType<typeof confirmQuestionPayment>>;
  try {
    result = await confirmQuestionPayment(deps, {
      userId: user.id,
      questionId: question.id,
      paymentIntentId,
    });
  } catch (error) {
    return paymentNotConfirmedYet("question", { questionId: question.id }, error);
  }
  if (!result.ok) {
    // Back to the form, filled again with this question, which paying again will reuse.
    return redirectWithToast(`${back}?${new URLSearchParams({ retry: String(question.id) })}`, {
      title: "Payment Failed",
      description: result.message,
      variant: "destructive",
    });
  }
  return redirectWithToast(`/thank-you?question=${question.id}`, {
    title: "Success!",
    description: "Your question was submitted.",
  });
}
