import { Link } from "@remix-run/react";
import { StatusPage } from "~/components/status-page";
import { buttonClass } from "~/components/ui/button";
import { parseId } from "~/lib/ids";

export const CONFIRMATION_COPY = {
  subscription: {
    title: "Subscription Activated!",
    description:
      "Your monthly subscription is active: one new question per day is included, and each one gets a personalised expert answer within 24 hours.",
  },
  booking: {
    title: "Session Booked!",
    description:
      "Your 60-minute session is confirmed. You'll find it in your dashboard, with links to add it to your calendar.",
  },
  bookingProcessing: {
    title: "Session Reserved",
    description:
      "Your payment is processing. Your 60-minute session is held for you and confirmed as soon as the payment arrives; you'll find it in your dashboard.",
  },
  question: {
    title: "Question Submitted!",
    description:
      "Thank you for your question. An expert will send you a personalised answer within 24 hours, and most answers arrive within 12.",
  },
} as const;

export function confirmationKind(search: string): keyof typeof CONFIRMATION_COPY {
  const params = new URLSearchParams(search);
  if (params.get("subscription") === "true") return "subscription";
  if (!params.has("booking")) return "question";
  return params.get("payment") === "processing" ? "bookingProcessing" : "booking";
}

/** The question just asked (`?question=42` on /thank-you), to link to its page; null if absent. */
export function confirmationQuestionId(search: string): number | null {
  return parseId(new URLSearchParams(search).get("question"));
}

/**
 * /thank-you, /confirmation and /success (SPEC.md): `?subscription=true` switches the text;
 * `?question={id}` adds a link to the question just asked; `?booking={id}` is a booked session.
 */
export function ConfirmationScreen({
  kind,
  questionId = null,
}: {
  kind: keyof typeof CONFIRMATION_COPY;
  questionId?: number | null;
}) {
  const copy = CONFIRMATION_COPY[kind];
  return (
    <StatusPage
      icon={kind === "bookingProcessing" ? "…" : "✓"}
      tone={kind === "bookingProcessing" ? "default" : "success"}
      title={copy.title}
      actions={
        <>
          <Link to="/" className={buttonClass()}>
            Return to Home
          </Link>
          {kind === "booking" || kind === "bookingProcessing" ? (
            <Link to="/dashboard/bookings" className={buttonClass({ variant: "secondary" })}>
              View my bookings
            </Link>
          ) : null}
          {questionId ? (
            <Link to={`/questions/${questionId}`} className={buttonClass({ variant: "secondary" })}>
              View your question
            </Link>
          ) : null}
          {kind === "subscription" ? (
            <Link to="/experts" className={buttonClass({ variant: "secondary" })}>
              Ask today's question
            </Link>
          ) : null}
          <Link to="/dashboard" className={buttonClass({ variant: "secondary" })}>
            My Dashboard
          </Link>
        </>
      }
    >
      <p className="muted">{copy.description}</p>
      {kind === "subscription" ? (
        <p>
          Ask today's question now: your daily question resets at midnight UTC, so another one is waiting
          tomorrow.
        </p>
      ) : kind === "bookingProcessing" ? (
        <p>
          If the payment fails, the time is given back and nothing is charged. Once it is confirmed, the video
          call link is sent to you and the expert 15 minutes before the session starts.
        </p>
      ) : kind === "booking" ? (
        <p>
          The video call link is sent to you and the expert 15 minutes before the session starts. You can
          cancel up to 24 hours before the start for a full refund.
        </p>
      ) : (
        <p>
          We'll let you know as soon as your answer is ready. You can follow its status in your dashboard.
        </p>
      )}
    </StatusPage>
  );
}
