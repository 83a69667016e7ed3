import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { handleFavoriteAction, loadProfilePage, lookupFromSegment } from "~/services/profile-page.server";

export {
  clientAction,
  default,
  ErrorBoundary,
  headers,
  links,
  meta,
} from "~/components/expert-profile-route";

/** /expert/{id} or /expert/{customUrl}: the public profile (the portal's /expert/* pages win). */
const lookup = (params: LoaderFunctionArgs["params"]) =>
  lookupFromSegment(params.id, { allowId: true, allowCustomUrl: true });

export function loader({ request, params, context }: LoaderFunctionArgs) {
  return loadProfilePage(context, request, lookup(params));
}

export function action({ request, params, context }: ActionFunctionArgs) {
  return handleFavoriteAction(context, request, lookup(params));
}
