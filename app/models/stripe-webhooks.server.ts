/**
 * Stripe webhook events, each processed once (DESIGN.md "Money and payments").
 *
 * An event is dispatched by the kind of thing it is about (its object's `metadata.kind`, which every
 * PaymentIntent we create carries) and its type, to a handler that reads what it needs and returns
 * the statements to apply. Those statements run in one batch with the insert into `stripe_events`,
 * so an event is recorded exactly when its change is made, and a second delivery (even a concurrent
 * one) changes nothing. Events nobody handles are recorded and acknowledged.
 *
 * Handlers are grouped by kind (`question`, `booking`, `subscription`, `charge`); to handle another event,
 * add it under its kind below.
 */
import { eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors.server";
import { stripeEvents } from "~/db/schema.server";
import {
  onBookingPaymentFailed,
  onBookingPaymentProcessing,
  onBookingPaymentSucceeded,
} from "~/models/bookings.server";
import { onChargeRefunded } from "~/models/payments.server";
import {
  onQuestionPaymentAuthorized,
  onQuestionPaymentCanceled,
  onQuestionPaymentCaptured,
  onQuestionPaymentFailed,
  type WebhookOutcome,
} from "~/models/questions.server";
import {
  onInvoicePaid,
  onInvoicePaymentFailed,
  onSubscriptionDeleted,
  onSubscriptionUpdated,
} from "~/models/subscriptions.server";
import type { PaymentIntent, Stripe, StripeClient, StripeEvent } from "~/services/stripe.server";

export type { WebhookOutcome };

/** Reads what it needs and returns the statements for the event's batch (or none, with a note why). */
export type WebhookHandler = (
  db: Database,
  // The event's data.object: a PaymentIntent, Invoice or Subscription, depending on the type.
  // biome-ignore lint/suspicious/noExplicitAny: each handler knows the object its event type carries
  object: any,
  now: Date,
  event: StripeEvent,
  /** For a handler that must read an object's current state: events can arrive out of order. */
  stripe: StripeClient,
) => Promise<WebhookOutcome>;

type EventType = StripeEvent["type"];

export const WEBHOOK_HANDLERS: Record<string, Partial<Record<EventType, WebhookHandler>>> = {
  question: {
    "payment_intent.amount_capturable_updated": (db, intent: PaymentIntent, now) =>
      onQuestionPaymentAuthorized(db, intent, now),
    "payment_intent.payment_failed": (db, intent: PaymentIntent, now) =>
      onQuestionPaymentFailed(db, intent, now),
    "payment_intent.canceled": (db, intent: PaymentIntent, now) => onQuestionPaymentCanceled(db, intent, now),
    "payment_intent.succeeded": (db, intent: PaymentIntent, now) =>
      onQuestionPaymentCaptured(db, intent, now),
  },
  // Matched to the user by the Stripe customer; events for anyone else are logged and acknowledged.
  subscription: {
    "invoice.paid": (db, invoice: Stripe.Invoice, now, event) => onInvoicePaid(db, invoice, now, event),
    "invoice.payment_failed": (db, invoice: Stripe.Invoice, now, event) =>
      onInvoicePaymentFailed(db, invoice, now, event),
    "customer.subscription.updated": (db, subscription: Stripe.Subscription, now, event) =>
      onSubscriptionUpdated(db, subscription, now, event),
    "customer.subscription.deleted": (db, subscription: Stripe.Subscription, now, event) =>
      onSubscriptionDeleted(db, subscription, now, event),
  },
  // Matched to the ledger line by the charge's PaymentIntent, whatever the charge paid for.
  charge: {
    "charge.refunded": async (db, charge: Stripe.Charge, now) => onChargeRefunded(db, charge, now),
  },
  booking: {
    "payment_intent.succeeded": (db, intent: PaymentIntent, now) =>
      onBookingPaymentSucceeded(db, intent, now),
    "payment_intent.processing": (db, intent: PaymentIntent) => onBookingPaymentProcessing(db, intent),
    "payment_intent.payment_failed": (db, intent: PaymentIntent, now, _event, stripe) =>
      onBookingPaymentFailed(db, intent, now, stripe),
  },
};

/** Stripe's subscription lifecycle objects may not carry our metadata; they belong to subscriptions. */
const DEFAULT_KIND_BY_TYPE_PREFIX: [prefix: string, kind: string][] = [
  ["invoice.", "subscription"],
  ["customer.subscription.", "subscription"],
];

/** What an event is about: charges by their type, else its object's `metadata.kind`, else the default for its type. */
export function eventKind(event: StripeEvent): string | null {
  if (event.type.startsWith("charge.")) return "charge";
  const object = event.data?.object as { metadata?: Record<string, string> | null } | undefined;
  const kind = object?.metadata?.kind;
  if (typeof kind === "string" && kind.length > 0) return kind;
  return DEFAULT_KIND_BY_TYPE_PREFIX.find(([prefix]) => event.type.startsWith(prefix))?.[1] ?? null;
}

export type ProcessResult = { result: "processed" | "duplicate" | "ignored" | "refused"; note: string };

const recordEvent = (db: Database, event: StripeEvent) =>
  db.insert(stripeEvents).values({ id: event.id, type: event.type });

/** True when the batch failed because another delivery of the same event was recorded first. */
function isEventReplay(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const message = String((current as Error).message ?? current);
    if (message.includes("UNIQUE constraint failed: stripe_events.id")) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Handles a verified event at most once. Throws only when the change could not be made (Stripe retries). */
export async function processStripeEvent(
  db: Database,
  event: StripeEvent,
  now: Date,
  stripe: StripeClient,
): Promise<ProcessResult> {
  const [seen] = await db
    .select({ id: stripeEvents.id })
    .from(stripeEvents)
    .where(eq(stripeEvents.id, event.id));
  if (seen) return { result: "duplicate", note: "already processed" };

  const kind = eventKind(event);
  const handler = kind ? WEBHOOK_HANDLERS[kind]?.[event.type] : undefined;
  if (!handler) {
    await recordEvent(db, event).onConflictDoNothing();
    return { result: "ignored", note: `no handler for ${kind ?? "unknown kind"} ${event.type}` };
  }

  const outcome = await handler(db, event.data.object, now, event, stripe);
  const statements = outcome.statements as BatchItem<"sqlite">[];
  try {
    await db.batch([recordEvent(db, event), ...statements]);
  } catch (error) {
    if (isEventReplay(error)) return { result: "duplicate", note: "processed concurrently" };
    if (!isUniqueViolation(error)) throw error;
    // The change itself was refused by a constraint (a PaymentIntent already paying for another
    // row): nothing changed, and retrying would not change that. Record the event and move on.
    await recordEvent(db, event).onConflictDoNothing();
    return { result: "refused", note: String((error as Error).message).slice(0, 200) };
  }
  return { result: statements.length > 0 ? "processed" : "ignored", note: outcome.note };
}
