import { useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { Button, buttonClass } from "~/components/ui/button";
import { ConfirmDisclosure } from "~/components/ui/confirm-disclosure";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogTitle,
  DialogTrigger,
} from "~/components/ui/dialog";
import { type ToastMessage, toast } from "~/components/ui/toast";
import { useHydrated } from "~/components/use-hydrated";
import { usePaymentsTestMode } from "~/components/use-payments-test-mode";
import { useSendOnce } from "~/components/use-send-once";

/** "Add to calendar": the .ics file (any calendar app) and a Google Calendar link, both in UTC. */
export function AddToCalendar({
  icsPath,
  googleCalendarUrl,
  compact = false,
}: {
  icsPath: string;
  googleCalendarUrl: string;
  compact?: boolean;
}) {
  return (
    <div className="calendar-links">
      <span className={compact ? "visually-hidden" : "calendar-links__label"}>Add to calendar:</span>
      <a href={icsPath} download className={buttonClass({ variant: "secondary", size: "sm" })}>
        Calendar file (.ics)
      </a>
      <a
        href={googleCalendarUrl}
        target="_blank"
        rel="noopener noreferrer"
        className={buttonClass({ variant: "secondary", size: "sm" })}
      >
        Google Calendar<span className="visually-hidden"> (opens in a new tab)</span>
      </a>
    </div>
  );
}

type CancelData = { ok: boolean; message: string; toast?: ToastMessage };

/**
 * Cancel Session, after a confirmation dialog: POST /bookings/{id}/cancel, which checks who may
 * cancel and when, refunds in full and tells the other party.
 */
export function CancelBookingButton({
  bookingId,
  label = "Cancel Session",
  description,
  onCancelled,
}: {
  bookingId: number;
  label?: string;
  description: string;
  onCancelled?: () => void;
}) {
  const fetcher = useFetcher<CancelData>();
  const hydrated = useHydrated();
  const location = useLocation();
  const confirmLabel = usePaymentsTestMode() ? "Yes, cancel" : "Yes, cancel and refund";
  const [open, setOpen] = useState(false);
  const busy = fetcher.state !== "idle";
  const sendOnce = useSendOnce(fetcher.state);
  const onCancelledRef = useRef(onCancelled);
  onCancelledRef.current = onCancelled;
  useEffect(() => {
    // The answer arrives while the lists revalidate; this row may be gone once they have.
    const data = fetcher.data;
    if (!data) return;
    toast(
      data.toast ?? {
        title: data.ok ? "Session cancelled" : "Error",
        description: data.message,
        variant: data.ok ? "default" : "destructive",
      },
    );
    setOpen(false);
    if (data.ok) onCancelledRef.current?.();
  }, [fetcher.data]);

  if (!hydrated) {
    // Without JavaScript there is no dialog: the disclosure asks the same question, and the post
    // comes back to this page with the outcome.
    const back = encodeURIComponent(`${location.pathname}${location.search}`);
    return (
      <ConfirmDisclosure
        label={label}
        description={description}
        confirmLabel={confirmLabel}
        action={`/bookings/${bookingId}/cancel?redirectTo=${back}`}
        size="sm"
      />
    );
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !busy && setOpen(next)}>
      {/* A trigger, so closing the dialog puts focus back on this button. */}
      <DialogTrigger asChild>
        <Button type="button" variant="danger" size="sm">
          {label}
        </Button>
      </DialogTrigger>
      <DialogContent aria-describedby={`cancel-${bookingId}-description`}>
        <DialogTitle>Cancel this session?</DialogTitle>
        <DialogDescription id={`cancel-${bookingId}-description`}>{description}</DialogDescription>
        <fetcher.Form method="post" action={`/bookings/${bookingId}/cancel`} onSubmit={sendOnce}>
          <DialogFooter>
            <Button type="button" variant="secondary" onClick={() => setOpen(false)} disabled={busy}>
              Keep Session
            </Button>
            <Button type="submit" variant="danger" disabled={busy}>
              {busy ? "Cancelling..." : confirmLabel}
            </Button>
          </DialogFooter>
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  );
}
