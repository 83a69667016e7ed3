import type { ActionFunctionArgs, HeadersArgs, LoaderFunctionArgs, MetaArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ExpertProfile, profileMeta } from "~/components/expert-profile";
import { favoriteClientAction } from "~/components/favorite-button";
import { NOT_FOUND_TEXT, NOT_FOUND_TITLE } from "~/components/not-found";
import { seo } from "~/components/seo";
import { handleFavoriteAction, loadProfilePage, lookupFromSegment } from "~/services/profile-page.server";
import discoveryStyles from "~/styles/discovery.css";

export const links = () => [{ rel: "stylesheet", href: discoveryStyles }];

export const meta = ({ data, error }: MetaArgs<typeof loader>) =>
  error ? seo(NOT_FOUND_TITLE, NOT_FOUND_TEXT) : profileMeta(data);

export const headers = ({ loaderHeaders }: HeadersArgs) => loaderHeaders;

/** /experts/{id}: the public profile by id only. */
const lookup = (params: LoaderFunctionArgs["params"]) =>
  lookupFromSegment(params.id, { allowId: true, allowCustomUrl: false });

export function loader({ request, params, context }: LoaderFunctionArgs) {
  return loadProfilePage(context, request, lookup(params));
}

export function action({ request, params, context }: ActionFunctionArgs) {
  return handleFavoriteAction(context, request, lookup(params));
}

export const clientAction = favoriteClientAction;

export default function ExpertProfileRoute() {
  return <ExpertProfile view={useLoaderData<typeof loader>()} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
