import type { MetaFunction } from "@remix-run/cloudflare";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { NOT_FOUND_TEXT, NOT_FOUND_TITLE, NotFound } from "~/components/not-found";
import { seo } from "~/components/seo";

/** Any path no other route claims: a real 404 status, rendered by the boundary below. */
export function loader() {
  throw new Response("Not Found", { status: 404 });
}

export function action() {
  throw new Response("Not Found", { status: 404 });
}

export const meta: MetaFunction = () => seo(NOT_FOUND_TITLE, NOT_FOUND_TEXT);

export default function NotFoundRoute() {
  return <NotFound />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
