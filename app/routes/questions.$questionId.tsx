import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/auth/guards.server";
import { QuestionAnswerView } from "~/components/questions/question-answer-view";
import { StatusBadge } from "~/components/questions/status-badge";
import { ReviewForm } from "~/components/review-form";
import { seo } from "~/components/seo";
import { buttonClass } from "~/components/ui/button";
import { useFocusKeeper } from "~/components/use-focus-keeper";
import { useRefreshWhileVisible } from "~/components/use-refresh-while-visible";
import { useViewerTimeZone } from "~/components/use-viewer-time-zone";
import { formatDateTime, isOpenQuestion, paymentOutcomeText, WAITING_REFRESH_MS } from "~/lib/questions";
import { type Actor, actorOf, getQuestionForViewer, parseExpertId } from "~/models/questions.server";
import questionsStylesHref from "~/styles/questions.css";
import reviewStylesHref from "~/styles/reviews.css";

export const links = () => [
  { rel: "stylesheet", href: questionsStylesHref },
  { rel: "stylesheet", href: reviewStylesHref },
];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  ...seo(
    data?.question ? `Question #${data.question.id}` : "Question",
    "Your question and the expert's answer.",
  ),
  { name: "robots", content: "noindex" },
];

/** /questions/{id}: a question, its status, what was charged, and the answer (text and audio). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  const questionId = parseExpertId(params.questionId);
  const actor = actorOf(user);
  const question =
    questionId === null ? null : await getQuestionForViewer(context.primaryDb, questionId, actor);
  // Someone else's question is simply not there.
  if (!question) throw new Response("Not Found", { status: 404 });
  return { question, ...placesFor(actor, question) };
}

/**
 * Where the viewer works on this question and their own dashboard: the question's expert answers
 * from their desk, an admin from the admin area; the asker has only their dashboard.
 */
function placesFor(actor: Actor, question: { id: number; expertId: number | null; viewerIsAsker: boolean }) {
  if (actor.expertId !== null && actor.expertId === question.expertId) {
    return { desk: { path: "/expert/questions", ofAdmin: false }, dashboardPath: "/expert/dashboard" };
  }
  if (actor.isAdmin && !question.viewerIsAsker) {
    return { desk: { path: `/admin?question=${question.id}`, ofAdmin: true }, dashboardPath: "/admin" };
  }
  return { desk: null, dashboardPath: "/dashboard" };
}

export default function QuestionScreen() {
  const { question, desk, dashboardPath } = useLoaderData<typeof loader>();
  const timeZone = useViewerTimeZone();
  // Once rated, the Rate form gives way to its thanks, which takes the focus (data-focus-fallback).
  useFocusKeeper();
  // The asker waiting on the page sees the answer (or the decline) arrive.
  useRefreshWhileVisible(WAITING_REFRESH_MS, isOpenQuestion(question.status));
  const payment = question.viewerIsAsker
    ? paymentOutcomeText(question.paymentState, question.amountText)
    : null;
  return (
    <div className="page narrow-question stack-lg">
      <header className="page-header">
        <p className="eyebrow">Question #{question.id}</p>
        <h1>{question.viewerIsAsker ? "Your question" : `Question from ${question.name ?? "a client"}`}</h1>
        <div className="cluster">
          <StatusBadge status={question.status} long />
          <span className="muted">Asked {formatDateTime(question.createdAt, timeZone)}</span>
          {question.expertName ? <span className="muted">to {question.expertName}</span> : null}
        </div>
      </header>

      <section className="card stack" aria-label="Question">
        <p className="question-text">{question.question}</p>
        {question.requestAudioResponse ? <p className="hint">An audio response was requested.</p> : null}
        {payment ? <p className="notice">{payment}</p> : null}
      </section>

      {question.status === "answered" ? (
        <section className="card stack" aria-labelledby="answer-heading">
          <h2 id="answer-heading">The expert's answer</h2>
          <QuestionAnswerView
            questionId={question.id}
            answer={question.answer}
            hasAudio={question.hasAudio}
            answeredAt={question.answeredAt}
          />
          {/* A general question (no expert) an admin answered has nobody to rate. */}
          {question.viewerIsAsker && question.expertId !== null ? (
            <ReviewForm subject="question" id={question.id} myRating={question.myRating} />
          ) : null}
        </section>
      ) : question.status === "rejected" ? (
        <p className="notice notice--warning">This question was declined. You were not charged.</p>
      ) : question.status === "expired" ? (
        <p className="notice notice--warning">No answer in time: you were not charged.</p>
      ) : question.status === "awaiting_payment" ? (
        <div className="notice notice--warning stack">
          <p>
            This question has not been paid for, so it has not been sent to an expert yet. If you just paid,
            it is sent as soon as the payment is confirmed; otherwise, ask it again to pay.
          </p>
          <div>
            <Link
              to={question.expertId === null ? "/ask" : `/ask/${question.expertId}`}
              className={buttonClass({ size: "sm" })}
            >
              Ask again
            </Link>
          </div>
        </div>
      ) : desk ? (
        <div className="notice stack">
          <p>
            {desk.ofAdmin
              ? "This question is waiting for the expert's answer."
              : "This question is waiting for your answer. Answer or decline it from your questions desk."}
          </p>
          <div>
            <Link to={desk.path} className={buttonClass({ size: "sm" })}>
              {desk.ofAdmin ? "Open in the admin area" : "Open your questions desk"}
            </Link>
          </div>
        </div>
      ) : (
        <p className="notice">
          We'll let you know as soon as the answer is ready: most arrive within 12 hours.
        </p>
      )}

      <div className="cluster">
        <Link to={dashboardPath} className={buttonClass({ variant: "secondary" })}>
          My Dashboard
        </Link>
        <Link to="/experts" className={buttonClass({ variant: "ghost" })}>
          Browse Experts
        </Link>
      </div>
    </div>
  );
}
