import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLocation, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { homePathFor } from "~/auth/guards.server";
import { safeRedirect } from "~/auth/redirect";
import { getOptionalUser } from "~/auth/session.server";
import { registerWithForm, signInWithForm } from "~/auth/sign-in.server";
import { keepFormWhenOffline } from "~/components/keep-form-when-offline";
import { LoginForm } from "~/components/login-form";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { requiredFields, useForm } from "~/components/use-form";
import { readForm } from "~/lib/form-data.server";
import { RegisterSchema } from "~/schemas/auth";

export const meta: MetaFunction = () => [
  { title: "Sign in or register | Expert Answers" },
  {
    name: "description",
    content: "Sign in to follow your questions and bookings, or create a free account.",
  },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getOptionalUser(context, request);
  if (user) {
    const redirectTo = new URL(request.url).searchParams.get("redirectTo");
    throw redirect(safeRedirect(redirectTo, homePathFor(user)));
  }
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request.clone());
  return form.get("intent") === "register"
    ? registerWithForm(context, request)
    : signInWithForm(context, request);
}

export const clientAction = keepFormWhenOffline;

export default function AuthScreen() {
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const actionData = useActionData<typeof action>();
  // /register, and the header's Sign Up (/auth?tab=register), open on the Register tab.
  const requestedTab =
    location.pathname === "/register" || searchParams.get("tab") === "register" ? "register" : "login";
  const [tab, setTab] = useState<string>(actionData?.intent ?? requestedTab);
  // Sign Up or Login pressed while this screen is open switches the tab (a refused form's tab stays).
  const shownFor = useRef(requestedTab);
  useEffect(() => {
    if (shownFor.current === requestedTab) return;
    shownFor.current = requestedTab;
    setTab(requestedTab);
  }, [requestedTab]);
  const redirectTo = searchParams.get("redirectTo") ?? "";

  return (
    <div className="auth-layout">
      <section className="card auth-card" aria-labelledby="auth-heading">
        <h1 id="auth-heading" className="auth-title">
          {tab === "register" ? "Create your account" : "Welcome back"}
        </h1>
        <Tabs value={tab} onValueChange={setTab}>
          <TabsList aria-label="Sign in or register">
            <TabsTrigger value="login">Sign In</TabsTrigger>
            <TabsTrigger value="register">Register</TabsTrigger>
          </TabsList>
          <TabsContent value="login">
            <LoginForm
              redirectTo={redirectTo}
              lastResult={actionData?.intent === "login" ? actionData.result : null}
            />
          </TabsContent>
          <TabsContent value="register">
            <RegisterForm
              redirectTo={redirectTo}
              lastResult={actionData?.intent === "register" ? actionData.result : null}
            />
          </TabsContent>
        </Tabs>
        {/* The tabs switch by script; without it, the other form is a page of its own. */}
        <p className="no-js-only">
          {tab === "register" ? (
            <>
              Already have an account? <Link to="/login">Sign in</Link>
            </>
          ) : (
            <>
              New here? <Link to="/register">Create an account</Link>
            </>
          )}
        </p>
      </section>
      <aside className="auth-aside" aria-label="Why create an account">
        <h2>Your questions, answered by people who know</h2>
        <ul className="check-list">
          <li>Track the status of every question you ask, from submitted to answered.</li>
          <li>Review written and recorded answers whenever you need them.</li>
          <li>Come back with follow-ups: each follow-up counts as a new question.</li>
          <li>Keep your favourite experts and your bookings in one place.</li>
        </ul>
        <p className="muted">
          Are you an expert? <Link to="/become-expert">Apply to join</Link> or{" "}
          <Link to="/expert/login">sign in to the expert portal</Link>.
        </p>
      </aside>
    </div>
  );
}

type LastResult = SubmissionResult<string[]> | null | undefined;

function RegisterForm({ redirectTo, lastResult }: { redirectTo: string; lastResult: LastResult }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "register";
  const [form, fields] = useForm({
    id: "register",
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    constraint: requiredFields(RegisterSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RegisterSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="stack">
      <input type="hidden" name="intent" value="register" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {form.errors ? (
        <p className="form-error" role="alert" id={form.errorId}>
          <strong>Registration failed.</strong> {form.errors.join(" ")}
        </p>
      ) : null}
      <Field
        label="Name"
        inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "name" }}
        errors={fields.name.errors}
      />
      <Field
        label="Username"
        inputProps={{ ...getInputProps(fields.username, { type: "text" }), autoComplete: "username" }}
        errors={fields.username.errors}
      />
      <Field
        label="Email"
        inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
        errors={fields.email.errors}
      />
      <Field
        label="Password"
        hint="At least 6 characters."
        inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password" }}
        errors={fields.password.errors}
      />
      <Button type="submit" disabled={busy} block>
        {busy ? "Creating account..." : "Create Account"}
      </Button>
    </Form>
  );
}
