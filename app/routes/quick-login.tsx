import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData } from "@remix-run/react";
import { requireDemoMode } from "~/auth/guards.server";
import { signInWithForm } from "~/auth/sign-in.server";
import { LoginForm } from "~/components/login-form";
import { DEMO_ACCOUNTS } from "~/lib/demo-accounts";
import { isAdminUser } from "~/models/users.server";

export const meta: MetaFunction = () => [
  { title: "Quick Login | Expert Answers" },
  { name: "robots", content: "noindex" },
];

export function loader({ context }: LoaderFunctionArgs) {
  requireDemoMode(context);
  return { username: DEMO_ACCOUNTS.expert.username };
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireDemoMode(context);
  return signInWithForm(context, request, (user) =>
    isAdminUser(user) || user.expertProfile ? "/expert/dashboard" : "/dashboard",
  );
}

/** SPEC.md: a fixed username with only a password field. */
export default function QuickLogin() {
  const actionData = useActionData<typeof action>();
  return (
    <div className="narrow-page">
      <section className="card stack" aria-labelledby="quick-heading">
        <h1 id="quick-heading">Quick Login</h1>
        <p className="muted">
          Signing in as <code>{DEMO_ACCOUNTS.expert.username}</code>. Enter the password to continue.
        </p>
        <LoginForm
          id="quick-login"
          redirectTo=""
          lastResult={actionData?.result}
          fixedUsername={DEMO_ACCOUNTS.expert.username}
        />
        <p>
          <Link to="/">← Back to Home</Link>
        </p>
      </section>
    </div>
  );
}
