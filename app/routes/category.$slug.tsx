import type { HeadersArgs, LoaderFunctionArgs, MetaArgs } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { isRouteErrorResponse, Link, useLoaderData, useRouteError } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { BrowsePage, browseMeta } from "~/components/expert-browse";
import { seo } from "~/components/seo";
import { StatusPage } from "~/components/status-page";
import { buttonClass } from "~/components/ui/button";
import { siteOrigin } from "~/config.server";
import { publicPageHeaders } from "~/services/cache.server";
import { loadBrowsePage } from "~/services/read-models.server";
import discoveryStyles from "~/styles/discovery.css";

export const links = () => [{ rel: "stylesheet", href: discoveryStyles }];

const CATEGORY_NOT_FOUND = "Category Not Found";

export const meta = ({ data, error }: MetaArgs<typeof loader>) =>
  error
    ? seo(
        CATEGORY_NOT_FOUND,
        "We couldn't find that category. Browse all experts or return to the home page.",
      )
    : browseMeta(data);

export const headers = ({ loaderHeaders }: HeadersArgs) => loaderHeaders;

/** /category/{slug}: one category's experts; `all` means every expert; an unknown slug is a 404. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const slug = String(params.slug ?? "");
  // One spelling per page (/category/SALES leads to /category/sales), so the edge cache keeps one copy.
  if (slug !== slug.toLowerCase()) {
    throw redirect(`/category/${encodeURIComponent(slug.toLowerCase())}${url.search}`, 301);
  }
  const view = await loadBrowsePage(context, url, { basePath: `/category/${slug}`, pathCategory: slug });
  return data(
    { origin: siteOrigin(context.config, request), ...view },
    { headers: publicPageHeaders(request) },
  );
}

export default function CategoryBrowse() {
  const view = useLoaderData<typeof loader>();
  return <BrowsePage view={view} />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <StatusPage
        icon="?"
        title={CATEGORY_NOT_FOUND}
        actions={
          <>
            <Link to="/" className={buttonClass()}>
              Return to Home
            </Link>
            <Link to="/experts" className={buttonClass({ variant: "secondary" })}>
              Browse Experts
            </Link>
          </>
        }
      >
        <p className="muted">We couldn't find that category. It may have been renamed or removed.</p>
      </StatusPage>
    );
  }
  return <GeneralErrorBoundary />;
}
