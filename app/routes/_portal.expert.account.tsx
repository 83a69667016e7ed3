import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { handleAccountAction } from "~/auth/account.server";
import { requireExpert } from "~/auth/guards.server";
import { AccountSettings, keepAccountFormWhenOffline } from "~/components/account-settings";
import { revalidateUnlessUnreachable } from "~/lib/revalidation";

export const meta: MetaFunction = () => [
  { title: "Account | Expert Answers" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireExpert(context, request);
  return {
    userId: user.id,
    name: user.name ?? "",
    email: user.email,
    hasExpertProfile: Boolean(user.expertProfile),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireExpert(context, request);
  return handleAccountAction(context, request, user, { afterLogout: "/expert/login" });
}

export const clientAction = keepAccountFormWhenOffline;
export const shouldRevalidate = revalidateUnlessUnreachable;

export default function ExpertAccount() {
  const { userId, name, email, hasExpertProfile } = useLoaderData<typeof loader>();
  return (
    <div className="stack-lg">
      <h1>Account</h1>
      <AccountSettings userId={userId} name={name} email={email} hasExpertProfile={hasExpertProfile} />
    </div>
  );
}
