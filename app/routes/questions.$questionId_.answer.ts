import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { getOptionalUser } from "~/auth/session.server";
import { respondToAction } from "~/lib/action-response.server";
import {
  actorOf,
  answerQuestion,
  checkCanManage,
  parseExpertId,
  questionDeps,
} from "~/models/questions.server";
import { ANSWER_MESSAGES, answerSchema } from "~/schemas/questions";
import {
  AUDIO_MAX_BYTES,
  readUploadedFile,
  readUploadForm,
  sniffAudioType,
  storeAudio,
  UploadError,
} from "~/services/media.server";

/**
 * POST /questions/{id}/answer: the expert (or an admin) answers by text, by a recorded or uploaded
 * audio file (multipart field `audio`), or both; `status=pending` keeps a text draft. The expert's
 * desk, the admin area and /test-audio all post here.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  const reply = (outcome: Parameters<typeof respondToAction>[1]) =>
    respondToAction(request, outcome, { redirectTo, fallback: "/expert/questions" });

  const user = await getOptionalUser(context, request);
  if (!user) return reply({ ok: false, status: 401, message: "Please log in to answer questions." });
  const questionId = parseExpertId(params.questionId);
  const actor = actorOf(user);
  const deps = questionDeps(context);
  if (questionId === null) return reply({ ok: false, status: 404, message: "Question not found." });

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
  const file = form.get("audio");
  const hasAudio = typeof file === "object" && file !== null && file.size > 0;
  const parsed = answerSchema(form.get("who") === "admin" ? "admin" : "expert").safeParse({
    answer: String(form.get("answer") ?? "") || undefined,
    status: form.get("status") || undefined,
    hasAudio,
  });
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? "answer");
      fieldErrors[key] = [...(fieldErrors[key] ?? []), issue.message];
    }
    return reply({ ok: false, status: 400, message: parsed.error.issues[0].message, fieldErrors });
  }

  // Refuse before anything is stored: another expert's question, one already answered...
  const refusal = await checkCanManage(deps.db, questionId, actor, deps.now);
  if (refusal) return reply({ ok: false, status: refusal.httpStatus, message: refusal.message });

  let audio: { key: string; contentType: string } | null = null;
  if (hasAudio) {
    try {
      const upload = await readUploadedFile(file, {
        maxBytes: AUDIO_MAX_BYTES,
        sniff: sniffAudioType,
        wrongTypeMessage: ANSWER_MESSAGES.notAudio,
      });
      const stored = await storeAudio(context.media, upload.bytes, upload.contentType, { questionId });
      audio = { key: stored.key, contentType: upload.contentType };
    } catch (error) {
      if (!(error instanceof UploadError)) throw error;
      return reply({
        ok: false,
        status: error.status,
        message: error.message,
        fieldErrors: { audio: [error.message] },
      });
    }
  }

  const result = await answerQuestion(deps, {
    actor,
    questionId,
    answer: parsed.data.answer || null,
    status: parsed.data.status,
    audio,
  });
  if (!result.ok) {
    if (audio) await context.media.delete(audio.key);
    return reply({ ok: false, status: result.httpStatus, message: result.message });
  }
  if (result.status === "draft") {
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
