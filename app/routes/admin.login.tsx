import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Link, useActionData, useSearchParams } from "@remix-run/react";
import { safeRedirect } from "~/auth/redirect";
import { getOptionalUser } from "~/auth/session.server";
import { signInWithForm } from "~/auth/sign-in.server";
import { keepFormWhenOffline } from "~/components/keep-form-when-offline";
import { LoginForm } from "~/components/login-form";
import { isAdminUser } from "~/models/users.server";

export const meta: MetaFunction = () => [
  { title: "Admin Login | Expert Answers" },
  { name: "description", content: "Sign in to the administration area." },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getOptionalUser(context, request);
  if (user && isAdminUser(user)) {
    throw redirect(safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/admin"));
  }
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  return signInWithForm(context, request, () => "/admin");
}

export const clientAction = keepFormWhenOffline;

export default function AdminLogin() {
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  return (
    <div className="narrow-page">
      <section className="card stack" aria-labelledby="admin-login-heading">
        <h1 id="admin-login-heading">Admin Login</h1>
        <LoginForm
          id="admin-login"
          redirectTo={searchParams.get("redirectTo") ?? ""}
          lastResult={actionData?.result}
        />
        <p>
          <Link to="/">← Back to Home</Link>
        </p>
      </section>
    </div>
  );
}
