import { Link } from "@remix-run/react";
import { useState } from "react";
import { ReviewForm } from "~/components/review-form";
import { buttonClass } from "~/components/ui/button";
import { cx } from "~/components/ui/cx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { useRefreshWhileVisible } from "~/components/use-refresh-while-visible";
import { useViewerTimeZone } from "~/components/use-viewer-time-zone";
import { formatDate } from "~/lib/dates";
import { expertProfilePath } from "~/lib/experts";
import { isOpenQuestion, QUESTION_STATUS_LABELS, WAITING_REFRESH_MS } from "~/lib/questions";

/** A client's question as the dashboard shows it (see app/models/client-dashboard.server.ts). */
export type ClientQuestionView = {
  id: number;
  question: string;
  answer: string | null;
  status: "pending" | "in_progress" | "answered" | "rejected" | "expired";
  requestAudioResponse: boolean;
  hasAudio: boolean;
  askedAt: number;
  answeredAt: number | null;
  expert: { id: number; name: string; customUrl: string | null } | null;
  /** The client's own rating (1 to 5) once given. */
  myRating?: number | null;
};

/** SPEC.md's status texts, with DESIGN.md's promise that nobody pays for an unanswered question. */
export const QUESTION_STATUS: Record<
  ClientQuestionView["status"],
  { label: string; tone: "waiting" | "working" | "done" | "declined" | "expired"; note?: string }
> = {
  pending: { label: QUESTION_STATUS_LABELS.pending, tone: "waiting" },
  in_progress: { label: QUESTION_STATUS_LABELS.in_progress, tone: "working" },
  answered: { label: QUESTION_STATUS_LABELS.answered, tone: "done" },
  rejected: {
    label: QUESTION_STATUS_LABELS.rejected,
    tone: "declined",
    note: "This question was declined: you were not charged.",
  },
  expired: {
    label: QUESTION_STATUS_LABELS.expired,
    tone: "expired",
    note: "No answer in time: you were not charged.",
  },
};

export const QUESTION_TABS = [
  { value: "all", label: "All" },
  { value: "pending", label: "Pending" },
  { value: "answered", label: "Answered" },
] as const;
type QuestionTab = (typeof QUESTION_TABS)[number]["value"];

/** SPEC.md: the Pending tab shows everything not answered. */
export function questionsForTab(questions: ClientQuestionView[], tab: QuestionTab) {
  if (tab === "answered") return questions.filter((question) => question.status === "answered");
  if (tab === "pending") return questions.filter((question) => question.status !== "answered");
  return questions;
}

/**
 * Past this many characters a question may run beyond the list's four lines on a 320 px phone (about
 * 15 wide characters, Chinese or Japanese, to a line there): it is cut to four lines, beside a link to
 * its page, which has it whole. A shorter one is never cut, however it wraps.
 */
const LONG_QUESTION = 60;

function QuestionItem({ question }: { question: ClientQuestionView }) {
  const status = QUESTION_STATUS[question.status];
  const timeZone = useViewerTimeZone();
  const long = question.question.length > LONG_QUESTION;
  return (
    <article className="question-item card" aria-labelledby={`question-${question.id}`}>
      <header className="question-item__head">
        <span className={`status-badge status-badge--${status.tone}`}>{status.label}</span>
        <span className="muted question-item__meta">
          {question.expert ? (
            <>
              To <Link to={expertProfilePath(question.expert)}>{question.expert.name}</Link> ·{" "}
            </>
          ) : null}
          Asked {formatDate(question.askedAt, timeZone)}
        </span>
      </header>
      <h3
        id={`question-${question.id}`}
        className={cx("question-item__text", long && "question-item__text--cut")}
      >
        {question.question}
      </h3>
      {long ? (
        <Link to={`/questions/${question.id}`} className="question-item__more">
          Read the whole question<span className="visually-hidden">{` #${question.id}`}</span>
        </Link>
      ) : null}
      {status.note ? <p className="question-item__note">{status.note}</p> : null}
      {question.status === "answered" ? (
        <div className="question-item__answer">
          <h4>
            Answer
            {question.answeredAt ? (
              <span className="muted"> · {formatDate(question.answeredAt, timeZone)}</span>
            ) : null}
          </h4>
          {question.answer ? <p>{question.answer}</p> : null}
          {question.hasAudio ? (
            // biome-ignore lint/a11y/useMediaCaption: recorded answers have no captions; the text answer (when given) sits above
            <audio
              className="question-item__audio"
              controls
              preload="none"
              src={`/questions/${question.id}/audio`}
              aria-label={`Recorded answer to question ${question.id}`}
            />
          ) : null}
          {question.expert ? (
            <ReviewForm subject="question" id={question.id} myRating={question.myRating ?? null} />
          ) : null}
        </div>
      ) : question.requestAudioResponse ? (
        <p className="muted question-item__hint">You asked for an audio answer.</p>
      ) : null}
    </article>
  );
}

/** My Questions: tabs All, Pending (everything not answered) and Answered. */
export function ClientQuestions({
  questions,
  headingLevel = 2,
}: {
  questions: ClientQuestionView[];
  headingLevel?: 1 | 2;
}) {
  const [tab, setTab] = useState<string>("all");
  // An answer can arrive while the list is open: it shows without a reload.
  useRefreshWhileVisible(
    WAITING_REFRESH_MS,
    questions.some((question) => isOpenQuestion(question.status)),
  );
  const Heading = headingLevel === 1 ? "h1" : "h2";
  return (
    <section className="dashboard-section card" aria-labelledby="my-questions">
      <div className="dashboard-section__head">
        <Heading id="my-questions">My Questions</Heading>
        <Link to="/experts" className={buttonClass({ variant: "secondary", size: "sm" })}>
          Ask a new question
        </Link>
      </div>
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList aria-label="Filter questions">
          {QUESTION_TABS.map((item) => {
            const count = questionsForTab(questions, item.value).length;
            // The badge is drawn for the eye; its count is read as "Pending (2)", as the expert's tabs are.
            return (
              <TabsTrigger key={item.value} value={item.value}>
                {item.label}
                <span className="tabs-count" aria-hidden="true">
                  {count}
                </span>
                <span className="visually-hidden">{` (${count})`}</span>
              </TabsTrigger>
            );
          })}
        </TabsList>
        {QUESTION_TABS.map((item) => {
          const list = questionsForTab(questions, item.value);
          return (
            <TabsContent key={item.value} value={item.value}>
              {list.length === 0 ? (
                <p className="empty-text muted">
                  {item.value === "answered"
                    ? "No answered questions yet."
                    : item.value === "pending"
                      ? "Nothing is waiting for an answer."
                      : "You haven't asked any questions yet."}{" "}
                  {item.value === "all" ? <Link to="/experts">Find an expert to ask.</Link> : null}
                </p>
              ) : (
                <ul className="question-list plain-list">
                  {list.map((question) => (
                    <li key={question.id}>
                      <QuestionItem question={question} />
                    </li>
                  ))}
                </ul>
              )}
            </TabsContent>
          );
        })}
      </Tabs>
    </section>
  );
}
