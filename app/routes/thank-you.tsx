import type { MetaFunction } from "@remix-run/cloudflare";
import { useLocation } from "@remix-run/react";
import { useEffect } from "react";
import {
  CONFIRMATION_COPY,
  ConfirmationScreen,
  confirmationKind,
  confirmationQuestionId,
} from "~/components/confirmation-screen";
import { seo } from "~/components/seo";
import { ASK_DRAFT_PREFIX, BOOK_DRAFT_PREFIX, clearSessionDrafts } from "~/components/use-session-draft";

export const meta: MetaFunction = ({ location }: { location: { search: string } }) => {
  const copy = CONFIRMATION_COPY[confirmationKind(location.search)];
  // One visitor's confirmation (also at /confirmation and /success), not a page to find by search.
  return seo(copy.title.replace("!", ""), copy.description, { noindex: true });
};

export default function ThankYou() {
  const location = useLocation();
  const kind = confirmationKind(location.search);
  // The question is sent: the Ask screen's saved draft has done its job.
  useEffect(() => {
    if (kind === "question") clearSessionDrafts(ASK_DRAFT_PREFIX);
    if (kind === "booking" || kind === "bookingProcessing") clearSessionDrafts(BOOK_DRAFT_PREFIX);
  }, [kind]);
  return <ConfirmationScreen kind={kind} questionId={confirmationQuestionId(location.search)} />;
}
