import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { requireDemoMode } from "~/auth/guards.server";
import { signInWithForm } from "~/auth/sign-in.server";
import { QuickLoginButtons } from "~/components/quick-login";
import { DEMO_ACCOUNTS } from "~/lib/demo-accounts";

export const meta: MetaFunction = () => [
  { title: "Expert Quick Login | Expert Answers" },
  { name: "robots", content: "noindex" },
];

export function loader({ context }: LoaderFunctionArgs) {
  requireDemoMode(context);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireDemoMode(context);
  return signInWithForm(context, request, () => "/expert/dashboard");
}

export default function ExpertQuickLogin() {
  return (
    <div className="narrow-page">
      <section className="card stack" aria-labelledby="quick-heading">
        <h1 id="quick-heading">Expert Quick Login</h1>
        <p className="muted">Demo mode: sign in with one click as the demo expert or the demo admin.</p>
        <QuickLoginButtons accounts={[DEMO_ACCOUNTS.expert, DEMO_ACCOUNTS.admin]} />
        <p>
          <Link to="/">← Back to Home</Link>
        </p>
      </section>
    </div>
  );
}
