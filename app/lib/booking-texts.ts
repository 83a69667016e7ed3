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

/**
 * Where a client goes once a session is booked. A bank payment that is still processing has not
 * paid for it yet, so its confirmation says so instead of calling the session confirmed.
 */
export function bookedPath(bookingId: number, status: "confirmed" | "pending"): string {
  return `/thank-you?booking=${bookingId}${status === "pending" ? "&payment=processing" : ""}`;
}

/** The toast once a session is booked, on the screen and on the return from a bank's page. */
export function bookedToast(status: "confirmed" | "pending") {
  return status === "pending"
    ? {
        title: "Payment Processing",
        description: "Your payment is processing. We'll confirm your session as soon as it arrives.",
      }
    : { title: "Success!", description: "Your session is booked." };
}
