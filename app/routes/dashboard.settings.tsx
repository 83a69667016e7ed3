import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { handleAccountAction } from "~/auth/account.server";
import { requireUser } from "~/auth/guards.server";
import { AccountSettings, keepAccountFormWhenOffline } from "~/components/account-settings";
import { revalidateUnlessUnreachable } from "~/lib/revalidation";

/** A title of its own, not the dashboard's, so tabs, history and screen readers tell the sections apart. */
export const meta: MetaFunction = () => [
  { title: "Account Settings | Expert Answers" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  return {
    userId: user.id,
    name: user.name ?? "",
    email: user.email,
    hasExpertProfile: Boolean(user.expertProfile),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(context, request);
  return handleAccountAction(context, request, user, { afterLogout: "/" });
}

export const clientAction = keepAccountFormWhenOffline;
export const shouldRevalidate = revalidateUnlessUnreachable;

export default function DashboardSettings() {
  const { userId, name, email, hasExpertProfile } = useLoaderData<typeof loader>();
  return <AccountSettings userId={userId} name={name} email={email} hasExpertProfile={hasExpertProfile} />;
}
