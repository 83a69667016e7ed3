/**
 * Submitting an answer (text, an audio file, or both; or a text draft), shared by the screens'
 * POST /questions/{id}/answer and the API's PATCH /api/questions/{id} and POST
 * /api/questions/{id}/audio: the same checks, in the same order, whatever the transport.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import {
  type Actor,
  answerQuestion,
  checkCanManage,
  type PaymentOutcome,
  questionDeps,
} from "~/models/questions.server";
import { ANSWER_MESSAGES, answerSchema } from "~/schemas/questions";
import { isReadableAudio } from "./audio-files.server";
import { invalidateExpert } from "./cache.server";
import { AUDIO_MAX_BYTES, readUploadedFile, sniffAudioType, storeAudio, UploadError } from "./media.server";

export type AnswerSubmission = {
  /** Which form's message to give when nothing is sent (SPEC.md section 5: expert dialog or admin). */
  who: "expert" | "admin";
  answer: string | undefined;
  status: unknown;
  file: FormDataEntryValue | null;
};

export type SubmitAnswerOutcome =
  | { ok: true; kind: "answered"; payment: PaymentOutcome; hasAudio: boolean }
  | { ok: true; kind: "draft" }
  | { ok: false; status: number; message: string; fieldErrors?: Record<string, string[]> };

/** A body up to this size is read before the check: a text answer, or a form without a file. */
const READ_BEFORE_CHECK_BYTES = 64 * 1024;

/**
 * The refusal for someone who may not answer `questionId`, found before an upload's body is read:
 * otherwise anyone signed in could make the Worker hold 25 MB for a question that is not theirs, or
 * does not exist. Small bodies skip it (submitAnswer checks again in any case, at the moment of
 * answering); a body that does not declare its length does not.
 */
export async function refusalBeforeUpload(
  context: AppLoadContext,
  request: Request,
  actor: Actor,
  questionId: number,
): Promise<{ status: number; message: string } | null> {
  const declared = Number(request.headers.get("Content-Length") ?? Number.NaN);
  if (declared <= READ_BEFORE_CHECK_BYTES) return null;
  const refusal = await checkCanManage(context.primaryDb, questionId, actor, new Date(context.now()));
  return refusal ? { status: refusal.httpStatus, message: refusal.message } : null;
}

export async function submitAnswer(
  context: AppLoadContext,
  actor: Actor,
  questionId: number,
  submission: AnswerSubmission,
): Promise<SubmitAnswerOutcome> {
  const deps = questionDeps(context);
  const { file } = submission;
  const hasAudio = typeof file === "object" && file !== null && file.size > 0;
  // A file was chosen but holds nothing: say so, rather than ask for a text answer on the audio tab.
  if (typeof file === "object" && file !== null && file.size === 0 && file.name !== "") {
    const message = ANSWER_MESSAGES.emptyAudio;
    return { ok: false, status: 400, message, fieldErrors: { audio: [message] } };
  }
  const parsed = answerSchema(submission.who).safeParse({
    answer: submission.answer || undefined,
    status: submission.status || undefined,
    hasAudio,
  });
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? "answer");
      fieldErrors[key] = [...(fieldErrors[key] ?? []), issue.message];
    }
    return { ok: false, status: 400, message: parsed.error.issues[0].message, fieldErrors };
  }

  // Refuse before anything is stored: another expert's question, one already answered...
  const refusal = await checkCanManage(deps.db, questionId, actor, deps.now);
  if (refusal) return { ok: false, status: refusal.httpStatus, message: refusal.message };

  let audio: { key: string; contentType: string } | null = null;
  if (hasAudio) {
    try {
      const upload = await readUploadedFile(file, {
        maxBytes: AUDIO_MAX_BYTES,
        sniff: sniffAudioType,
        wrongTypeMessage: ANSWER_MESSAGES.notAudio,
      });
      // Answering captures the asker's payment: it must not be for a file nobody can play.
      if (!isReadableAudio(upload.bytes, upload.contentType)) {
        throw new UploadError(ANSWER_MESSAGES.unreadableAudio, 415);
      }
      const stored = await storeAudio(context.media, upload.bytes, upload.contentType, { questionId });
      audio = { key: stored.key, contentType: upload.contentType };
    } catch (error) {
      if (!(error instanceof UploadError)) throw error;
      return {
        ok: false,
        status: error.status,
        message: error.message,
        fieldErrors: { audio: [error.message] },
      };
    }
  }

  // The clock again: a long upload can outlast the deadline that was checked before it.
  const result = await answerQuestion(
    { ...deps, now: new Date(context.now()) },
    {
      actor,
      questionId,
      answer: parsed.data.answer || null,
      status: parsed.data.status,
      audio,
    },
  );
  if (!result.ok) {
    if (audio) await context.media.delete(audio.key);
    return { ok: false, status: result.httpStatus, message: result.message };
  }
  if (result.status === "draft") return { ok: true, kind: "draft" };
  // The profile shows how many questions the expert answered, and the ones published there.
  if (result.expert) {
    await invalidateExpert(context, { id: result.expert.id, customUrls: [result.expert.customUrl] });
  }
  return { ok: true, kind: "answered", payment: result.payment, hasAudio: audio !== null };
}
