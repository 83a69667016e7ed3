import * as z from "~/lib/zod";
import { recordId } from "./ids";

export const REVIEW_COMMENT_MAX = 1000;

export const REVIEW_MESSAGES = {
  rating: "Please choose a rating from 1 to 5 stars.",
  comment: "Your comment can be at most 1,000 characters.",
  target: "Choose the answer or session you are rating.",
} as const;

const rating = z
  .number({ error: REVIEW_MESSAGES.rating })
  .int({ error: REVIEW_MESSAGES.rating })
  .min(1, { error: REVIEW_MESSAGES.rating })
  .max(5, { error: REVIEW_MESSAGES.rating });

const comment = z
  .string()
  .trim()
  .max(REVIEW_COMMENT_MAX, { error: REVIEW_MESSAGES.comment })
  .optional()
  .transform((value) => (value ? value : null));

const id = recordId(REVIEW_MESSAGES.target);

/** A client's rating of an answered question or a completed session (1 to 5 stars, optional comment). */
export const ReviewSchema = z.discriminatedUnion("subject", [
  z.object({ subject: z.literal("question"), questionId: id, rating, comment }),
  z.object({ subject: z.literal("booking"), bookingId: id, rating, comment }),
]);

export type ReviewInput = z.infer<typeof ReviewSchema>;
