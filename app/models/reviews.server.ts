/**
 * Reviews (DESIGN.md: clients rate an answered question or a completed session once, 1 to 5 stars,
 * optional comment). "Once" is the database's unique index on the question or booking, not a
 * read-then-write. The expert's rating everywhere is computed from these rows by the read models.
 */
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors.server";
import { bookings, experts, questions, reviews } from "~/db/schema.server";
import type { ReviewInput } from "~/schemas/reviews";

export const REVIEW_REFUSALS = {
  notFound: "We could not find that answer or session.",
  notYet: "You can rate an answer once it has arrived, and a session once it has taken place.",
  already: "You have already rated this.",
} as const;

export type ReviewResult =
  | { ok: true; reviewId: number; expertId: number; customUrl: string | null }
  | { ok: false; status: 404 | 409; message: string };

/** Records `userId`'s review of their own answered question or completed session. */
export async function createReview(db: Database, userId: number, input: ReviewInput): Promise<ReviewResult> {
  const subject =
    input.subject === "question"
      ? (
          await db
            .select({ userId: questions.userId, expertId: questions.expertId, status: questions.status })
            .from(questions)
            .where(eq(questions.id, input.questionId))
            .limit(1)
        )[0]
      : (
          await db
            .select({ userId: bookings.userId, expertId: bookings.expertId, status: bookings.status })
            .from(bookings)
            .where(eq(bookings.id, input.bookingId))
            .limit(1)
        )[0];
  // Someone else's question or session is simply not there.
  if (!subject || subject.userId !== userId || subject.expertId === null) {
    return { ok: false, status: 404, message: REVIEW_REFUSALS.notFound };
  }
  const done = input.subject === "question" ? subject.status === "answered" : subject.status === "completed";
  if (!done) return { ok: false, status: 409, message: REVIEW_REFUSALS.notYet };
  try {
    const [row] = await db
      .insert(reviews)
      .values({
        userId,
        expertId: subject.expertId,
        rating: input.rating,
        comment: input.comment,
        questionId: input.subject === "question" ? input.questionId : null,
        bookingId: input.subject === "booking" ? input.bookingId : null,
      })
      .returning({ id: reviews.id });
    const [expert] = await db
      .select({ customUrl: experts.customUrl })
      .from(experts)
      .where(eq(experts.id, subject.expertId))
      .limit(1);
    return { ok: true, reviewId: row.id, expertId: subject.expertId, customUrl: expert?.customUrl ?? null };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, status: 409, message: REVIEW_REFUSALS.already };
    throw error;
  }
}
