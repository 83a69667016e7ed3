import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useRef, useState } from "react";
import { requireExpert } from "~/auth/guards.server";
import { AnswerForm, DeclineQuestion, useOneSendAtATime } from "~/components/questions/answer-form";
import { QuestionAnswerView } from "~/components/questions/question-answer-view";
import { QuestionTable } from "~/components/questions/question-table";
import { StatusBadge } from "~/components/questions/status-badge";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "~/components/ui/dialog";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { useRefreshWhileVisible } from "~/components/use-refresh-while-visible";
import { OPEN_QUESTION_STATUSES, WAITING_REFRESH_MS } from "~/lib/questions";
import { revalidateUnlessUnreachable } from "~/lib/revalidation";
import { formatInstant } from "~/lib/slots";
import { getExpertQuestionDesk, type QuestionListItem } from "~/models/questions.server";
import questionsStylesHref from "~/styles/questions.css";

export const links = () => [{ rel: "stylesheet", href: questionsStylesHref }];

export const meta: MetaFunction = () => [
  { title: "Questions | Expert Answers" },
  { name: "robots", content: "noindex" },
];

/** The expert's question desk: only their own questions, never the unpaid ones. */
export const shouldRevalidate = revalidateUnlessUnreachable;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { expertId } = await requireExpert(context, request);
  if (expertId === null) return { hasProfile: false, questions: [] as QuestionListItem[], timeZone: "UTC" };
  return { hasProfile: true, ...(await getExpertQuestionDesk(context.db, expertId)) };
}

type Selected = { id: number; mode: "answer" | "view" };

export default function ExpertQuestions() {
  // Single fetch keeps Dates; the loader's own return type is what arrives.
  const { hasProfile, questions, timeZone } = useLoaderData<typeof loader>() as Awaited<
    ReturnType<typeof loader>
  >;
  useRefreshWhileVisible(WAITING_REFRESH_MS);
  const [selected, setSelected] = useState<Selected | null>(null);
  // Whether this dialog sent an answer or a decline: then the refresh that follows is its own doing,
  // and the form stays to report it (and close) rather than being replaced.
  const [sentFromDialog, setSentFromDialog] = useState(false);
  // The dialog keeps showing the question it opened with, even if a refresh changes the list.
  const snapshot = useRef<(typeof questions)[number] | null>(null);
  const current = selected
    ? (questions.find((question) => question.id === selected.id) ?? snapshot.current)
    : null;
  if (current) snapshot.current = current;
  // While its answer or decline is on its way, the dialog stays open (Escape, its close button): closed,
  // it would not report the outcome. (Told by the forms: useFetchers would cost every page's script.)
  const sends = useOneSendAtATime();

  if (!hasProfile) {
    return (
      <div className="stack-lg">
        <h1>Questions</h1>
        <p className="card">
          You are signed in as an administrator without an expert profile of your own. Answer questions from
          the <Link to="/admin">admin area</Link>.
        </p>
      </div>
    );
  }

  const pending = questions.filter((question) =>
    (OPEN_QUESTION_STATUSES as readonly string[]).includes(question.status),
  );
  const answered = questions.filter((question) => question.status === "answered");
  const isOpen = (question: (typeof questions)[number]) =>
    (OPEN_QUESTION_STATUSES as readonly string[]).includes(question.status);
  const answerView = (question: (typeof questions)[number]) => (
    <QuestionAnswerView
      questionId={question.id}
      answer={question.answer}
      hasAudio={question.hasAudio}
      answeredAt={question.answeredAt}
      fee={question.fee}
    />
  );
  const select = (next: Selected) => {
    setSentFromDialog(false);
    setSelected(next);
  };
  const action = (question: (typeof questions)[number]) =>
    isOpen(question) ? (
      <Button size="sm" onClick={() => select({ id: question.id, mode: "answer" })}>
        Answer<span className="visually-hidden">{` question #${question.id}`}</span>
      </Button>
    ) : question.status === "answered" ? (
      <Button size="sm" variant="secondary" onClick={() => select({ id: question.id, mode: "view" })}>
        View<span className="visually-hidden">{` question #${question.id}`}</span>
      </Button>
    ) : null;

  return (
    // An answered or declined question leaves the list (and its dialog closes): focus goes to the heading.
    <div className="stack-lg questions-desk" data-focus-fallback="questions-heading">
      <header>
        <h1 id="questions-heading" tabIndex={-1}>
          Questions
        </h1>
        <p className="muted">
          Answer each question within 24 hours of payment. The client's card is charged when you answer; if
          you decline, they are not charged.
        </p>
      </header>
      <Tabs defaultValue="pending">
        <TabsList aria-label="Filter questions">
          <TabsTrigger value="pending">{`Pending (${pending.length})`}</TabsTrigger>
          <TabsTrigger value="answered">{`Answered (${answered.length})`}</TabsTrigger>
          <TabsTrigger value="all">{`All (${questions.length})`}</TabsTrigger>
        </TabsList>
        <TabsContent value="pending">
          <QuestionTable rows={pending} caption="Pending questions" action={action} timeZone={timeZone} />
        </TabsContent>
        <TabsContent value="answered">
          <QuestionTable rows={answered} caption="Answered questions" action={action} timeZone={timeZone} />
        </TabsContent>
        <TabsContent value="all">
          <QuestionTable rows={questions} caption="All questions" action={action} timeZone={timeZone} />
        </TabsContent>
      </Tabs>

      <Dialog
        open={selected !== null && current !== null}
        onOpenChange={(open) => {
          if (!open && !sends.sending) setSelected(null);
        }}
      >
        {current && selected ? (
          <DialogContent wide aria-describedby={`question-${current.id}-meta`}>
            <DialogTitle>
              {selected.mode === "answer" ? `Answer Question #${current.id}` : `Question #${current.id}`}
            </DialogTitle>
            <DialogDescription id={`question-${current.id}-meta`}>
              From {current.name ?? "a client"}, asked{" "}
              {formatInstant(new Date(current.createdAt).getTime(), timeZone)}
              {selected.mode === "answer" && current.deadlineAt
                ? `; answer by ${formatInstant(new Date(current.deadlineAt).getTime(), timeZone)}`
                : ""}
            </DialogDescription>
            <div className="stack">
              <div className="question-quote">
                <p className="question-text">{current.question}</p>
                <div className="cluster">
                  <StatusBadge status={current.status} />
                  {current.requestAudioResponse ? (
                    <span className="badge">Audio response requested</span>
                  ) : null}
                </div>
              </div>
              {selected.mode === "answer" && !isOpen(current) && !sentFromDialog ? (
                // Answered (from the admin area or another tab), declined or expired since it opened.
                <>
                  <p className="notice notice--warning" role="status">
                    {current.status === "answered"
                      ? "This question has already been answered."
                      : "This question is no longer waiting for an answer."}
                  </p>
                  {current.status === "answered" ? answerView(current) : null}
                </>
              ) : selected.mode === "answer" ? (
                <div className="stack" onSubmitCapture={() => setSentFromDialog(true)}>
                  <AnswerForm
                    key={current.id}
                    questionId={current.id}
                    who="expert"
                    initialAnswer={current.answer}
                    onAnswered={() => setSelected(null)}
                    {...sends.answer}
                  />
                  <div className="dialog-footer dialog-footer--start">
                    <DeclineQuestion
                      questionId={current.id}
                      onDeclined={() => setSelected(null)}
                      {...sends.decline}
                    />
                  </div>
                </div>
              ) : (
                answerView(current)
              )}
            </div>
          </DialogContent>
        ) : null}
      </Dialog>
    </div>
  );
}
