import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/auth/guards.server";
import { ClientQuestions } from "~/components/client-questions";
import { revalidateUnlessUnreachable } from "~/lib/revalidation";
import { getClientDashboard } from "~/models/client-dashboard.server";
import { PRIVATE_CACHE_CONTROL } from "~/services/cache.server";

/** A title of its own, not the dashboard's, so tabs, history and screen readers tell the sections apart. */
export const meta: MetaFunction = () => [
  { title: "My Questions | Expert Answers" },
  { name: "robots", content: "noindex" },
];

export const shouldRevalidate = revalidateUnlessUnreachable;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  const { questions } = await getClientDashboard(context.db, user.id);
  return data({ questions }, { headers: { "Cache-Control": PRIVATE_CACHE_CONTROL } });
}

export default function DashboardQuestions() {
  const { questions } = useLoaderData<typeof loader>();
  return <ClientQuestions questions={questions} />;
}
