import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useFetcher, useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import { useEffect } from "react";
import { requireAdmin } from "~/auth/guards.server";
import { AdminFrame } from "~/components/admin-frame";
import {
  AnswerForm,
  DeclineQuestion,
  type QuestionActionData,
  useActionToast,
  useOneSendAtATime,
} from "~/components/questions/answer-form";
import { QuestionAnswerView } from "~/components/questions/question-answer-view";
import { QuestionTable } from "~/components/questions/question-table";
import { StatusBadge } from "~/components/questions/status-badge";
import { Button, buttonClass } from "~/components/ui/button";
import { formatCents } from "~/lib/money";
import { redirectPastLastPage } from "~/lib/pagination.server";
import { ADMIN_FILTERS, type AdminFilter, formatDateTime, OPEN_QUESTION_STATUSES } from "~/lib/questions";
import { revalidateUnlessUnreachable } from "~/lib/revalidation";
import {
  ADMIN_PAGE_SIZE,
  actorOf,
  countQuestionsForAdmin,
  getQuestionForViewer,
  listCaptureFailures,
  listQuestionsForAdmin,
  parseExpertId,
} from "~/models/questions.server";
import questionsStylesHref from "~/styles/questions.css";

export const links = () => [{ rel: "stylesheet", href: questionsStylesHref }];

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const selected = data?.selected;
  const open = selected ? (OPEN_QUESTION_STATUSES as readonly string[]).includes(selected.status) : false;
  // Each state its own title, as its heading: a question chosen to answer is not "Admin".
  const title = selected ? `${open ? "Answer Question" : "Question"} #${selected.id} | Admin` : "Admin";
  return [{ title: `${title} | Expert Answers` }, { name: "robots", content: "noindex" }];
};

const FILTER_LABELS: Record<AdminFilter, string> = { all: "All", pending: "Pending", answered: "Answered" };

/** /admin (and /admin/dashboard): every question, filtered all / pending / answered; one selected to answer. */
export const shouldRevalidate = revalidateUnlessUnreachable;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireAdmin(context, request);
  const url = new URL(request.url);
  const filterParam = url.searchParams.get("filter");
  const filter: AdminFilter = (ADMIN_FILTERS as readonly string[]).includes(filterParam ?? "")
    ? (filterParam as AdminFilter)
    : "all";
  const page = Math.min(Math.max(parseExpertId(url.searchParams.get("page")) ?? 1, 1), 1000);
  const questionParam = url.searchParams.get("question");
  const selectedId = parseExpertId(questionParam);
  const db = context.primaryDb;
  const [list, selected, captureFailures] = await Promise.all([
    listQuestionsForAdmin(db, { filter, page }),
    selectedId === null ? null : getQuestionForViewer(db, selectedId, actorOf(user)),
    listCaptureFailures(db),
  ]);
  // A page past the end (an old link, a hand-typed number) goes to the last page, as the other lists do.
  if (list.questions.length === 0 && page > 1) {
    const total = await countQuestionsForAdmin(db, filter);
    redirectPastLastPage(url, { page, total, pageSize: ADMIN_PAGE_SIZE });
  }
  // A link to a question that was deleted (its client closed their account), or a mistyped one.
  const missingQuestion = questionParam !== null && selected === null;
  return {
    name: user.name ?? user.username,
    filter,
    page,
    ...list,
    selected,
    missingQuestion,
    captureFailures,
  };
}

export default function AdminQuestions() {
  const data = useLoaderData<typeof loader>() as Awaited<ReturnType<typeof loader>>;
  const { name, filter, page, questions, hasMore, selected, missingQuestion, captureFailures } = data;
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const hrefWith = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(searchParams);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    const query = next.toString();
    return query ? `/admin?${query}` : "/admin";
  };
  const closeSelected = () => navigate(hrefWith({ question: null }), { preventScrollReset: true });
  const sends = useOneSendAtATime();
  const open = selected ? (OPEN_QUESTION_STATUSES as readonly string[]).includes(selected.status) : false;
  const selectedId = selected?.id ?? null;
  useEffect(() => {
    // The rows' links keep the scroll position: take the reader (and a screen reader) to the panel,
    // which may be far above on a phone.
    if (selectedId !== null) document.getElementById("selected-heading")?.focus();
  }, [selectedId]);

  return (
    <AdminFrame signedInAs={name}>
      {captureFailures.length > 0 ? (
        <section className="card notice--danger stack" aria-labelledby="attention-heading">
          <h2 id="attention-heading">Payments needing attention</h2>
          <p className="muted">
            Stripe refused to charge these answered questions. The answers were delivered; the charge is
            retried automatically, or retry it now.
          </p>
          <ul className="plain-list stack">
            {captureFailures.map((failure) => (
              <CaptureFailure key={failure.id} failure={failure} />
            ))}
          </ul>
        </section>
      ) : null}

      {missingQuestion ? (
        <p className="notice notice--warning" role="status">
          That question does not exist, or no longer does.
        </p>
      ) : null}

      <div className={selected ? "admin-questions admin-questions--selected" : "admin-questions"}>
        {selected ? (
          <section
            className="card stack admin-answer-panel"
            aria-labelledby="selected-heading"
            // Closed (by Close, or once answered or declined), it gives focus back to the row's link
            // that opened it, else to the list's heading.
            data-focus-fallback={`question-link-${selected.id} selected-heading questions-heading`}
          >
            <div className="row admin-answer-panel__head">
              <h2 id="selected-heading" tabIndex={-1}>
                {open ? `Answer Question #${selected.id}` : `Question #${selected.id}`}
              </h2>
              <Link
                to={hrefWith({ question: null })}
                className={buttonClass({ variant: "secondary", size: "sm" })}
              >
                Close
              </Link>
            </div>
            <dl className="details">
              <dt>From</dt>
              <dd>{selected.name ?? "Client"}</dd>
              <dt>Expert</dt>
              <dd>{selected.expertName ?? "No expert chosen"}</dd>
              <dt>Asked</dt>
              <dd>{formatDateTime(selected.createdAt)}</dd>
              <dt>Status</dt>
              <dd>
                <StatusBadge status={selected.status} />
              </dd>
              <dt>Payment</dt>
              <dd>
                {selected.paymentState.replace("_", " ")} ({formatCents(selected.amount)})
              </dd>
            </dl>
            <p className="question-text question-quote">{selected.question}</p>
            {open ? (
              <>
                <AnswerForm
                  key={selected.id}
                  questionId={selected.id}
                  who="admin"
                  initialAnswer={selected.answer}
                  onAnswered={closeSelected}
                  {...sends.answer}
                />
                <DeclineQuestion
                  // Its own key: the answer form beside it, in the same list, is keyed by the id alone.
                  key={`decline-${selected.id}`}
                  questionId={selected.id}
                  onDeclined={closeSelected}
                  {...sends.decline}
                />
              </>
            ) : selected.status === "answered" ? (
              <QuestionAnswerView
                questionId={selected.id}
                answer={selected.answer}
                hasAudio={selected.hasAudio}
                answeredAt={selected.answeredAt}
                fee={selected.fee}
              />
            ) : (
              <p className="muted">This question cannot be answered ({selected.status.replace("_", " ")}).</p>
            )}
          </section>
        ) : null}

        <section className="stack admin-question-list" aria-labelledby="questions-heading">
          <div className="row admin-question-list__head">
            <h2 id="questions-heading" tabIndex={-1}>
              Questions
            </h2>
            <nav aria-label="Filter questions" className="filter-links">
              {ADMIN_FILTERS.map((value) => (
                <Link
                  key={value}
                  to={hrefWith({ filter: value === "all" ? null : value, page: null, question: null })}
                  className="filter-link"
                  aria-current={filter === value ? "page" : undefined}
                >
                  {FILTER_LABELS[value]}
                </Link>
              ))}
            </nav>
          </div>
          <QuestionTable
            rows={questions}
            caption={`${FILTER_LABELS[filter]} questions`}
            extraColumn={{ header: "Expert", cell: (row) => row.expertName ?? "None" }}
            action={(row) => (
              <Link
                id={`question-link-${row.id}`}
                to={hrefWith({ question: String(row.id) })}
                preventScrollReset
                className={buttonClass({
                  size: "sm",
                  variant: (OPEN_QUESTION_STATUSES as readonly string[]).includes(row.status)
                    ? "primary"
                    : "secondary",
                })}
                aria-label={`${
                  (OPEN_QUESTION_STATUSES as readonly string[]).includes(row.status) ? "Answer" : "View"
                } question #${row.id}`}
              >
                {(OPEN_QUESTION_STATUSES as readonly string[]).includes(row.status) ? "Answer" : "View"}
              </Link>
            )}
          />
          {page > 1 || hasMore ? (
            <nav aria-label="Pages" className="row pager">
              {page > 1 ? (
                <Link
                  to={hrefWith({ page: String(page - 1) })}
                  className={buttonClass({ variant: "secondary", size: "sm" })}
                >
                  Newer
                </Link>
              ) : null}
              <span className="muted">Page {page}</span>
              {hasMore ? (
                <Link
                  to={hrefWith({ page: String(page + 1) })}
                  className={buttonClass({ variant: "secondary", size: "sm" })}
                >
                  Older
                </Link>
              ) : null}
            </nav>
          ) : null}
        </section>
      </div>
    </AdminFrame>
  );
}

function CaptureFailure({
  failure,
}: {
  failure: { id: number; amount: number; answeredAt: Date | null; lastError: string | null };
}) {
  const fetcher = useFetcher<QuestionActionData>();
  useActionToast(fetcher.data);
  return (
    <li className="capture-failure">
      <div>
        <Link to={`/admin?question=${failure.id}`}>{`Question #${failure.id}`}</Link>
        {` · ${formatCents(failure.amount)} · answered ${formatDateTime(failure.answeredAt)}`}
        <p className="hint">{failure.lastError ?? "Capture failed"}</p>
      </div>
      <fetcher.Form method="post" action={`/questions/${failure.id}/capture`}>
        <Button type="submit" size="sm" variant="secondary" disabled={fetcher.state !== "idle"}>
          {fetcher.state !== "idle" ? "Retrying..." : "Retry capture"}
        </Button>
      </fetcher.Form>
    </li>
  );
}
