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

/** /{customUrl}: the public profile. Every page of the app wins over this route (static segments rank
 * first) and reserved words never reach the database: an unknown segment is the same 404 as $.tsx. */
const lookup = (params: LoaderFunctionArgs["params"]) =>
  lookupFromSegment(params.customUrl, { allowId: false, allowCustomUrl: true });

export function loader({ request, params, context }: LoaderFunctionArgs) {
  return loadProfilePage(context, request, lookup(params));
}

export function action({ request, params, context }: ActionFunctionArgs) {
  return handleFavoriteAction(context, request, lookup(params));
}
