import { DELETED_ACCOUNT_NAME } from "./experts";
import { formatCents } from "./money";

/**
 * What the expert's Cancel Session confirmation says happens: who is told and what is refunded. A
 * client who closed their account cannot be told; their card is refunded all the same. Test mode
 * took no payment, so nothing is said to be refunded.
 */
export function expertCancelDescription({
  clientName,
  amountCents,
  testMode,
}: {
  clientName: string;
  amountCents: number;
  testMode: boolean;
}): string {
  const gone = clientName === DELETED_ACCOUNT_NAME;
  const amount = amountCents > 0 ? ` of ${formatCents(amountCents)}` : "";
  const told = gone
    ? "The client has deleted their account; the time opens up for other clients."
    : `${clientName} is told, and the time opens up for other clients.`;
  const refund = testMode
    ? "Booked in test mode, so no payment was taken and there is nothing to refund."
    : gone
      ? `The client's card gets a full refund${amount}.`
      : `${clientName} gets a full refund${amount}.`;
  return `${told} ${refund}`;
}
