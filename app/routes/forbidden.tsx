import { data, type MetaFunction } from "@remix-run/cloudflare";
import { seo } from "~/components/seo";
import { StatusPage } from "~/components/status-page";

export const meta: MetaFunction = () =>
  seo("Access Denied", "You don't have permission to access this page.");

/** Guards redirect here when a signed-in person lacks the role; the status says so too. */
export function loader() {
  return data({}, { status: 403 });
}

export default function Forbidden() {
  return (
    <StatusPage icon="!" tone="danger" title="Access Denied">
      <p className="muted">You don't have permission to access this page</p>
      <p>If you think this is a mistake, sign in with a different account or contact support.</p>
    </StatusPage>
  );
}
