import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { safeRedirect } from "~/auth/redirect";
import { getOptionalUser } from "~/auth/session.server";
import { signInWithForm } from "~/auth/sign-in.server";
import { keepFormWhenOffline } from "~/components/keep-form-when-offline";
import { LoginForm } from "~/components/login-form";
import { Button } from "~/components/ui/button";
import { DEMO_ACCOUNTS } from "~/lib/demo-accounts";
import { isAdminUser, isExpertUser } from "~/models/users.server";

export const meta: MetaFunction = () => [
  { title: "Expert Portal Login | Expert Answers" },
  { name: "description", content: "Sign in to the expert portal to answer questions and manage sessions." },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getOptionalUser(context, request);
  // Already signed in with portal access: straight to the portal.
  if (user && (isExpertUser(user) || isAdminUser(user))) {
    throw redirect(safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/expert/dashboard"));
  }
  return { demo: context.config.demoMode ? DEMO_ACCOUNTS.expert : null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  return signInWithForm(context, request, () => "/expert/dashboard");
}

export const clientAction = keepFormWhenOffline;

export default function ExpertLogin() {
  const { demo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  return (
    <div className="narrow-page">
      <section className="card stack" aria-labelledby="expert-login-heading">
        <h1 id="expert-login-heading">Expert Portal</h1>
        <p className="muted">Sign in to answer questions, manage your sessions and track your earnings.</p>
        <LoginForm
          id="expert-login"
          redirectTo={searchParams.get("redirectTo") ?? ""}
          lastResult={actionData?.result}
        >
          {(fill) =>
            demo ? (
              <aside className="demo-box" aria-label="Demo account">
                <p>
                  <strong>Demo account</strong>: username <code>{demo.username}</code>, password{" "}
                  <code>{demo.password}</code>
                </p>
                <Button variant="secondary" size="sm" onClick={() => fill(demo.username, demo.password)}>
                  Fill in demo account
                </Button>
              </aside>
            ) : null
          }
        </LoginForm>
        <p className="muted">
          No expert account yet? Contact the administrator through the <Link to="/contact">contact page</Link>
          , or <Link to="/become-expert">apply to become an expert</Link>.
        </p>
        <p>
          <Link to="/">← Back to Home</Link>
        </p>
      </section>
    </div>
  );
}
