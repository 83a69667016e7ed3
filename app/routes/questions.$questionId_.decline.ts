import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { getOptionalUser } from "~/auth/session.server";
import { declineClientAction } from "~/components/questions/decline-action.client";
import { respondToAction } from "~/lib/action-response.server";
import { actorOf, declineQuestion, parseExpertId, questionDeps } from "~/models/questions.server";

/** POST /questions/{id}/decline: the expert (or an admin) declines; the asker is never charged. */
export const clientAction = declineClientAction;

export async function action({ request, params, context }: ActionFunctionArgs) {
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  const reply = (outcome: Parameters<typeof respondToAction>[1]) =>
    respondToAction(request, outcome, { redirectTo, fallback: "/expert/questions" });
  const user = await getOptionalUser(context, request);
  if (!user) return reply({ ok: false, status: 401, message: "Please log in to manage questions." });
  const questionId = parseExpertId(params.questionId);
  if (questionId === null) return reply({ ok: false, status: 404, message: "Question not found." });

  const result = await declineQuestion(questionDeps(context), { actor: actorOf(user), questionId });
  if (!result.ok) return reply({ ok: false, status: result.httpStatus, message: result.message });
  return reply({
    ok: true,
    status: 200,
    message: "The question was declined and the client was not charged.",
    payment: result.payment,
    toast: { title: "Question declined", description: "The client was told and was not charged." },
  });
}

export const loader = () => new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
