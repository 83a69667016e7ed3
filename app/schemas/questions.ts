import * as z from "~/lib/zod";
import { recordId } from "./ids";

/**
 * Asking and answering questions, shared by browser and server, with SPEC.md's exact messages.
 * conform turns empty fields into undefined, so the `error` given to z.string() is the "required"
 * message; booleans arrive as "on" from checkboxes (conform coerces them) or as JSON booleans.
 */
export const QUESTION_LIMITS = { min: 10, max: 5000 } as const;
export const ANSWER_LIMITS = { min: 10, max: 10_000 } as const;
/** The largest audio answer (DESIGN.md "Media"); the browser checks it before sending, the server again. */
export const AUDIO_UPLOAD_MAX_BYTES = 25 * 1024 * 1024;

export const QUESTION_MESSAGES = {
  tooShort: "Your question must be at least 10 characters long",
  tooLong: `Your question must be at most ${QUESTION_LIMITS.max.toLocaleString("en-US")} characters long`,
} as const;

export const ANSWER_MESSAGES = {
  tooShort: "Your answer must be at least 10 characters long",
  tooLong: `Your answer must be at most ${ANSWER_LIMITS.max.toLocaleString("en-US")} characters long`,
  textOrAudio: "Please provide either a text answer or an audio response.",
  audioIsAnAnswer: "An audio response is sent as an answer: choose Answered.",
  notAudio: "Please select an audio file.",
  emptyAudio: "The audio file is empty. Please record or choose it again.",
  unreadableAudio:
    "This audio file could not be read. Please record your answer again or choose another file.",
  audioTooLarge: "The file is too large (at most 25 MB).",
  recordingFull:
    "The recording reached its 24-minute limit, so it stopped there. Listen to it, then send it or record a shorter one.",
  microphone: "Could not access microphone. Please ensure you have given permission to use your microphone.",
} as const;

const QuestionText = z
  .string({ error: QUESTION_MESSAGES.tooShort })
  .trim()
  .min(QUESTION_LIMITS.min, { error: QUESTION_MESSAGES.tooShort })
  .max(QUESTION_LIMITS.max, { error: QUESTION_MESSAGES.tooLong });

/** The Ask screen's form (/ask/{expertId}); the expert comes from the URL, the price from the server. */
export const AskQuestionSchema = z.object({
  question: QuestionText,
  requestAudioResponse: z.boolean().default(false),
  showOnProfile: z.boolean().default(false),
});

/** POST /api/questions: the same fields as JSON, the expert, and the question to retry paying for. */
export const AskQuestionApiSchema = AskQuestionSchema.extend({
  expertId: z.number().int().positive().nullable().optional(),
  questionId: z.number().int().positive().optional(),
  /** The price in cents the asker was shown: checked, never charged from. */
  expectedAmount: z.number().int().nonnegative().optional(),
});

/** POST /api/questions/{id}/payment: the PaymentIntent the browser confirmed. */
export const ConfirmPaymentSchema = z.object({
  paymentIntentId: z
    .string({ error: "A payment is required." })
    .regex(/^pi_[A-Za-z0-9_]{1,250}$/, { error: "A payment is required." }),
});

export const ANSWER_STATUS_OPTIONS = [
  { value: "answered", label: "Answered" },
  { value: "pending", label: "Pending" },
] as const;

/**
 * An answer: text, or a recorded/uploaded file (`hasAudio`, set from the upload), or both. The
 * expert's dialog says SPEC.md's "at least 10 characters" when nothing is given; the admin form says
 * "text or audio". Choosing Pending keeps a text draft without sending it.
 */
export function answerSchema(who: "expert" | "admin") {
  return z
    .object({
      answer: z.string().trim().max(ANSWER_LIMITS.max, { error: ANSWER_MESSAGES.tooLong }).optional(),
      status: z.enum(["answered", "pending"]).default("answered"),
      hasAudio: z.boolean().default(false),
    })
    .superRefine((value, ctx) => {
      const text = value.answer ?? "";
      if (text.length === 0 && !value.hasAudio) {
        ctx.addIssue({
          code: "custom",
          path: ["answer"],
          message: who === "admin" ? ANSWER_MESSAGES.textOrAudio : ANSWER_MESSAGES.tooShort,
        });
      } else if (text.length > 0 && text.length < ANSWER_LIMITS.min) {
        ctx.addIssue({ code: "custom", path: ["answer"], message: ANSWER_MESSAGES.tooShort });
      }
      if (value.hasAudio && value.status === "pending") {
        ctx.addIssue({ code: "custom", path: ["status"], message: ANSWER_MESSAGES.audioIsAnAnswer });
      }
    });
}

export type AnswerInput = z.infer<ReturnType<typeof answerSchema>>;

/** /test-audio's ask form (SPEC.md section 5, "Test ask form"). */
export const TestAskSchema = z.object({
  question: z
    .string({ error: "Question must be at least 10 characters" })
    .trim()
    .min(QUESTION_LIMITS.min, { error: "Question must be at least 10 characters" })
    .max(QUESTION_LIMITS.max, { error: QUESTION_MESSAGES.tooLong }),
  expertId: recordId("Please select an expert"),
});

/** PATCH /api/questions/{id}: SPEC.md's answer update; `audioResponse` is never a path the caller picks (upload with /audio). */
export const AnswerPatchSchema = z.object({
  answer: z.string({ error: "answer must be text" }).optional(),
  status: z.enum(["answered", "pending"], { error: "status must be answered or pending" }).optional(),
  audioResponse: z.unknown().optional(),
});

/** POST /api/create-payment-intent for a question; `amount` is accepted and ignored (the server prices it). */
export const QuestionPaymentIntentSchema = AskQuestionApiSchema.extend({
  type: z.literal("question").optional(),
  amount: z.unknown().optional(),
});
