import { useFetcher, useLocation } from "@remix-run/react";
import { useId, useRef, useState } from "react";
import { stopWhenOffline } from "~/components/keep-form-when-offline";
import { Button } from "~/components/ui/button";
import { REVIEW_COMMENT_MAX } from "~/schemas/reviews";

type ReviewReply = {
  ok: boolean;
  rating?: number;
  result?: { error?: Record<string, string[] | null> | null };
};

/**
 * "Rate this answer / session": 1 to 5 stars (radio buttons, so keyboard and screen readers work as
 * for any choice) and an optional comment, posted to /reviews. Once rated, it says how.
 */
export function ReviewForm({
  subject,
  id,
  myRating,
}: {
  subject: "question" | "booking";
  id: number;
  myRating: number | null;
}) {
  const fetcher = useFetcher<ReviewReply>();
  const location = useLocation();
  const formId = useId();
  const [rating, setRating] = useState<number | null>(null);
  // A second click lands before the button re-renders disabled: one rating is sent, not two.
  const sending = useRef(false);
  if (fetcher.state === "idle") sending.current = false;
  const rated = myRating ?? (fetcher.data?.ok ? (fetcher.data.rating ?? null) : null);
  // Sent, the form gives way to its thanks, which takes the focus its Submit button had.
  const doneId = `${formId}-done`;
  if (rated !== null) {
    return (
      <p id={doneId} className="review-done" role="status" tabIndex={-1}>
        {`You rated this ${rated} out of 5 stars. Thank you!`}
      </p>
    );
  }
  const errors = fetcher.data?.ok === false ? (fetcher.data.result?.error ?? {}) : {};
  const ratingError = errors.rating?.[0] ?? (errors[""]?.[0] || null);
  const commentError = errors.comment?.[0] ?? null;
  const label = subject === "question" ? "Rate this answer" : "Rate this session";
  return (
    <fetcher.Form
      method="post"
      action="/reviews"
      className="review-form stack"
      aria-labelledby={`${formId}-title`}
      data-focus-fallback={doneId}
      onSubmit={(event) => {
        if (sending.current) event.preventDefault();
        else if (!stopWhenOffline(event)) sending.current = true;
      }}
    >
      <input type="hidden" name="subject" value={subject} />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <input type="hidden" name={subject === "question" ? "questionId" : "bookingId"} value={id} />
      <fieldset
        className="review-form__stars"
        aria-describedby={ratingError ? `${formId}-rating-error` : undefined}
      >
        <legend id={`${formId}-title`}>
          {label}
          {/* Unique names for the forms (landmarks) when a list holds several. */}
          <span className="visually-hidden">{`, ${subject} #${id}`}</span>
        </legend>
        {[1, 2, 3, 4, 5].map((value) => {
          const on = rating !== null && value <= rating;
          return (
            <label key={value} className="review-star" data-on={on}>
              <input
                type="radio"
                name="rating"
                value={value}
                required
                checked={rating === value}
                onChange={() => setRating(value)}
              />
              {/* Outlined until chosen: a grey filled star read as already given. */}
              <span aria-hidden="true">{on ? "★" : "☆"}</span>
              <span className="visually-hidden">
                {value} {value === 1 ? "star" : "stars"}
              </span>
            </label>
          );
        })}
      </fieldset>
      {ratingError ? (
        <p id={`${formId}-rating-error`} className="form-error" role="alert">
          {ratingError}
        </p>
      ) : null}
      <label className="field review-form__comment">
        <span className="label">Comment (optional)</span>
        <textarea
          className="textarea"
          name="comment"
          rows={3}
          maxLength={REVIEW_COMMENT_MAX}
          aria-invalid={commentError ? true : undefined}
          aria-describedby={commentError ? `${formId}-comment-error` : undefined}
        />
      </label>
      {commentError ? (
        <p id={`${formId}-comment-error`} className="form-error" role="alert">
          {commentError}
        </p>
      ) : null}
      <div>
        <Button type="submit" size="sm" disabled={fetcher.state !== "idle"}>
          {fetcher.state !== "idle" ? "Sending..." : "Submit rating"}
        </Button>
      </div>
    </fetcher.Form>
  );
}
