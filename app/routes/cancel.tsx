import type { MetaFunction } from "@remix-run/cloudflare";
import { seo } from "~/components/seo";
import { StatusPage } from "~/components/status-page";

export const meta: MetaFunction = () =>
  // One visitor's outcome, not a page to find by search.
  seo("Payment Canceled", "Your payment was not completed and you have not been charged.", { noindex: true });

export default function Cancel() {
  return (
    <StatusPage icon="×" tone="danger" title="Payment Canceled">
      <p className="muted">Your payment was not completed</p>
      <p>You have not been charged. You can try again whenever you're ready.</p>
    </StatusPage>
  );
}
