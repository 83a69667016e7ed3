import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { requireDemoMode } from "~/auth/guards.server";
import { signInWithForm } from "~/auth/sign-in.server";
import { getAuthStatus } from "~/auth/status.server";
import { Button, buttonClass } from "~/components/ui/button";
import { useFocusKeeper } from "~/components/use-focus-keeper";
import { DEMO_ACCOUNTS } from "~/lib/demo-accounts";

export const meta: MetaFunction = () => [
  { title: "Test Login | Expert Answers" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireDemoMode(context);
  return { status: await getAuthStatus(context, request), defaults: DEMO_ACCOUNTS.expert };
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireDemoMode(context);
  return signInWithForm(context, request, () => "/test-login");
}

/** A developer page (demo mode only): raw auth status and the sign-in calls, side by side. */
export default function TestLogin() {
  const { status, defaults } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const statusFetcher = useFetcher<typeof status>();
  // Login and Logout are disabled while they run: focus comes back to them afterwards.
  useFocusKeeper();
  const [username, setUsername] = useState<string>(defaults.username);
  const [password, setPassword] = useState<string>(defaults.password);
  const shown = statusFetcher.data ?? status;
  const busy = navigation.state !== "idle";
  return (
    <div className="page stack-lg">
      <h1>Test Login</h1>
      <section className="card stack" aria-labelledby="status-heading">
        <h2 id="status-heading">Auth status</h2>
        <pre className="code-block" aria-live="polite">
          {JSON.stringify(shown, null, 2)}
        </pre>
      </section>
      <section className="card stack" aria-labelledby="login-heading">
        <h2 id="login-heading">Login</h2>
        {actionData?.result?.error ? (
          <p className="form-error" role="alert">
            Login failed: {Object.values(actionData.result.error).flat().join(" ")}
          </p>
        ) : null}
        <Form method="post" className="stack">
          <input type="hidden" name="intent" value="login" />
          <label className="field">
            <span className="field__label">Username</span>
            <input
              className="input"
              name="username"
              autoComplete="username"
              value={username}
              onChange={(e) => setUsername(e.target.value)}
            />
          </label>
          <label className="field">
            <span className="field__label">Password</span>
            <input
              className="input"
              name="password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
          <Button type="submit" disabled={busy}>
            Login
          </Button>
        </Form>
        <div className="row">
          <Form method="post" action="/logout">
            <input type="hidden" name="redirectTo" value="/test-login" />
            <Button type="submit" variant="secondary" disabled={busy}>
              Logout
            </Button>
          </Form>
          <Button variant="secondary" onClick={() => statusFetcher.load("/api/auth/status")}>
            Check Auth Status
          </Button>
          <Link to="/expert/dashboard" className={buttonClass({ variant: "secondary" })}>
            Go to Expert Dashboard
          </Link>
        </div>
        <Link to="/">Back to Home</Link>
      </section>
    </div>
  );
}
