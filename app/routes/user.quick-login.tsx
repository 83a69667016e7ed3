import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData } from "@remix-run/react";
import { requireDemoMode } from "~/auth/guards.server";
import { signInWithForm } from "~/auth/sign-in.server";
import { QuickLoginButtons } from "~/components/quick-login";
import { DEMO_ACCOUNTS } from "~/lib/demo-accounts";

export const meta: MetaFunction = () => [
  { title: "Quick Login | Expert Answers" },
  { name: "robots", content: "noindex" },
];

export function loader({ context }: LoaderFunctionArgs) {
  requireDemoMode(context);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireDemoMode(context);
  return signInWithForm(context, request, () => "/dashboard");
}

export default function UserQuickLogin() {
  const actionData = useActionData<typeof action>();
  return (
    <div className="narrow-page">
      <section className="card stack" aria-labelledby="quick-heading">
        <h1 id="quick-heading">Quick Login</h1>
        <p className="muted">Demo mode: sign in with one click as a test client.</p>
        {actionData?.result?.error ? (
          <p className="form-error" role="alert">
            Login failed
          </p>
        ) : null}
        <QuickLoginButtons accounts={[DEMO_ACCOUNTS.client, DEMO_ACCOUNTS.subscriber]} />
        <p>
          <Link to="/">← Back to Home</Link>
        </p>
      </section>
    </div>
  );
}
