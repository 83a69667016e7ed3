import { getFormProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigate,
  useNavigation,
  useRevalidator,
} from "@remix-run/react";
import { useCallback, useRef, useState } from "react";
import { getOptionalUser, readWithSession } from "~/auth/session.server";
import { keepFormWhenOffline } from "~/components/keep-form-when-offline";
import { PaymentFields } from "~/components/payment/payment-fields";
import { PAYMENT_TEXTS, type PaymentHandle } from "~/components/payment/types";
import { seo } from "~/components/seo";
import { Button } from "~/components/ui/button";
import { TextareaField } from "~/components/ui/field";
import { Switch } from "~/components/ui/switch";
import { toast } from "~/components/ui/toast";
import { useFocusFirstInvalid } from "~/components/use-focus-first-invalid";
import { requiredFields, useForm } from "~/components/use-form";
import { ASK_DRAFT_PREFIX, useSessionDraft } from "~/components/use-session-draft";
import { useViewerTimeZone } from "~/components/use-viewer-time-zone";
import { nextDailyQuestionText } from "~/lib/dates";
import { readForm } from "~/lib/form-data.server";
import { formatCents } from "~/lib/money";
import {
  askQuestion,
  askScreenReads,
  getSubscriptionAllowance,
  getUnpaidQuestionToRetry,
  parseExpertId,
  questionDeps,
} from "~/models/questions.server";
import { AskQuestionSchema } from "~/schemas/questions";
import { redirectWithToast } from "~/services/flash.server";
import questionsStylesHref from "~/styles/questions.css";

export const links = () => [{ rel: "stylesheet", href: questionsStylesHref }];

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const name = data?.expert?.name;
  return seo(
    name ? `Ask ${name} a Question` : "Ask a Question",
    name
      ? `Ask ${name} your question and get a personalized expert answer within 24 hours.`
      : "Ask our experts your question and get a personalized answer within 24 hours.",
  );
};

const LOGIN_TOAST = {
  title: "Authentication Required",
  description: "Please log in to submit a question.",
  variant: "destructive" as const,
};

function loginPath(pathname: string) {
  return `/auth?${new URLSearchParams({ redirectTo: pathname })}`;
}

/** /ask/{expertId} and /ask: who it goes to, what it costs, and how it will be paid. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const expertId = parseExpertId(params.expertId);
  const now = new Date(context.now());
  // One D1 round trip: the expert and the allowance ride in the session lookup's batch.
  const [user, targetRows, allowanceRows] = await Promise.all([
    getOptionalUser(context, request),
    expertId === null ? null : readWithSession(context, request, askScreenReads.target(expertId)),
    readWithSession(context, request, askScreenReads.allowance(now)),
  ]);
  if (!user) throw await redirectWithToast(loginPath(new URL(request.url).pathname), LOGIN_TOAST);
  const target = askScreenReads.targetFrom(targetRows);
  const allowance = askScreenReads.allowanceFrom(allowanceRows, now);
  // Back from a bank's page whose payment failed (/ask/return): the same question, to pay again.
  const retryId = parseExpertId(new URL(request.url).searchParams.get("retry"));
  const retry =
    retryId === null
      ? null
      : await getUnpaidQuestionToRetry(context.primaryDb, {
          questionId: retryId,
          userId: user.id,
          expertId: target.expert?.id ?? null,
        });
  const mode = allowance ? "subscription" : context.config.paymentsTestMode ? "test" : "paid";
  return {
    expert: target.expert
      ? {
          id: target.expert.id,
          name: target.expert.name,
          title: target.expert.title,
          profileImage: target.expert.profileImage,
        }
      : null,
    // An address naming an expert who is not (or no longer) here: the question goes to no one in
    // particular, and the page says so rather than silently.
    expertNotFound: params.expertId !== undefined && target.expert === null,
    ownProfile: target.expert !== null && target.expert.userId === user.id,
    price: target.price,
    mode: mode as "subscription" | "test" | "paid",
    allowance: allowance
      ? {
          questionsLeftToday: allowance.questionsLeftToday,
          nextQuestionAt: allowance.nextQuestionAt.toISOString(),
        }
      : null,
    publishableKey: mode === "paid" ? (context.config.stripe.publishableKey ?? null) : null,
    retry,
    // A subscriber whose renewal failed asks and pays like anyone; say why.
    subscriptionPaymentFailed:
      !allowance && (user.subscriptionStatus === "past_due" || user.subscriptionStatus === "unpaid"),
  };
}

/**
 * The form post, for what needs no card: test mode and subscribers (it also works without
 * JavaScript). Paying questions go through /api/questions and the Payment Element instead.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await getOptionalUser(context, request);
  if (!user) throw await redirectWithToast(loginPath(new URL(request.url).pathname), LOGIN_TOAST);
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: AskQuestionSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });

  const deps = questionDeps(context);
  const allowance = await getSubscriptionAllowance(deps.db, user.id, deps.now);
  if (!allowance && deps.stripe) {
    return data(
      { result: submission.reply({ formErrors: ["Please enable JavaScript to pay for your question."] }) },
      { status: 400 },
    );
  }
  // The price the page showed (test mode takes no card, but the expert's books count it): one that
  // is no longer the price is refused, as on the paid path. Anything but whole cents never matches.
  const shown = form.get("expectedAmount");
  const result = await askQuestion(deps, {
    asker: user,
    // To the expert in the address, unless the page found none there and so asked no one in particular.
    expertId: form.get("noExpert") === "yes" ? null : parseExpertId(params.expertId),
    ask: submission.value,
    expectedAmount: typeof shown === "string" ? (/^\d{1,9}$/.test(shown) ? Number(shown) : -1) : null,
  });
  if (result.status === "refused") {
    return data(
      { result: submission.reply({ formErrors: [result.message] }) },
      { status: result.httpStatus },
    );
  }
  if (result.status !== "pending") throw new Error("a question without payment needs no PaymentIntent");
  return redirectWithToast(`/thank-you?question=${result.questionId}`, {
    title: result.paymentState === "test_mode" ? "Success! (Test Mode)" : "Success!",
    description: "Your question was submitted.",
  });
}

class LoginRequired extends Error {}

/** The expert changed their price while the page was open: show the new one before any charge. */
class PriceChanged extends Error {}

/** A retry whose question was paid for after all (the first answer was lost): nothing more to pay. */
class AlreadySubmitted extends Error {
  constructor(readonly questionId: number) {
    super("already submitted");
  }
}

function submitted(navigate: ReturnType<typeof useNavigate>, questionId: number) {
  toast({ title: "Success!", description: "Your question was submitted." });
  navigate(`/thank-you?question=${questionId}`);
}

export const clientAction = keepFormWhenOffline;

export default function AskScreen() {
  const {
    expert,
    expertNotFound,
    ownProfile,
    price,
    mode,
    allowance,
    publishableKey,
    subscriptionPaymentFailed,
    retry,
  } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const location = useLocation();
  const revalidator = useRevalidator();
  const paymentRef = useRef<PaymentHandle>(null);
  const [paymentReady, setPaymentReady] = useState(false);
  const [paying, setPaying] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  // After a declined card the same question (and PaymentIntent) is paid for again.
  const unpaidQuestionId = useRef<number | null>(retry?.questionId ?? null);
  const onReadyChange = useCallback((ready: boolean) => setPaymentReady(ready), []);

  const priceText = formatCents(price);
  const testMode = mode === "test";
  const allowanceUsed = allowance?.questionsLeftToday === 0;
  const viewerTimeZone = useViewerTimeZone();
  const busy = paying || navigation.state === "submitting";

  const [form, fields] = useForm({
    id: "ask-question",
    lastResult: actionData?.result,
    defaultValue: retry ? { question: retry.question } : undefined,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    constraint: requiredFields(AskQuestionSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AskQuestionSchema }),
    onSubmit(event, { submission }) {
      if (mode !== "paid") return; // a plain form post: test mode and subscribers
      event.preventDefault();
      if (submission?.status === "success") void payAndSubmit(submission.value);
    },
  });

  useFocusFirstInvalid(form.id, actionData?.result);
  // Kept in the tab until the question is sent (the thank-you page forgets it).
  useSessionDraft(`${ASK_DRAFT_PREFIX}${expert?.id ?? "any"}`, fields.question.value ?? "", (text) =>
    form.update({ name: fields.question.name, value: text }),
  );

  async function payAndSubmit(ask: {
    question: string;
    requestAudioResponse: boolean;
    showOnProfile: boolean;
  }) {
    const payment = paymentRef.current;
    if (!payment || !paymentReady) {
      toast({ title: "Error", description: PAYMENT_TEXTS.notReady, variant: "destructive" });
      return;
    }
    setPaying(true);
    let questionId: number | null = null;
    try {
      const outcome = await payment.pay(async () => {
        const response = await fetch("/api/questions", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({
            ...ask,
            expertId: expert?.id ?? null,
            expectedAmount: price,
            ...(unpaidQuestionId.current ? { questionId: unpaidQuestionId.current } : {}),
          }),
        });
        if (response.status === 401) throw new LoginRequired();
        const body = (await response.json().catch(() => ({}))) as {
          error?: string;
          reason?: string;
          status?: string;
          questionId?: number;
          clientSecret?: string;
        };
        if (body.reason === "price_changed") throw new PriceChanged(body.error);
        if (!response.ok || !body.questionId) throw new Error(body.error ?? PAYMENT_TEXTS.initFailed);
        if (body.status === "pending") throw new AlreadySubmitted(body.questionId);
        questionId = body.questionId;
        unpaidQuestionId.current = body.questionId;
        if (!body.clientSecret) throw new Error(PAYMENT_TEXTS.initFailed);
        return {
          clientSecret: body.clientSecret,
          returnUrl: `${window.location.origin}/ask/return?question=${body.questionId}`,
        };
      });
      if (!outcome.ok) {
        if (outcome.cause instanceof LoginRequired) {
          setStatus("Redirecting to login page...");
          toast(LOGIN_TOAST);
          navigate(loginPath(location.pathname));
          return;
        }
        if (outcome.cause instanceof PriceChanged) {
          revalidator.revalidate();
          toast({ title: "Price changed", description: outcome.message, variant: "destructive" });
          return;
        }
        if (outcome.cause instanceof AlreadySubmitted) {
          unpaidQuestionId.current = null;
          submitted(navigate, outcome.cause.questionId);
          return;
        }
        const title = outcome.stage === "payment" || outcome.stage === "details" ? "Payment Failed" : "Error";
        toast({ title, description: outcome.message, variant: "destructive" });
        return;
      }
      const confirmed = await fetch(`/api/questions/${questionId}/payment`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ paymentIntentId: outcome.paymentIntentId }),
      });
      const body = (await confirmed.json().catch(() => ({}))) as { error?: string; redirectTo?: string };
      if (!confirmed.ok) {
        toast({
          title: "Payment Failed",
          description: body.error ?? PAYMENT_TEXTS.initFailed,
          variant: "destructive",
        });
        return;
      }
      unpaidQuestionId.current = null;
      submitted(navigate, questionId!);
    } catch {
      toast({
        title: "Error",
        description: "An error occurred while submitting your question. Please try again.",
        variant: "destructive",
      });
    } finally {
      setPaying(false);
    }
  }

  const submitLabel = busy ? "Submitting..." : testMode ? "Submit Question (Test Mode)" : "Submit Question";
  const submitDisabled = busy || ownProfile || allowanceUsed || (mode === "paid" && !paymentReady);

  return (
    <div className="page ask-page stack-lg">
      <header className="ask-header">
        <h1>{expert ? `Ask ${expert.name} a Question` : "Ask a Question"}</h1>
        <p className="ask-subtitle">
          {testMode
            ? "Test Mode: Submit questions without payment"
            : mode === "subscription"
              ? allowanceUsed
                ? "Your subscription includes one question a day, and today's has been asked"
                : "Included in your subscription: get your personalized expert answer within 24 hours"
              : `Pay ${priceText} and get your personalized expert answer within 24 hours`}
        </p>
        {testMode ? <span className="badge badge--warning">Test Mode Active</span> : null}
        {status ? (
          <p className="status-text" role="status">
            {status}
          </p>
        ) : null}
      </header>

      {expertNotFound ? (
        <p className="notice notice--warning" role="alert">
          This expert could not be found. Your question will go to our experts in general, or you can{" "}
          <Link to="/experts">choose an expert</Link>.
        </p>
      ) : null}
      {expert ? (
        <section className="card expert-summary" aria-label="The expert you are asking">
          {expert.profileImage ? (
            <img src={expert.profileImage} alt="" className="expert-summary__image" width={64} height={64} />
          ) : (
            <span className="expert-summary__image expert-summary__placeholder" aria-hidden="true">
              <svg viewBox="0 0 24 24" width="32" height="32" aria-hidden="true">
                <circle cx="12" cy="8" r="4" fill="currentColor" />
                <path d="M4 21c0-4.4 3.6-8 8-8s8 3.6 8 8" fill="currentColor" />
              </svg>
            </span>
          )}
          <div>
            <p className="expert-summary__name">{expert.name || "Expert"}</p>
            <p className="muted">{expert.title || "Expert Consultant"}</p>
            <p className="hint">You are submitting a question to this expert.</p>
          </div>
        </section>
      ) : null}

      <section className="card stack" aria-labelledby="ask-form-title">
        <div>
          <h2 id="ask-form-title">Submit Your Question</h2>
          <p className="muted">Ask your question and we'll get you an expert answer</p>
        </div>

        {testMode ? (
          <div className="notice notice--warning" role="note">
            <strong>Test Mode Active.</strong> Payments are switched off on this server: your question is
            submitted without payment.
          </div>
        ) : null}
        {ownProfile ? (
          <p className="form-error" role="alert">
            You can't ask yourself a question.
          </p>
        ) : null}
        {allowance ? (
          <p className={allowanceUsed ? "notice notice--warning" : "notice"} role="status">
            {allowanceUsed
              ? `You have used today's question included in your subscription. Your next question is available ${nextDailyQuestionText(Date.parse(allowance.nextQuestionAt), viewerTimeZone)}.`
              : "Included in your subscription: 1 question left today."}
          </p>
        ) : null}
        {subscriptionPaymentFailed ? (
          <p className="notice notice--warning" role="status">
            Your subscription's last payment failed, so this question is paid on its own. Once the payment
            goes through, your daily question is back.
          </p>
        ) : null}

        <Form method="post" {...getFormProps(form)} className="stack">
          {expert ? null : <input type="hidden" name="noExpert" value="yes" />}
          <input type="hidden" name="expectedAmount" value={price} />
          {form.errors ? (
            <p className="form-error" role="alert" id={form.errorId}>
              {form.errors.join(" ")}
            </p>
          ) : null}
          {/* With today's question used, nothing here can be sent: not written in vain either. */}
          <fieldset className="ask-fields stack" disabled={allowanceUsed}>
            <TextareaField
              label="Your Question"
              hint="Be specific so our experts can provide the most helpful answer."
              inputProps={{
                ...getTextareaProps(fields.question),
                placeholder: "Enter your detailed question here...",
                rows: 7,
              }}
              errors={fields.question.errors}
            />
            <Switch
              name={fields.requestAudioResponse.name}
              defaultChecked={
                retry?.requestAudioResponse ?? fields.requestAudioResponse.initialValue === "on"
              }
              label="Request Audio Response"
              description="Ask the expert to provide an audio recording of their answer"
            />
            <Switch
              name={fields.showOnProfile.name}
              defaultChecked={retry?.showOnProfile ?? fields.showOnProfile.initialValue === "on"}
              label="Show on the expert's profile"
              description="Let the answered question appear on the expert's public profile (without your name)"
            />
          </fieldset>

          {mode === "subscription" ? null : (
            <div className="payment-box">
              <div className="payment-box__line">
                <span>One-time question</span>
                <strong>{priceText}</strong>
              </div>
              {testMode ? (
                <p className="hint">No card is needed in test mode.</p>
              ) : (
                <PaymentFields
                  ref={paymentRef}
                  setup={
                    publishableKey
                      ? { publishableKey, amount: price, currency: "usd", captureMethod: "manual" }
                      : null
                  }
                  onReadyChange={onReadyChange}
                />
              )}
            </div>
          )}

          <Button type="submit" size="lg" block disabled={submitDisabled} aria-disabled={submitDisabled}>
            {submitLabel}
          </Button>
          {mode === "paid" ? (
            <p className="hint">
              Your card is authorised now and charged only when the expert answers. If they decline or do not
              answer within 24 hours, you are not charged.
            </p>
          ) : null}
          {mode !== "subscription" && !subscriptionPaymentFailed ? (
            <p className="hint">
              Ask often? <Link to="/subscribe">Subscribe for $20/month</Link>: one new question a day is
              included.
            </p>
          ) : null}
        </Form>
      </section>
    </div>
  );
}
