import type { HeadersArgs, MetaArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ExpertProfile, type ProfileViewData, profileMeta } from "~/components/expert-profile";
import { favoriteClientAction } from "~/components/favorite-button";
import { NOT_FOUND_TEXT, NOT_FOUND_TITLE } from "~/components/not-found";
import { seo } from "~/components/seo";
import discoveryStyles from "~/styles/discovery.css";

/**
 * Everything but the loader and action of the public profile's routes (/expert/{id or customUrl},
 * /experts/{id}, /{customUrl}): those differ only in how the path segment is looked up, so each
 * route file re-exports these and keeps its own server functions.
 */
export const links = () => [{ rel: "stylesheet", href: discoveryStyles }];

export const meta = ({ data, error }: MetaArgs) =>
  error ? seo(NOT_FOUND_TITLE, NOT_FOUND_TEXT) : profileMeta(data as ProfileViewData | undefined);

export const headers = ({ loaderHeaders }: HeadersArgs) => loaderHeaders;

export const clientAction = favoriteClientAction;

export default function ExpertProfileRoute() {
  return <ExpertProfile view={useLoaderData<ProfileViewData>()} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
