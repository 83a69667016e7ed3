import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import { useRef, useState } from "react";
import { requireExpert } from "~/auth/guards.server";
import { Pagination } from "~/components/pagination";
import { AnswerForm, DeclineQuestion, useOneSendAtATime } from "~/components/questions/answer-form";
import { QuestionAnswerView } from "~/components/questions/question-answer-view";
import { QuestionTable } from "~/components/questions/question-table";
import { StatusBadge } from "~/components/questions/status-badge";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "~/components/ui/dialog";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { useRefreshWhileVisible } from "~/components/use-refresh-while-visible";
import { redirectPastLastPage, requestedPage } from "~/lib/pagination.server";
import { DESK_PAGE_SIZE, OPEN_QUESTION_STATUSES, WAITING_REFRESH_MS } from "~/lib/questions";
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
  if (expertId === null) return { hasProfile: false as const };
  const url = new URL(request.url);
  const page = requestedPage(url);
  const desk = await getExpertQuestionDesk(context.db, expertId, { page });
  // Past the last page of the tab in the address, back to that tab's last page.
  const total = url.searchParams.get("tab") === "answered" ? desk.counts.answered : desk.counts.all;
  redirectPastLastPage(url, { page, total, pageSize: DESK_PAGE_SIZE });
  return { hasProfile: true as const, ...desk };
}

type Selected = { id: number; mode: "answer" | "view" };

type DeskTab = "pending" | "answered" | "all";

export default function ExpertQuestions() {
  // Single fetch keeps Dates; the loader's own return type is what arrives.
  const data = useLoaderData<typeof loader>() as Awaited<ReturnType<typeof loader>>;
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  useRefreshWhileVisible(WAITING_REFRESH_MS);
  const [selected, setSelected] = useState<Selected | null>(null);
  // Whether this dialog sent an answer or a decline: then the refresh that follows is its own doing,
  // and the form stays to report it (and close) rather than being replaced.
  const [sentFromDialog, setSentFromDialog] = useState(false);
  // The dialog keeps showing the question it opened with, even if a refresh changes the list.
  const snapshot = useRef<QuestionListItem | null>(null);
  const current =
    selected && data.hasProfile
      ? ([...data.pending, ...data.all, ...data.answered].find((question) => question.id === selected.id) ??
        snapshot.current)
      : null;
  if (current) snapshot.current = current;
  // While its answer or decline is on its way, the dialog stays open (Escape, its close button): closed,
  // it would not report the outcome. (Told by the forms: useFetchers would cost every page's script.)
  const sends = useOneSendAtATime();

  if (!data.hasProfile) {
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

  const { counts, pending, answered, all, page, timeZone } = data;
  const openTab = searchParams.get("tab");
  const defaultTab: DeskTab = openTab === "answered" || openTab === "all" ? openTab : "pending";
  // Answered and All show DESK_PAGE_SIZE at a time; a page past a shorter list's end says so.
  const pageOf = (tab: "answered" | "all", rows: QuestionListItem[], total: number) => (
    <>
      {rows.length === 0 && page > 1 ? (
        <p className="empty-state">
          No {tab === "answered" ? "answered " : ""}questions this far back.{" "}
          <Link to={`?tab=${tab}`}>Back to the newest</Link>
        </p>
      ) : (
        <QuestionTable
          rows={rows}
          caption={tab === "answered" ? "Answered questions" : "All questions"}
          action={action}
          timeZone={timeZone}
        />
      )}
      <Pagination
        page={page}
        pageSize={DESK_PAGE_SIZE}
        total={total}
        hrefFor={(next) => `?tab=${tab}${next > 1 ? `&page=${next}` : ""}`}
      />
    </>
  );
  const isOpen = (question: QuestionListItem) =>
    (OPEN_QUESTION_STATUSES as readonly string[]).includes(question.status);
  const answerView = (question: QuestionListItem) => (
    <QuestionAnswerView
      questionId={question.id}
      answer={question.answer}
      hasAudio={question.hasAudio}
      answeredAt={question.answeredAt}
      fee={question.fee}
      timeZone={timeZone}
    />
  );
  const select = (next: Selected) => {
    setSentFromDialog(false);
    setSelected(next);
  };
  const action = (question: QuestionListItem) =>
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
          you decline, they are not charged. A subscriber's question is covered by their subscription.
        </p>
      </header>
      <Tabs
        defaultValue={defaultTab}
        // The page number belongs to the tab it was chosen in: another tab starts at its newest.
        onValueChange={(tab) => {
          if (page > 1) navigate(tab === "pending" ? "?" : `?tab=${tab}`, { preventScrollReset: true });
        }}
      >
        <TabsList aria-label="Filter questions">
          <TabsTrigger value="pending">{`Pending (${counts.pending})`}</TabsTrigger>
          <TabsTrigger value="answered">{`Answered (${counts.answered})`}</TabsTrigger>
          <TabsTrigger value="all">{`All (${counts.all})`}</TabsTrigger>
        </TabsList>
        <TabsContent value="pending">
          <QuestionTable rows={pending} caption="Pending questions" action={action} timeZone={timeZone} />
        </TabsContent>
        <TabsContent value="answered">{pageOf("answered", answered, counts.answered)}</TabsContent>
        <TabsContent value="all">{pageOf("all", all, counts.all)}</TabsContent>
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
                  {current.paymentState === "subscription" ? (
                    <span className="badge">Subscriber's question</span>
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
