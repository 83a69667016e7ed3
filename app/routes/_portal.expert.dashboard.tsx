import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { requireExpert } from "~/auth/guards.server";

export const meta: MetaFunction = () => [
  { title: "Expert Dashboard | Expert Answers" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, expertId } = await requireExpert(context, request);
  return { name: user.name ?? user.username, hasProfile: expertId !== null };
}

export default function ExpertDashboard() {
  const { name, hasProfile } = useLoaderData<typeof loader>();
  return (
    <div className="stack-lg">
      <header>
        <h1>Expert Dashboard</h1>
        <p className="muted">Welcome, {name}.</p>
      </header>
      {hasProfile ? null : (
        <p className="card">You are signed in as an administrator without an expert profile of your own.</p>
      )}
    </div>
  );
}
