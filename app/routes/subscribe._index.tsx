import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { useCallback, useRef, useState } from "react";
import { getOptionalUser } from "~/auth/session.server";
import { createAccountAndSignIn } from "~/auth/sign-in.server";
import { keepFormWhenOffline } from "~/components/keep-form-when-offline";
import { pageSeo } from "~/components/page-seo";
import { PaymentFields } from "~/components/payment/payment-fields";
import { PAYMENT_TEXTS, type PaymentHandle } from "~/components/payment/types";
import { Button, buttonClass } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { toast } from "~/components/ui/toast";
import { requiredFields, useForm } from "~/components/use-form";
import { formatDate } from "~/lib/dates";
import { readForm } from "~/lib/form-data.server";
import { formatCents } from "~/lib/money";
import {
  getSubscriptionState,
  isSubscriptionActive,
  startSubscription,
  subscriptionDeps,
} from "~/models/subscriptions.server";
import {
  SIGNED_IN_FIELD,
  SUBSCRIPTION_MESSAGES,
  SUBSCRIPTION_PRICE_CENTS,
  type SubscribeAccountInput,
  SubscribeAccountSchema,
  SubscribeSignedInSchema,
  subscribeSchemaFor,
} from "~/schemas/subscription";
import { redirectWithToast } from "~/services/flash.server";
import questionsStylesHref from "~/styles/questions.css";
import subscriptionsStylesHref from "~/styles/subscriptions.css";

// The payment box and test-mode badge are the Ask screen's (questions.css).
export const links = () => [
  { rel: "stylesheet", href: questionsStylesHref },
  { rel: "stylesheet", href: subscriptionsStylesHref },
];

export const meta: MetaFunction = (args) =>
  pageSeo(
    args,
    "Monthly Subscription",
    "Get unlimited daily questions answered by our experts for $20/month: one new question every day.",
  );

/** /subscribe: no sign-in needed (SPEC.md section 6); a signed-in visitor sees no account fields. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getOptionalUser(context, request);
  const now = new Date(context.now());
  const state = user ? await getSubscriptionState(context.primaryDb, user.id) : null;
  const active = isSubscriptionActive(state, now);
  const testMode = context.config.paymentsTestMode;
  return data(
    {
      signedInAs: user ? (user.name ?? user.username) : null,
      active:
        active && state?.endDate
          ? { endDate: state.endDate.getTime(), cancelAtPeriodEnd: state.cancelAtPeriodEnd }
          : null,
      mode: (testMode ? "test" : "paid") as "test" | "paid",
      priceCents: SUBSCRIPTION_PRICE_CENTS,
      publishableKey: testMode ? null : (context.config.stripe.publishableKey ?? null),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

/**
 * The form post: what needs no card, so test mode (it also works without JavaScript). With Stripe
 * the screen pays through /api/create-subscription-intent and the Payment Element instead.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await getOptionalUser(context, request);
  const form = await readForm(request);
  // Filled in signed in, sent without a session (a logout in another tab): say so.
  if (!user && form.get(SIGNED_IN_FIELD)) {
    const ended = parseWithZod(form, { schema: SubscribeSignedInSchema });
    return data(
      { result: ended.reply({ formErrors: [SUBSCRIPTION_MESSAGES.sessionEnded] }) },
      { status: 401 },
    );
  }
  const submission = parseWithZod(form, { schema: subscribeSchemaFor(user !== null) });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  }
  const deps = subscriptionDeps(context);
  if (deps.stripe) {
    return data(
      { result: submission.reply({ formErrors: [SUBSCRIPTION_MESSAGES.needsJavaScript] }) },
      { status: 400 },
    );
  }
  let userId = user?.id ?? null;
  const headers = new Headers();
  if (userId === null) {
    // Signed out, the schema was the account one: its value has the account fields.
    const fields = SubscribeAccountSchema.parse(submission.value);
    const account = await createAccountAndSignIn(context, request, fields);
    if (!account.ok) {
      return data(
        {
          result: submission.reply({
            fieldErrors: { [account.field]: [account.message] },
            hideFields: ["password"],
          }),
        },
        { status: account.httpStatus },
      );
    }
    userId = account.userId;
    headers.append("Set-Cookie", account.cookie);
  }
  const result = await startSubscription(deps, userId);
  if (result.status !== "active") {
    const message = result.status === "refused" ? result.message : SUBSCRIPTION_MESSAGES.initFailed;
    return data(
      { result: submission.reply({ formErrors: [message], hideFields: ["password"] }) },
      { status: result.status === "refused" ? result.httpStatus : 502, headers },
    );
  }
  return redirectWithToast(
    "/thank-you?subscription=true",
    { title: "Success! (Test Mode)", description: "Your subscription is active." },
    { headers },
  );
}

/** What /api/create-subscription-intent refused, with the account fields it blamed. */
class SubscribeRefused extends Error {
  constructor(
    message: string,
    readonly fieldErrors: Record<string, string[]> | null,
  ) {
    super(message);
  }
}

type IntentResponse = {
  error?: string;
  fieldErrors?: Record<string, string[]>;
  signedIn?: boolean;
  status?: string;
  clientSecret?: string;
};

export const clientAction = keepFormWhenOffline;

export default function SubscribeScreen() {
  const { signedInAs, active, mode, priceCents, publishableKey } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const paymentRef = useRef<PaymentHandle>(null);
  const [paymentReady, setPaymentReady] = useState(false);
  const [paying, setPaying] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({});
  const onReadyChange = useCallback((ready: boolean) => setPaymentReady(ready), []);

  const signedIn = signedInAs !== null;
  const testMode = mode === "test";
  const priceText = formatCents(priceCents);
  const busy = paying || navigation.state === "submitting";

  const [form, fields] = useForm({
    id: "subscribe",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    constraint: requiredFields(subscribeSchemaFor(signedIn)),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: subscribeSchemaFor(signedIn) }),
    onSubmit(event, { submission }) {
      if (testMode) return; // a plain form post
      event.preventDefault();
      if (submission?.status === "success") void payAndSubscribe(submission.value);
    },
  });

  async function payAndSubscribe(account: Partial<SubscribeAccountInput>) {
    const payment = paymentRef.current;
    if (!payment || !paymentReady) {
      toast({ title: "Error", description: PAYMENT_TEXTS.notReady, variant: "destructive" });
      return;
    }
    setPaying(true);
    setServerErrors({});
    let accountCreated = false;
    try {
      const outcome = await payment.pay(async () => {
        const response = await fetch("/api/create-subscription-intent", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          // The server computes the price; SPEC.md's call carries the amount in dollars.
          body: JSON.stringify({
            ...(signedIn ? { [SIGNED_IN_FIELD]: true } : account),
            amount: priceCents / 100,
          }),
        });
        const body = (await response.json().catch(() => ({}))) as IntentResponse;
        if (body.signedIn && !signedIn) accountCreated = true;
        if (!response.ok) {
          throw new SubscribeRefused(
            body.error ?? SUBSCRIPTION_MESSAGES.initFailed,
            body.fieldErrors ?? null,
          );
        }
        if (!body.clientSecret) throw new SubscribeRefused(SUBSCRIPTION_MESSAGES.initFailed, null);
        return {
          clientSecret: body.clientSecret,
          returnUrl: `${window.location.origin}/subscribe/return`,
        };
      });
      if (!outcome.ok) {
        const cause = outcome.cause;
        if (cause instanceof SubscribeRefused && cause.fieldErrors) {
          setServerErrors(cause.fieldErrors);
          return;
        }
        const title = outcome.stage === "payment" || outcome.stage === "details" ? "Payment Failed" : "Error";
        toast({ title, description: outcome.message, variant: "destructive" });
        return;
      }
      // The server reads the subscription from Stripe and sends the browser on to the thank-you page.
      window.location.assign("/subscribe/return");
    } catch {
      toast({ title: "Error", description: SUBSCRIPTION_MESSAGES.generic, variant: "destructive" });
    } finally {
      setPaying(false);
      // The account exists now (and is signed in): show the form without the account fields.
      if (accountCreated) revalidator.revalidate();
    }
  }

  const errorsOf = (name: keyof SubscribeAccountInput) => fields[name].errors ?? serverErrors[name];
  const submitDisabled = busy || (mode === "paid" && !paymentReady);

  return (
    <div className="page subscribe-page stack-lg">
      <header className="subscribe-header">
        <p className="eyebrow">Subscription</p>
        <h1>Monthly Subscription</h1>
        <p className="subscribe-lead">
          {`Get unlimited daily questions answered by our experts for ${priceText.replace(/\.00$/, "")}/month`}
        </p>
        {testMode ? <span className="badge badge--warning">Test Mode Active</span> : null}
      </header>

      <div className="subscribe-layout">
        <section className="card stack" aria-labelledby="subscribe-form-title">
          <h2 id="subscribe-form-title">{active ? "You're subscribed" : "Start your subscription"}</h2>
          {active ? (
            <div className="stack">
              <p className="notice notice--success" role="status">
                You already have an active subscription.{" "}
                {active.cancelAtPeriodEnd
                  ? `It ends on ${formatDate(active.endDate)}.`
                  : `It renews on ${formatDate(active.endDate)}.`}
              </p>
              <div className="row">
                <Link to="/dashboard" className={buttonClass()}>
                  Manage in your dashboard
                </Link>
                <Link to="/experts" className={buttonClass({ variant: "secondary" })}>
                  Ask an expert
                </Link>
              </div>
            </div>
          ) : (
            <Form
              method="post"
              {...getFormProps(form)}
              className="stack"
              onInput={() => (Object.keys(serverErrors).length > 0 ? setServerErrors({}) : undefined)}
            >
              {form.errors ? (
                <p className="form-error" role="alert" id={form.errorId}>
                  {form.errors.join(" ")}
                </p>
              ) : null}
              {signedIn ? (
                <p className="notice notice--success subscribe-signed-in">
                  Signed in as <strong>{signedInAs}</strong>. The subscription is added to this account.
                  <input type="hidden" name={SIGNED_IN_FIELD} value="1" />
                </p>
              ) : (
                <fieldset className="subscribe-account">
                  <legend>Your account</legend>
                  <p className="hint">
                    Already have an account?{" "}
                    <Link to={`/auth?${new URLSearchParams({ redirectTo: "/subscribe" })}`}>Sign in</Link>{" "}
                    first.
                  </p>
                  <Field
                    label="Email"
                    inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
                    errors={errorsOf("email")}
                  />
                  <Field
                    label="Username"
                    hint="At least 3 characters: letters, numbers, dots, hyphens and underscores."
                    inputProps={{
                      ...getInputProps(fields.username, { type: "text" }),
                      autoComplete: "username",
                    }}
                    errors={errorsOf("username")}
                  />
                  <Field
                    label="Password"
                    hint="At least 6 characters."
                    inputProps={{
                      ...getInputProps(fields.password, { type: "password" }),
                      autoComplete: "new-password",
                    }}
                    errors={errorsOf("password")}
                  />
                </fieldset>
              )}

              <div className="payment-box">
                <div className="payment-box__line">
                  <span>Monthly subscription</span>
                  <strong>{`${priceText}/month`}</strong>
                </div>
                {testMode ? (
                  <div className="notice notice--warning" role="note">
                    <strong>Test Mode Active.</strong> Payments are switched off on this server: your
                    subscription is activated for 30 days without payment.
                  </div>
                ) : (
                  <PaymentFields
                    ref={paymentRef}
                    setup={
                      publishableKey
                        ? {
                            publishableKey,
                            amount: priceCents,
                            currency: "usd",
                            captureMethod: "automatic",
                            mode: "subscription",
                          }
                        : null
                    }
                    onReadyChange={onReadyChange}
                    initFailedMessage={SUBSCRIPTION_MESSAGES.initFailed}
                  />
                )}
              </div>

              <Button type="submit" size="lg" block disabled={submitDisabled} aria-disabled={submitDisabled}>
                {busy ? "Subscribing..." : "Subscribe Now"}
              </Button>
              <p className="hint">
                Renews every month until you cancel. Cancel any time from your dashboard: you keep your daily
                question until the end of the month you paid for.
              </p>
            </Form>
          )}
        </section>

        <aside className="card subscribe-aside" aria-labelledby="subscribe-includes">
          <h2 id="subscribe-includes">What's included</h2>
          <p className="subscribe-price">
            <span className="subscribe-price__amount">{priceText}</span>
            <span className="muted"> per month</span>
          </p>
          <ul className="check-list">
            <li>One new question every day, to any expert, with no payment per question.</li>
            <li>A personalized answer within 24 hours; most arrive within 12.</li>
            <li>Ask for a written or a recorded audio answer.</li>
            <li>Your daily question resets at midnight UTC.</li>
            <li>Cancel any time; resume before the month ends.</li>
          </ul>
          <p className="hint">
            Follow-ups count as new questions. Medical, legal and financial advice that needs a licensed
            professional is not provided.
          </p>
        </aside>
      </div>
    </div>
  );
}
