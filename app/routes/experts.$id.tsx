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

/** /experts/{id}: the public profile by id only. */
const lookup = (params: LoaderFunctionArgs["params"]) =>
  lookupFromSegment(params.id, { allowId: true, allowCustomUrl: false });

export function loader({ request, params, context }: LoaderFunctionArgs) {
  return loadProfilePage(context, request, lookup(params));
}

export function action({ request, params, context }: ActionFunctionArgs) {
  return handleFavoriteAction(context, request, lookup(params));
}
