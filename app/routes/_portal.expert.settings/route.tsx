import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { requireExpert } from "~/auth/guards.server";
import { keepFormWhenOffline } from "~/components/keep-form-when-offline";
import { buttonClass } from "~/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { revalidateUnlessUnreachable } from "~/lib/revalidation";
import { getOwnExpertProfile, listCategoryOptions } from "~/models/experts.server";
import { isAdminUser } from "~/models/users.server";
import { IMAGE_MAX_BYTES, readUploadForm, UploadError } from "~/services/media.server";
import formsHref from "~/styles/expert-forms.css";
import portalHref from "~/styles/expert-portal.css";
import {
  FORBIDDEN_PROFILE_MESSAGE,
  NOT_AN_EXPERT_MESSAGE,
  saveGeneral,
  saveImage,
  savePricing,
} from "./actions.server";
import { GeneralForm } from "./general-form";
import { PhotosForm } from "./photos-form";
import { PricingForm } from "./pricing-form";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: formsHref },
  { rel: "stylesheet", href: portalHref },
];

export const meta: MetaFunction = () => [
  { title: "Edit Profile | Expert Answers" },
  { name: "robots", content: "noindex" },
];

const TABS = ["general", "photos", "pricing"] as const;
type Tab = (typeof TABS)[number];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, expertId } = await requireExpert(context, request);
  const url = new URL(request.url);
  if (expertId === null) {
    // An admin may open the portal without a profile of their own: they are told so and may create one.
    return { profile: null, categories: [], siteAddress: `${url.host}/`, isAdmin: isAdminUser(user) };
  }
  const [profile, categories] = await Promise.all([
    getOwnExpertProfile(context.db, { userId: user.id }),
    listCategoryOptions(context.db),
  ]);
  return { profile, categories, siteAddress: `${url.host}/`, isAdmin: isAdminUser(user) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { user, expertId } = await requireExpert(context, request);
  let form: FormData;
  try {
    form = await readUploadForm(request, IMAGE_MAX_BYTES);
  } catch (error) {
    if (!(error instanceof UploadError)) throw error;
    return data(
      { intent: null, ok: false, url: null, error: `Failed to upload image. ${error.message}` },
      { status: error.status },
    );
  }
  const intent = form.get("intent");
  if (expertId === null) {
    return data({ intent, ok: false, result: null, error: NOT_AN_EXPERT_MESSAGE }, { status: 403 });
  }
  // The owner comes from the session. A form that names another profile was tampered with:
  // refuse it outright (403) rather than save anything.
  for (const field of ["expertId", "id"]) {
    const named = form.get(field);
    if (named !== null && String(named) !== String(expertId)) {
      return data({ intent, ok: false, result: null, error: FORBIDDEN_PROFILE_MESSAGE }, { status: 403 });
    }
  }
  const owner = { expertId, userId: user.id };
  switch (intent) {
    case "general":
      return saveGeneral(context, owner, form);
    case "pricing":
      return savePricing(context, owner, form);
    case "profileImage":
    case "headerImage":
      return saveImage(context, owner, intent, form);
    default:
      return data({ intent: null, ok: false, result: null, error: "Unknown action." }, { status: 400 });
  }
}

export const clientAction = keepFormWhenOffline;
export const shouldRevalidate = revalidateUnlessUnreachable;

export default function ExpertSettings() {
  const { profile, categories, siteAddress, isAdmin } = useLoaderData<typeof loader>();
  // A form posted as a page (without JavaScript) that could not be read, so belongs to no tab's form.
  const actionData = useActionData<typeof action>();
  const unplacedError = actionData && actionData.intent === null && !actionData.ok ? actionData.error : null;
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get("tab");
  const tab: Tab = (TABS as readonly string[]).includes(requested ?? "") ? (requested as Tab) : "general";

  if (!profile) {
    return (
      <div className="stack-lg">
        <header className="page-header">
          <h1>Edit Profile</h1>
        </header>
        <section className="card stack" aria-labelledby="no-profile-title">
          <h2 id="no-profile-title">No expert profile found</h2>
          <p>
            {isAdmin
              ? "You're signed in as an administrator without an expert profile of your own, so there is nothing to edit here."
              : "Your account has no expert profile yet."}{" "}
            Create one to appear in the marketplace.
          </p>
          <div>
            <Link to="/become-expert" className={buttonClass()}>
              Create your expert profile
            </Link>
          </div>
        </section>
      </div>
    );
  }

  return (
    <div className="stack-lg">
      <header className="page-header">
        <h1>Edit Profile</h1>
        <p>What clients see on your public profile. Changes show there as soon as you save.</p>
      </header>
      {unplacedError ? (
        <p className="form-error" role="alert">
          {unplacedError}
        </p>
      ) : null}
      <Tabs
        value={tab}
        onValueChange={(value) =>
          setSearchParams(
            (params) => {
              params.set("tab", value);
              return params;
            },
            { replace: true, preventScrollReset: true },
          )
        }
      >
        <TabsList aria-label="Profile sections" className="settings-tabs">
          <TabsTrigger value="general">General Information</TabsTrigger>
          <TabsTrigger value="photos">Photos</TabsTrigger>
          <TabsTrigger value="pricing">Pricing</TabsTrigger>
        </TabsList>
        {/* Kept mounted, so switching tabs never loses what was typed. */}
        <TabsContent value="general" forceMount className="kept-tab-panel">
          <GeneralForm profile={profile} categories={categories} siteAddress={siteAddress} />
        </TabsContent>
        <TabsContent value="photos" forceMount className="kept-tab-panel">
          <PhotosForm profileImage={profile.profileImage} headerImage={profile.headerImage} />
        </TabsContent>
        <TabsContent value="pricing" forceMount className="kept-tab-panel">
          <PricingForm
            expertId={profile.id}
            questionRate={profile.questionRate}
            sessionPrice={profile.sessionPrice}
          />
        </TabsContent>
      </Tabs>
    </div>
  );
}
