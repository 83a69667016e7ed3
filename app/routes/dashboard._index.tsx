import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/auth/guards.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  return { username: user.username, email: user.email, subscriptionStatus: user.subscriptionStatus };
}

export default function DashboardOverview() {
  const { username, email } = useLoaderData<typeof loader>();
  return (
    <section className="card stack" aria-labelledby="overview-heading">
      <h2 id="overview-heading">Your account</h2>
      <dl className="details">
        <dt>Username</dt>
        <dd>{username}</dd>
        <dt>Email</dt>
        <dd>{email}</dd>
      </dl>
      <p>
        <Link to="/experts">Find an expert</Link> to ask your first question, or change your details in{" "}
        <Link to="/dashboard/settings">Settings</Link>.
      </p>
    </section>
  );
}
