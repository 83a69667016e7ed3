import type { HeadersArgs, LoaderFunctionArgs, MetaArgs } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { BrowsePage, browseMeta } from "~/components/expert-browse";
import { siteOrigin } from "~/config.server";
import { publicPageHeaders } from "~/services/cache.server";
import { loadBrowsePage } from "~/services/read-models.server";
import discoveryStyles from "~/styles/discovery.css";

export const links = () => [{ rel: "stylesheet", href: discoveryStyles }];

/** /browse is the same screen as /experts (SPEC.md); its canonical address is /experts. */
export const meta = ({ data }: MetaArgs<typeof loader>) => browseMeta(data);

export const headers = ({ loaderHeaders }: HeadersArgs) => loaderHeaders;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const view = await loadBrowsePage(context, url, { basePath: "/browse", pathCategory: null });
  return data(
    { origin: siteOrigin(context.config, request), ...view },
    { headers: publicPageHeaders(request) },
  );
}

export default function Browse() {
  const view = useLoaderData<typeof loader>();
  return <BrowsePage view={view} />;
}
