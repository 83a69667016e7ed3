import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/cloudflare";
import {
  Await,
  type ClientActionFunctionArgs,
  Link,
  type ShouldRevalidateFunction,
  useActionData,
  useLoaderData,
} from "@remix-run/react";
import { Suspense } from "react";
import { handleExpertSignup } from "~/auth/expert-signup.server";
import { getOptionalUser } from "~/auth/session.server";
import { keepFormWhenOffline } from "~/components/keep-form-when-offline";
import { pageSeo } from "~/components/page-seo";
import { Spinner } from "~/components/spinner";
import { buttonClass } from "~/components/ui/button";
import { listCategoryOptions } from "~/models/experts.server";
import { SIGNED_IN_FIELD } from "~/schemas/expert";
import href from "~/styles/become-expert.css";
import formsHref from "~/styles/expert-forms.css";
import { ExpertWizard, sendAgainToKnow, useRedirectAfter } from "./wizard";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: formsHref },
  { rel: "stylesheet", href },
];

export const meta: MetaFunction = (args) =>
  pageSeo(
    args,
    "Become an Expert",
    "Apply to answer questions and hold paid sessions: create your expert profile in three steps.",
  );

type Account = { signedIn: boolean; displayName: string | null; isExpert: boolean };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const account: Promise<Account> = getOptionalUser(context, request).then((user) => ({
    signedIn: user !== null,
    displayName: user ? (user.name ?? user.username) : null,
    isExpert: user?.expertProfile != null,
  }));
  const categories = await listCategoryOptions(context.db);
  // A client-side navigation (a fetch: Sec-Fetch-Dest "empty") streams the session read and shows a
  // spinner meanwhile; a full page load waits for it, so the HTML is complete without JavaScript.
  const streamed = request.headers.get("Sec-Fetch-Dest") === "empty";
  return {
    categories,
    siteAddress: `${new URL(request.url).host}/`,
    account: streamed ? account : await account,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  return handleExpertSignup(context, request);
}

/**
 * After its own submission the wizard keeps what it has: reloading the account would suspend the
 * form (and flash the spinner) while the answer is shown. The root loader still refreshes the header.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formAction,
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}) => {
  if (formAction?.split("?")[0] === currentUrl.pathname) return false;
  // Nor from one step to another (hash to hash), which the router loads data for when Back
  // interrupts a send: the form would be mounted again, empty.
  const samePage = nextUrl.pathname + nextUrl.search === currentUrl.pathname + currentUrl.search;
  if (samePage && nextUrl.hash && currentUrl.hash && nextUrl.hash !== currentUrl.hash) return false;
  return defaultShouldRevalidate;
};

/** A lost answer may follow a made account or profile: sending again is safe, and its answer says which. */
export const clientAction = (args: ClientActionFunctionArgs) =>
  keepFormWhenOffline(args, {
    outcomeUnknown: (sent) =>
      `We couldn't tell whether your application was received. ${sendAgainToKnow(sent.has(SIGNED_IN_FIELD))}`,
  });

export default function BecomeExpert() {
  const { account } = useLoaderData<typeof loader>();
  return (
    <div className="page become-expert">
      <header className="page-header">
        <h1>Become an Expert</h1>
        <p>
          Answer questions, hold paid 1:1 sessions and build your reputation. It only takes a few minutes.
        </p>
      </header>
      {account instanceof Promise ? (
        <Suspense fallback={<Spinner label="Checking your account..." className="become-expert__loading" />}>
          <Await
            resolve={account}
            errorElement={
              <p className="notice notice--danger">We couldn't check your account. Please reload the page.</p>
            }
          >
            {(resolved) => <WizardOrStatus account={resolved} />}
          </Await>
        </Suspense>
      ) : (
        <WizardOrStatus account={account} />
      )}
    </div>
  );
}

function WizardOrStatus({ account }: { account: Account }) {
  const { categories, siteAddress } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  if (account.isExpert && actionData?.status !== "created") return <AlreadyExpert />;
  return (
    <ExpertWizard
      categories={categories}
      siteAddress={siteAddress}
      signedInAs={account.signedIn ? account.displayName : null}
      answer={actionData ?? null}
    />
  );
}

/** SPEC.md: someone who is already an expert is told so and sent to the dashboard after 1.5 s. */
function AlreadyExpert() {
  useRedirectAfter("/expert/dashboard");
  return (
    <section className="card stack become-expert__status" aria-live="polite">
      <h2>You're already an expert</h2>
      <p>You already have an expert profile. Taking you to your dashboard...</p>
      <Link to="/expert/dashboard" className={buttonClass()}>
        Go to Expert Dashboard
      </Link>
    </section>
  );
}
