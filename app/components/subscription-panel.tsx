import { Form, Link, useNavigation } from "@remix-run/react";
import { type ReactNode, useState } from "react";
import { Button, buttonClass } from "~/components/ui/button";
import { ConfirmDisclosure } from "~/components/ui/confirm-disclosure";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogTitle,
  DialogTrigger,
} from "~/components/ui/dialog";
import { useHydrated } from "~/components/use-hydrated";
import { useViewerTimeZone } from "~/components/use-viewer-time-zone";
import { formatDate, nextDailyQuestionText } from "~/lib/dates";
import { formatCents } from "~/lib/money";
import {
  SUBSCRIPTION_PRICE_CENTS,
  SUBSCRIPTION_STATUS_LABELS,
  type SubscriptionStatus,
  UNPAID_RENEWAL_STATUSES,
} from "~/schemas/subscription";

/** The subscription as the dashboard shows it (instants in epoch milliseconds). */
export type SubscriptionView = {
  status: SubscriptionStatus;
  active: boolean;
  endDate: number | null;
  cancelAtPeriodEnd: boolean;
  priceCents: number;
  questionsLeftToday: number;
  nextQuestionAt: number | null;
};

type Tone = "good" | "warning" | "bad" | "muted";

function describe(subscription: SubscriptionView, timeZone: string): { label: string; tone: Tone } {
  if (subscription.active && subscription.cancelAtPeriodEnd && subscription.endDate) {
    return { label: `Cancels on ${formatDate(subscription.endDate, timeZone)}`, tone: "warning" };
  }
  const tones: Record<SubscriptionStatus, Tone> = {
    active: "good",
    incomplete: "warning",
    past_due: "bad",
    unpaid: "bad",
    canceled: "muted",
    lapsed: "muted",
  };
  return { label: SUBSCRIPTION_STATUS_LABELS[subscription.status], tone: tones[subscription.status] };
}

/**
 * The client dashboard's subscription panel (issue 7): plan, status, renewal or end date, questions
 * left today, and Cancel subscription (at the end of the period) or Resume before that date.
 */
export function SubscriptionPanel({ subscription }: { subscription: SubscriptionView | null }) {
  const timeZone = useViewerTimeZone();
  if (!subscription) {
    return (
      <PanelFrame status={<span className="subscription-status">Not subscribed</span>}>
        <p className="subscription-panel__note muted">
          Ask one new question every day for {formatCents(SUBSCRIPTION_PRICE_CENTS)} a month, with no payment
          per question.
        </p>
        <div className="row">
          <Link to="/subscribe" className={buttonClass()}>
            Subscribe
          </Link>
        </div>
      </PanelFrame>
    );
  }

  const { label, tone } = describe(subscription, timeZone);
  const endText = subscription.endDate ? formatDate(subscription.endDate, timeZone) : null;
  return (
    <PanelFrame
      status={
        <span className="subscription-status" data-tone={tone} data-testid="subscription-status">
          {label}
        </span>
      }
    >
      <dl className="subscription-panel__facts">
        <div>
          <dt>Plan</dt>
          <dd>{`${formatCents(subscription.priceCents)} / month, one question a day`}</dd>
        </div>
        {/* A renewal the card refused has no end yet: the note below says what happens. */}
        {endText && !UNPAID_RENEWAL_STATUSES.includes(subscription.status) ? (
          <div>
            <dt>
              {subscription.active ? (subscription.cancelAtPeriodEnd ? "Ends on" : "Renews on") : "Ended on"}
            </dt>
            <dd>{endText}</dd>
          </div>
        ) : null}
        {subscription.active ? (
          <div>
            <dt>Questions left today</dt>
            <dd>
              {subscription.questionsLeftToday === 1 ? "1 question left today" : "0 questions left today"}
            </dd>
          </div>
        ) : null}
      </dl>
      <StatusNote subscription={subscription} endText={endText} timeZone={timeZone} />
      <Actions subscription={subscription} endText={endText} />
    </PanelFrame>
  );
}

/**
 * The panel's card, title and status. When an action's button leaves the panel (Cancel gives way to
 * Resume), focus goes to the title rather than the top of the page.
 */
function PanelFrame({ status, children }: { status: ReactNode; children: ReactNode }) {
  return (
    <section
      className="card subscription-panel"
      aria-labelledby="subscription-heading"
      data-focus-fallback="subscription-heading"
    >
      <div className="subscription-panel__head">
        <h2 id="subscription-heading" tabIndex={-1}>
          Monthly Subscription
        </h2>
        {status}
      </div>
      {children}
    </section>
  );
}

function StatusNote({
  subscription,
  endText,
  timeZone,
}: {
  subscription: SubscriptionView;
  endText: string | null;
  timeZone: string;
}) {
  if (subscription.active) {
    if (subscription.cancelAtPeriodEnd) {
      return (
        <p className="subscription-panel__note notice subscription-panel__note--warning">
          Your subscription is cancelled and ends on {endText}. You keep your daily question until then and
          won't be charged again. Changed your mind? Resume it before that date.
        </p>
      );
    }
    return (
      <p className="subscription-panel__note muted">
        {subscription.questionsLeftToday > 0
          ? "Today's question is waiting: ask any expert without paying."
          : `You have used today's question. Your next question is available ${nextDailyQuestionText(subscription.nextQuestionAt, timeZone)}.`}
      </p>
    );
  }
  const notes: Record<SubscriptionStatus, string> = {
    active: `Your subscription ended${endText ? ` on ${endText}` : ""}.`,
    lapsed: `Your subscription ended${endText ? ` on ${endText}` : ""}. Questions are paid one at a time until you subscribe again.`,
    canceled: `Your subscription was cancelled${endText ? ` and ended on ${endText}` : ""}. Questions are paid one at a time until you subscribe again.`,
    past_due:
      "Your last payment failed. We'll retry it; until it is paid, questions are paid one at a time. You can also cancel the subscription to stop it.",
    unpaid:
      "Your subscription is unpaid, so questions are paid one at a time. Subscribe again to restart it, or cancel it.",
    incomplete: "Your first payment was not completed, so the subscription has not started.",
  };
  return (
    <p className="subscription-panel__note notice subscription-panel__note--warning">
      {notes[subscription.status]}
    </p>
  );
}

function Actions({ subscription, endText }: { subscription: SubscriptionView; endText: string | null }) {
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;

  if (subscription.active && subscription.cancelAtPeriodEnd) {
    return (
      <Form method="post" className="row">
        <input type="hidden" name="intent" value="resume-subscription" />
        <Button type="submit" disabled={pending === "resume-subscription"}>
          {pending === "resume-subscription" ? "Resuming..." : "Resume"}
        </Button>
      </Form>
    );
  }
  if (subscription.active) {
    return (
      <div className="row">
        <Link to="/experts" className={buttonClass()}>
          Ask an expert
        </Link>
        <CancelSubscription
          description={`It stays active until ${endText}, with your daily question, and you won't be charged again. You can resume it before that date.`}
          busy={pending === "cancel-subscription"}
        />
      </div>
    );
  }
  return (
    <div className="row">
      <Link to="/subscribe" className={buttonClass()}>
        {subscription.status === "incomplete" ? "Complete your subscription" : "Subscribe again"}
      </Link>
      {UNPAID_RENEWAL_STATUSES.includes(subscription.status) ? (
        <CancelSubscription
          description="It ends now, and the payment that failed will not be taken. Questions are paid one at a time until you subscribe again."
          busy={pending === "cancel-subscription"}
        />
      ) : null}
    </div>
  );
}

/** Cancel subscription, confirmed in a dialog (or, before hydration, in a disclosure). */
function CancelSubscription({ description, busy }: { description: string; busy: boolean }) {
  const [open, setOpen] = useState(false);
  const hydrated = useHydrated();
  return (
    <>
      {hydrated ? null : (
        <ConfirmDisclosure
          label="Cancel subscription"
          variant="secondary"
          description={description}
          confirmLabel="Cancel subscription"
          intent="cancel-subscription"
        />
      )}
      <Dialog open={open} onOpenChange={setOpen}>
        {hydrated ? (
          <DialogTrigger asChild>
            <Button variant="secondary">Cancel subscription</Button>
          </DialogTrigger>
        ) : null}
        <DialogContent>
          <DialogTitle>Cancel your subscription?</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
          <Form method="post" onSubmit={() => setOpen(false)}>
            <input type="hidden" name="intent" value="cancel-subscription" />
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="secondary">Keep subscription</Button>
              </DialogClose>
              <Button type="submit" variant="danger" disabled={busy}>
                Cancel subscription
              </Button>
            </DialogFooter>
          </Form>
        </DialogContent>
      </Dialog>
    </>
  );
}
