import { getFormProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { requireDemoMode } from "~/auth/guards.server";
import { getOptionalUser } from "~/auth/session.server";
import { AnswerForm } from "~/components/questions/answer-form";
import { QuestionAnswerView } from "~/components/questions/question-answer-view";
import { StatusBadge } from "~/components/questions/status-badge";
import { Button, buttonClass } from "~/components/ui/button";
import { ErrorList, Label, TextareaField } from "~/components/ui/field";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { useFocusKeeper } from "~/components/use-focus-keeper";
import { requiredFields, useForm } from "~/components/use-form";
import { DEMO_ACCOUNTS } from "~/lib/demo-accounts";
import { readForm } from "~/lib/form-data.server";
import { formatDay, OPEN_QUESTION_STATUSES } from "~/lib/questions";
import { revalidateUnlessUnreachable } from "~/lib/revalidation";
import {
  askQuestion,
  findExpertIdByUsername,
  getSubscriptionAllowance,
  listExpertsToAsk,
  listQuestionsForAsker,
  listQuestionsForExpert,
  type QuestionListItem,
  questionDeps,
} from "~/models/questions.server";
import { TestAskSchema } from "~/schemas/questions";
import { redirectWithToast } from "~/services/flash.server";
import questionsStylesHref from "~/styles/questions.css";

export const links = () => [{ rel: "stylesheet", href: questionsStylesHref }];

export const meta: MetaFunction = () => [
  { title: "Test Audio | Expert Answers" },
  { name: "robots", content: "noindex" },
];

/** /test-audio (demo mode only): ask as a user, answer by text or audio as an expert, on one page. */
export const shouldRevalidate = revalidateUnlessUnreachable;

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireDemoMode(context);
  const user = await getOptionalUser(context, request);
  const db = context.primaryDb;
  const expertId = user?.expertProfile?.id ?? null;
  const [experts, defaultExpertId, myQuestions, expertQuestions, allowance] = await Promise.all([
    listExpertsToAsk(db),
    findExpertIdByUsername(db, DEMO_ACCOUNTS.expert.username),
    user ? listQuestionsForAsker(db, user.id) : ([] as QuestionListItem[]),
    expertId === null ? ([] as QuestionListItem[]) : listQuestionsForExpert(db, expertId),
    user ? getSubscriptionAllowance(db, user.id, new Date(context.now())) : null,
  ]);
  return {
    signedIn: user !== null,
    isExpert: expertId !== null,
    experts,
    defaultExpertId,
    myQuestions,
    expertQuestions,
    canAskHere: context.config.paymentsTestMode || allowance !== null,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireDemoMode(context);
  const user = await getOptionalUser(context, request);
  if (!user) {
    throw await redirectWithToast("/auth?redirectTo=/test-audio", {
      title: "Authentication Required",
      description: "Please log in to submit a question.",
      variant: "destructive",
    });
  }
  const submission = parseWithZod(await readForm(request), { schema: TestAskSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const deps = questionDeps(context);
  const allowance = await getSubscriptionAllowance(deps.db, user.id, deps.now);
  if (deps.stripe && !allowance) {
    const message = "Payments are live on this server: ask from the Ask page, which takes the payment.";
    return data({ result: submission.reply({ formErrors: [message] }) }, { status: 400 });
  }
  const result = await askQuestion(deps, {
    asker: user,
    expertId: submission.value.expertId,
    ask: { question: submission.value.question, requestAudioResponse: true, showOnProfile: false },
  });
  if (result.status === "refused") {
    return data(
      { result: submission.reply({ formErrors: [result.message] }) },
      { status: result.httpStatus },
    );
  }
  return redirectWithToast("/test-audio", {
    title: "Question Submitted",
    description: `Question #${result.questionId} was sent.`,
  });
}

export default function TestAudio() {
  const loaderData = useLoaderData<typeof loader>() as Awaited<ReturnType<typeof loader>>;
  const { signedIn, isExpert, myQuestions, expertQuestions } = loaderData;
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const selected = expertQuestions.find((question) => question.id === selectedId) ?? null;
  // The answer panel's Close and a sent answer take the focused button away: see data-focus-fallback.
  useFocusKeeper();

  return (
    <div className="page stack-lg test-audio">
      <header className="page-header">
        <h1>Test Audio</h1>
        <p>
          Ask a question as a user, then answer it by text or with a recorded audio response as an expert.
        </p>
      </header>
      <Tabs defaultValue={isExpert ? "expert" : "user"}>
        <TabsList aria-label="View as">
          <TabsTrigger value="user">As User</TabsTrigger>
          <TabsTrigger value="expert">As Expert</TabsTrigger>
        </TabsList>
        <TabsContent value="user" className="stack-lg">
          {signedIn ? (
            <AskPanel />
          ) : (
            <p className="card">
              <Link to="/auth?redirectTo=/test-audio">Sign in</Link> to ask a question and see your questions.
            </p>
          )}
          {signedIn ? (
            <section className="stack" aria-labelledby="my-questions-heading">
              <h2 id="my-questions-heading">My Questions</h2>
              {myQuestions.length === 0 ? (
                <p className="empty-state">No questions found.</p>
              ) : (
                <ul className="plain-list stack">
                  {myQuestions.map((question) => (
                    <li key={question.id} className="card stack question-card">
                      <div className="row">
                        <strong>#{question.id}</strong>
                        <StatusBadge status={question.status} long />
                        <span className="muted">{formatDay(question.createdAt)}</span>
                      </div>
                      <p className="question-text">{question.question}</p>
                      {question.status === "answered" ? (
                        <QuestionAnswerView
                          questionId={question.id}
                          answer={question.answer}
                          hasAudio={question.hasAudio}
                          answeredAt={question.answeredAt}
                        />
                      ) : null}
                    </li>
                  ))}
                </ul>
              )}
            </section>
          ) : null}
        </TabsContent>
        <TabsContent value="expert" className="stack-lg">
          {!isExpert ? (
            <p className="card">
              <Link to="/expert/login">Sign in as an expert</Link> to answer questions.
            </p>
          ) : (
            <div
              className={selected ? "test-audio__expert test-audio__expert--selected" : "test-audio__expert"}
            >
              <section
                className="stack"
                aria-labelledby="to-answer-heading"
                data-focus-fallback="to-answer-heading"
              >
                <h2 id="to-answer-heading" tabIndex={-1}>
                  Questions to answer
                </h2>
                {expertQuestions.length === 0 ? (
                  <p className="empty-state">No questions found.</p>
                ) : (
                  <ul className="plain-list stack">
                    {expertQuestions.map((question) => (
                      <li key={question.id} className="card stack question-card">
                        <div className="row">
                          <strong>#{question.id}</strong>
                          <StatusBadge status={question.status} />
                          <span className="muted">{question.name ?? "Client"}</span>
                        </div>
                        <p className="question-text clamp-3">{question.question}</p>
                        {(OPEN_QUESTION_STATUSES as readonly string[]).includes(question.status) ? (
                          <div>
                            <Button
                              id={`answer-question-${question.id}`}
                              size="sm"
                              onClick={() => setSelectedId(question.id)}
                            >
                              Answer This Question
                            </Button>
                          </div>
                        ) : question.status === "answered" ? (
                          <QuestionAnswerView
                            questionId={question.id}
                            answer={question.answer}
                            hasAudio={question.hasAudio}
                            answeredAt={question.answeredAt}
                          />
                        ) : null}
                      </li>
                    ))}
                  </ul>
                )}
              </section>
              {selected ? (
                <section
                  className="card stack"
                  aria-labelledby="answer-panel-heading"
                  // Closed or answered, the panel leaves: focus goes back to its question's button, or
                  // to the list's heading once the question is answered.
                  data-focus-fallback={`answer-question-${selected.id} to-answer-heading`}
                >
                  <div className="row admin-answer-panel__head">
                    <h2 id="answer-panel-heading">Answer Question #{selected.id}</h2>
                    <Button variant="secondary" size="sm" onClick={() => setSelectedId(null)}>
                      Close
                    </Button>
                  </div>
                  <p className="question-text question-quote">{selected.question}</p>
                  <AnswerForm
                    key={selected.id}
                    questionId={selected.id}
                    who="expert"
                    initialAnswer={selected.answer}
                    onAnswered={() => setSelectedId(null)}
                  />
                </section>
              ) : null}
            </div>
          )}
        </TabsContent>
      </Tabs>
    </div>
  );
}

function AskPanel() {
  const { experts, defaultExpertId, canAskHere } = useLoaderData<typeof loader>() as Awaited<
    ReturnType<typeof loader>
  >;
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [form, fields] = useForm({
    id: "test-ask",
    lastResult: actionData?.result,
    defaultValue: { expertId: defaultExpertId ? String(defaultExpertId) : "" },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    constraint: requiredFields(TestAskSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TestAskSchema }),
  });
  const { key: selectKey, ...selectProps } = getSelectProps(fields.expertId);
  if (!canAskHere) {
    return (
      <p className="card">
        Payments are live on this server, so questions are asked (and paid for) from the{" "}
        <Link to={defaultExpertId ? `/ask/${defaultExpertId}` : "/ask"}>Ask page</Link>.
      </p>
    );
  }
  return (
    <section className="card stack" aria-labelledby="ask-heading">
      <h2 id="ask-heading">Ask a question</h2>
      <Form method="post" {...getFormProps(form)} className="stack">
        {form.errors ? (
          <p className="form-error" role="alert">
            {form.errors.join(" ")}
          </p>
        ) : null}
        <div className="field">
          <Label htmlFor={fields.expertId.id}>Expert</Label>
          <select
            key={selectKey}
            {...selectProps}
            className="select"
            aria-invalid={fields.expertId.errors ? true : undefined}
            aria-describedby={fields.expertId.errorId}
          >
            <option value="">Select an expert</option>
            {experts.map((expert) => (
              <option key={expert.id} value={expert.id}>
                {expert.name}
              </option>
            ))}
          </select>
          <ErrorList id={fields.expertId.errorId} errors={fields.expertId.errors} />
        </div>
        <TextareaField
          label="Question"
          inputProps={{ ...getTextareaProps(fields.question), rows: 4 }}
          errors={fields.question.errors}
        />
        <div>
          <Button type="submit" disabled={busy}>
            {busy ? "Submitting..." : "Submit Question"}
          </Button>{" "}
          <Link to="/ask" className={buttonClass({ variant: "secondary" })}>
            Open the Ask page
          </Link>
        </div>
      </Form>
    </section>
  );
}
