import type { MetaFunction } from "@remix-run/cloudflare";
import { useLocation } from "@remix-run/react";
import {
  CONFIRMATION_COPY,
  ConfirmationScreen,
  confirmationKind,
  confirmationQuestionId,
} from "~/components/confirmation-screen";
import { seo } from "~/components/seo";

export const meta: MetaFunction = ({ location }: { location: { search: string } }) => {
  const copy = CONFIRMATION_COPY[confirmationKind(location.search)];
  return seo(copy.title.replace("!", ""), copy.description);
};

export default function ThankYou() {
  const location = useLocation();
  return (
    <ConfirmationScreen
      kind={confirmationKind(location.search)}
      questionId={confirmationQuestionId(location.search)}
    />
  );
}
