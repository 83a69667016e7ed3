import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { apiError, apiJson, methodNotAllowed, parsePathId, requireApiUser } from "~/lib/api.server";
import { mediaTypeOf } from "~/lib/form-data.server";
import { actorOf } from "~/models/questions.server";
import { isAdminUser } from "~/models/users.server";
import { ANSWER_MESSAGES } from "~/schemas/questions";
import { refusalBeforeUpload, submitAnswer } from "~/services/answers.server";
import { AUDIO_MAX_BYTES, readUploadForm, UploadError } from "~/services/media.server";

export const allowedMethods = ["POST"] as const;

/**
 * POST /api/questions/{id}/audio, multipart: `audio` (the recording; its bytes decide its type,
 * whatever it is called), `status` (answered), and an optional text `answer` (SPEC.md section 7).
 * Answers the question as the answer dialog does and returns `audioPath`, where the asker, the expert
 * and admins can stream it. 413 for a file over 25 MB, 415 for a file that is not audio or does
 * not hold together as one (nothing is stored, nothing is charged).
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(...allowedMethods);
  const user = await requireApiUser(context, request);
  const questionId = parsePathId(params.questionId);
  if (questionId === null) return apiError(404, "Question not found.");
  if (mediaTypeOf(request) !== "multipart/form-data") {
    return apiError(415, "Expected a multipart/form-data body with an audio file");
  }
  const refusal = await refusalBeforeUpload(context, request, actorOf(user), questionId);
  if (refusal) return apiError(refusal.status, refusal.message);
  let form: FormData;
  try {
    form = await readUploadForm(request, AUDIO_MAX_BYTES);
  } catch (error) {
    if (!(error instanceof UploadError)) throw error;
    return apiError(error.status, error.message, { fieldErrors: { audio: [error.message] } });
  }
  const file = form.get("audio");
  if (typeof file !== "object" || file === null || file.size === 0) {
    return apiError(400, ANSWER_MESSAGES.notAudio, { fieldErrors: { audio: [ANSWER_MESSAGES.notAudio] } });
  }
  const result = await submitAnswer(context, actorOf(user), questionId, {
    who: isAdminUser(user) && !user.expertProfile ? "admin" : "expert",
    answer: String(form.get("answer") ?? "") || undefined,
    status: form.get("status"),
    file,
  });
  if (!result.ok) return apiError(result.status, result.message, { fieldErrors: result.fieldErrors });
  if (result.kind === "draft") return apiError(400, ANSWER_MESSAGES.audioIsAnAnswer);
  return apiJson({
    id: questionId,
    status: "answered",
    payment: result.payment,
    audioPath: `/questions/${questionId}/audio`,
  });
}

export const loader = () => methodNotAllowed(...allowedMethods);
