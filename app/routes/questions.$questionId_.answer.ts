import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { getOptionalUser } from "~/auth/session.server";
import { keepFormWhenOffline } from "~/components/keep-form-when-offline";
import { respondToAction } from "~/lib/action-response.server";
import { actorOf, parseExpertId } from "~/models/questions.server";
import { refusalBeforeUpload, submitAnswer } from "~/services/answers.server";
import { AUDIO_MAX_BYTES, readUploadForm, UploadError } from "~/services/media.server";

/**
 * POST /questions/{id}/answer: the expert (or an admin) answers by text, by a recorded or uploaded
 * audio file (multipart field `audio`), or both; `status=pending` keeps a text draft. The expert's
 * desk, the admin area and /test-audio all post here.
 */
export const clientAction = keepFormWhenOffline;

export async function action({ request, params, context }: ActionFunctionArgs) {
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  const reply = (outcome: Parameters<typeof respondToAction>[1]) =>
    respondToAction(request, outcome, { redirectTo, fallback: "/expert/questions" });

  const user = await getOptionalUser(context, request);
  if (!user) return reply({ ok: false, status: 401, message: "Please log in to answer questions." });
  const questionId = parseExpertId(params.questionId);
  const actor = actorOf(user);
  if (questionId === null) return reply({ ok: false, status: 404, message: "Question not found." });
  const refusal = await refusalBeforeUpload(context, request, actor, questionId);
  if (refusal) return reply({ ok: false, ...refusal });

  let form: FormData;
  try {
    form = await readUploadForm(request, AUDIO_MAX_BYTES);
  } catch (error) {
    if (!(error instanceof UploadError)) throw error;
    return reply({
      ok: false,
      status: error.status,
      message: error.message,
      fieldErrors: { audio: [error.message] },
    });
  }
  const result = await submitAnswer(context, actor, questionId, {
    who: form.get("who") === "admin" ? "admin" : "expert",
    answer: String(form.get("answer") ?? "") || undefined,
    status: form.get("status"),
    file: form.get("audio"),
  });
  if (!result.ok) {
    return reply({
      ok: false,
      status: result.status,
      message: result.message,
      fieldErrors: result.fieldErrors,
    });
  }
  if (result.kind === "draft") {
    return reply({
      ok: true,
      status: 200,
      message: "Your draft is saved. The client sees that you are working on the answer.",
      toast: { title: "Draft saved", description: "Your answer is saved but not sent yet." },
    });
  }
  return reply({
    ok: true,
    status: 200,
    message: "Answer submitted successfully.",
    payment: result.payment,
    toast: { title: "Success!", description: "Answer submitted successfully." },
  });
}

export const loader = () => new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
