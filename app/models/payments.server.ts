/**
 * The payment core shared by questions, bookings and subscriptions (DESIGN.md "Money and payments"):
 *
 * - the ledger (the `payments` table): one line per thing paid for, its status and last error;
 * - PaymentIntents for a row we already wrote: the server computes the amount, the metadata names the
 *   row, and every call that moves money carries an idempotency key derived from the row and action;
 * - verification of a PaymentIntent the browser (or a webhook) tells us about: amount, currency,
 *   metadata, capture method and status must match the row, and an intent pays for one row only.
 *
 * It knows nothing of what a question or a booking is: app/models/questions.server.ts (and the
 * bookings model) decide what each outcome means and put these statements in their own batches.
 */
import { and, eq, inArray, isNotNull, ne, type SQL, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { bookings, type PAYMENT_KINDS, type PAYMENT_STATUSES, payments, questions } from "~/db/schema.server";
import { addDays } from "~/lib/slots";
import { SUBSCRIPTION_PRICE_CENTS } from "~/schemas/subscription";
import {
  type PaymentIntent,
  type Stripe,
  StripeApiError,
  type StripeClient,
  stripeErrorMessage,
} from "~/services/stripe.server";

export type PaymentKind = (typeof PAYMENT_KINDS)[number];
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Every amount is in US cents (SPEC.md: fees in US dollars). */
export const CURRENCY = "usd";

/** The row a PaymentIntent pays for. Its id goes into the metadata and the idempotency keys. */
export type PaymentSubject =
  | { kind: "question"; questionId: number }
  | { kind: "booking"; bookingId: number };

/** Which ledger line: the one of a question, a booking or a subscription invoice. */
export type LedgerRef = { questionId: number } | { bookingId: number } | { stripeInvoiceId: string };

export type CaptureMethod = "manual" | "automatic" | "automatic_async";

export const subjectRowId = (subject: PaymentSubject) =>
  subject.kind === "question" ? subject.questionId : subject.bookingId;

export const ledgerRefOf = (subject: PaymentSubject): LedgerRef =>
  subject.kind === "question" ? { questionId: subject.questionId } : { bookingId: subject.bookingId };

/** `{kind, questionId | bookingId, userId}`: what a PaymentIntent says it pays for. */
export function subjectMetadata(subject: PaymentSubject, userId: number | null): Record<string, string> {
  const metadata: Record<string, string> = { kind: subject.kind };
  if (subject.kind === "question") metadata.questionId = String(subject.questionId);
  else metadata.bookingId = String(subject.bookingId);
  if (userId !== null) metadata.userId = String(userId);
  return metadata;
}

export type MoneyAction = "create" | "capture" | "cancel" | "refund";

/**
 * `question-42-capture`. Stripe saves the first response for a key, errors included, and replays it;
 * so a deliberate retry after a recorded failure passes that failure's time as `retryStamp` and gets
 * a fresh key, while a network retry of the same attempt reuses the key and never moves money twice.
 * (Capturing, cancelling or fully refunding twice is refused by Stripe's own state machine.)
 */
export function idempotencyKey(subject: PaymentSubject, action: MoneyAction, retryStamp?: number | null) {
  const base = `${subject.kind}-${subjectRowId(subject)}-${action}`;
  return retryStamp ? `${base}-retry-${retryStamp}` : base;
}

// ---------------------------------------------------------------------------------------------
// Calls to Stripe

/**
 * Creates the PaymentIntent for a row we already wrote, for the amount the server computed. The
 * same row always gets the same PaymentIntent back (the idempotency key is the row's).
 */
export async function createPaymentIntent(
  stripe: StripeClient,
  input: {
    subject: PaymentSubject;
    amount: number;
    userId: number | null;
    captureMethod: CaptureMethod;
    description?: string;
    receiptEmail?: string | null;
  },
): Promise<PaymentIntent> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) {
    throw new Error(`Refusing to create a PaymentIntent for ${input.amount} cents`);
  }
  return stripe.paymentIntents.create(
    {
      amount: input.amount,
      currency: CURRENCY,
      capture_method: input.captureMethod,
      automatic_payment_methods: { enabled: true },
      metadata: subjectMetadata(input.subject, input.userId),
      ...(input.description ? { description: input.description.slice(0, 500) } : {}),
      ...(input.receiptEmail ? { receipt_email: input.receiptEmail } : {}),
    },
    { idempotencyKey: idempotencyKey(input.subject, "create") },
  );
}

/** null when Stripe has no such PaymentIntent (a made-up or another account's id). */
export async function retrievePaymentIntent(stripe: StripeClient, id: string): Promise<PaymentIntent | null> {
  if (!/^pi_[A-Za-z0-9_]{1,250}$/.test(id)) return null;
  try {
    return await stripe.paymentIntents.retrieve(id);
  } catch (error) {
    if (error instanceof StripeApiError && (error.statusCode === 404 || error.code === "resource_missing")) {
      return null;
    }
    throw error;
  }
}

/** The result of a call that moves money: done (now or before), or refused with Stripe's message. */
export type MoneyOutcome<T = PaymentIntent> =
  | { ok: true; result: T; alreadyDone: boolean }
  | { ok: false; error: string; code: string | null };

function refused(error: unknown): { ok: false; error: string; code: string | null } {
  if (!(error instanceof StripeApiError)) throw error;
  return { ok: false, error: stripeErrorMessage(error), code: error.code ?? null };
}

/** A capture refused because the PaymentIntent is cancelled: it never can be captured. */
export const PAYMENT_CANCELLED_CODE = "payment_intent_canceled";

/**
 * Captures an authorised (manual-capture) PaymentIntent. A PaymentIntent already captured counts as
 * done, so a retry after a lost response is harmless. Network failures are thrown, not refused.
 */
export async function capturePayment(
  stripe: StripeClient,
  input: { subject: PaymentSubject; paymentIntentId: string; retryStamp?: number | null },
): Promise<MoneyOutcome> {
  try {
    const intent = await stripe.paymentIntents.capture(
      input.paymentIntentId,
      {},
      { idempotencyKey: idempotencyKey(input.subject, "capture", input.retryStamp) },
    );
    return { ok: true, result: intent, alreadyDone: false };
  } catch (error) {
    const outcome = refused(error);
    if (outcome.code === "payment_intent_unexpected_state") {
      const intent = await retrievePaymentIntent(stripe, input.paymentIntentId);
      if (intent?.status === "succeeded") return { ok: true, result: intent, alreadyDone: true };
      if (intent?.status === "canceled") {
        return { ok: false, error: "The payment was cancelled at Stripe.", code: PAYMENT_CANCELLED_CODE };
      }
    }
    return outcome;
  }
}

/**
 * Cancels a PaymentIntent (for an authorisation: releases the hold, the client is never charged).
 * One already cancelled counts as done.
 */
export async function cancelPayment(
  stripe: StripeClient,
  input: {
    subject: PaymentSubject;
    paymentIntentId: string;
    reason?: "abandoned" | "requested_by_customer" | "duplicate" | "fraudulent";
    retryStamp?: number | null;
  },
): Promise<MoneyOutcome> {
  try {
    const intent = await stripe.paymentIntents.cancel(
      input.paymentIntentId,
      input.reason ? { cancellation_reason: input.reason } : {},
      { idempotencyKey: idempotencyKey(input.subject, "cancel", input.retryStamp) },
    );
    return { ok: true, result: intent, alreadyDone: false };
  } catch (error) {
    const outcome = refused(error);
    if (outcome.code === "payment_intent_unexpected_state") {
      const intent = await retrievePaymentIntent(stripe, input.paymentIntentId);
      if (intent?.status === "canceled") return { ok: true, result: intent, alreadyDone: true };
    }
    return outcome;
  }
}

/** Refunds a paid PaymentIntent in full (or `amount` cents). A charge already refunded counts as done. */
export async function refundPayment(
  stripe: StripeClient,
  input: {
    subject: PaymentSubject;
    paymentIntentId: string;
    amount?: number;
    reason?: "requested_by_customer" | "duplicate" | "fraudulent";
    retryStamp?: number | null;
  },
): Promise<MoneyOutcome<{ id: string | null; amount: number | null }>> {
  try {
    const refund = await stripe.refunds.create(
      {
        payment_intent: input.paymentIntentId,
        ...(input.amount !== undefined ? { amount: input.amount } : {}),
        ...(input.reason ? { reason: input.reason } : {}),
        metadata: subjectMetadata(input.subject, null),
      },
      { idempotencyKey: idempotencyKey(input.subject, "refund", input.retryStamp) },
    );
    return { ok: true, result: { id: refund.id, amount: refund.amount }, alreadyDone: false };
  } catch (error) {
    const outcome = refused(error);
    if (outcome.code === "charge_already_refunded") {
      return { ok: true, result: { id: null, amount: null }, alreadyDone: true };
    }
    return outcome;
  }
}

// ---------------------------------------------------------------------------------------------
// Verification

/** What our row says the PaymentIntent must be. */
export type ExpectedPayment = {
  subject: PaymentSubject;
  amount: number;
  currency: string;
  userId: number | null;
  captureMethod: CaptureMethod;
  /** The PaymentIntent id stored on our row (null if the row never learnt it). */
  paymentIntentId: string | null;
};

export type PaymentCheck =
  | { ok: true; intent: PaymentIntent }
  | {
      ok: false;
      /** mismatch: not this row's payment; not_paid: not (yet) authorised/paid; failed: declined or cancelled. */
      reason: "mismatch" | "not_paid" | "failed";
      message: string;
      intent: PaymentIntent | null;
    };

export const PAYMENT_MESSAGES = {
  mismatch: "This payment does not match your question.",
  not_paid: "Your payment has not been completed yet.",
  failed: "Your payment failed. Please try again.",
  cancelled: "This payment was cancelled.",
} as const;

/**
 * Checks a PaymentIntent (from Stripe or a signed webhook) against our row. `paidStatuses` is what
 * counts as paid: `requires_capture` for manual capture (authorised), `succeeded` for the others.
 */
export function checkPaymentIntent(
  intent: PaymentIntent,
  expected: ExpectedPayment,
  { paidStatuses }: { paidStatuses: readonly PaymentIntent["status"][] },
): PaymentCheck {
  const mismatch = (why: string): PaymentCheck => {
    console.warn(
      JSON.stringify({ level: "warn", message: "payment intent mismatch", why, intent: intent.id }),
    );
    return { ok: false, reason: "mismatch", message: PAYMENT_MESSAGES.mismatch, intent };
  };
  const wanted = subjectMetadata(expected.subject, expected.userId);
  const metadata = intent.metadata ?? {};
  if (expected.paymentIntentId !== null && expected.paymentIntentId !== intent.id) return mismatch("id");
  for (const [key, value] of Object.entries(wanted)) {
    if (metadata[key] !== value) return mismatch(`metadata.${key}`);
  }
  if (intent.amount !== expected.amount) return mismatch("amount");
  if (intent.currency !== expected.currency) return mismatch("currency");
  if (intent.capture_method !== expected.captureMethod) return mismatch("capture_method");
  if (paidStatuses.includes(intent.status)) return { ok: true, intent };
  if (intent.status === "canceled") {
    return { ok: false, reason: "failed", message: PAYMENT_MESSAGES.cancelled, intent };
  }
  if (intent.last_payment_error) {
    return {
      ok: false,
      reason: "failed",
      message: intent.last_payment_error.message || PAYMENT_MESSAGES.failed,
      intent,
    };
  }
  return { ok: false, reason: "not_paid", message: PAYMENT_MESSAGES.not_paid, intent };
}

/**
 * True when another question, booking or ledger line already holds this PaymentIntent id. (The
 * unique columns refuse the write anyway; this turns the refusal into a clear answer first.)
 */
export async function isPaymentIntentUsedElsewhere(
  db: Database,
  paymentIntentId: string,
  subject: PaymentSubject,
): Promise<boolean> {
  const questionId = subject.kind === "question" ? subject.questionId : -1;
  const bookingId = subject.kind === "booking" ? subject.bookingId : -1;
  // A ledger line for this intent that is not ours (`is not` also matches lines of the other kind).
  const notOurs =
    subject.kind === "question"
      ? sql`${payments.questionId} is not ${subject.questionId}`
      : sql`${payments.bookingId} is not ${subject.bookingId}`;
  const [row] = await db
    .select({ n: sql<number>`1` })
    .from(payments)
    .where(and(eq(payments.stripePaymentIntentId, paymentIntentId), notOurs))
    .limit(1);
  if (row) return true;
  const [question] = await db
    .select({ id: questions.id })
    .from(questions)
    .where(and(eq(questions.paymentIntentId, paymentIntentId), ne(questions.id, questionId)))
    .limit(1);
  if (question) return true;
  const [booking] = await db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.paymentIntentId, paymentIntentId), ne(bookings.id, bookingId)))
    .limit(1);
  return Boolean(booking);
}

/**
 * The browser's return: the PaymentIntent it names must be the row's (or, if the row never learnt
 * its id, one no other row holds), exist at Stripe, and match the row in every detail.
 */
export async function verifyPaymentIntent(
  stripe: StripeClient,
  db: Database,
  paymentIntentId: string,
  expected: ExpectedPayment,
  options: { paidStatuses: readonly PaymentIntent["status"][] },
): Promise<PaymentCheck> {
  const refuse = (): PaymentCheck => ({
    ok: false,
    reason: "mismatch",
    message: PAYMENT_MESSAGES.mismatch,
    intent: null,
  });
  if (expected.paymentIntentId !== null && expected.paymentIntentId !== paymentIntentId) return refuse();
  if (await isPaymentIntentUsedElsewhere(db, paymentIntentId, expected.subject)) return refuse();
  const intent = await retrievePaymentIntent(stripe, paymentIntentId);
  if (!intent) return refuse();
  return checkPaymentIntent(intent, expected, options);
}

// ---------------------------------------------------------------------------------------------
// The ledger

const refWhere = (ref: LedgerRef) =>
  "questionId" in ref
    ? eq(payments.questionId, ref.questionId)
    : "bookingId" in ref
      ? eq(payments.bookingId, ref.bookingId)
      : eq(payments.stripeInvoiceId, ref.stripeInvoiceId);

const refTarget = (ref: LedgerRef) =>
  "questionId" in ref
    ? payments.questionId
    : "bookingId" in ref
      ? payments.bookingId
      : payments.stripeInvoiceId;

export type LedgerLine = {
  kind: PaymentKind;
  ref: LedgerRef;
  amount: number;
  status: PaymentStatus;
  userId: number | null;
  expertId: number | null;
  stripePaymentIntentId?: string | null;
  settledAt?: Date | null;
};

/**
 * Writes a ledger line, or moves the existing one to `line.status` — but only from one of
 * `replaceFrom`, so a late or repeated event never rolls a line back (captured stays captured).
 * With `when`, only if that condition holds as the statement runs: in a batch after the change the
 * line records, it is written only if that change was made (one that lost a race records nothing).
 */
export function ledgerUpsertStatement(
  db: Database,
  line: LedgerLine,
  { now, replaceFrom, when }: { now: Date; replaceFrom: readonly PaymentStatus[]; when?: SQL },
) {
  const values = {
    kind: line.kind,
    status: line.status,
    amount: line.amount,
    currency: CURRENCY,
    userId: line.userId,
    expertId: line.expertId,
    questionId: "questionId" in line.ref ? line.ref.questionId : null,
    bookingId: "bookingId" in line.ref ? line.ref.bookingId : null,
    stripeInvoiceId: "stripeInvoiceId" in line.ref ? line.ref.stripeInvoiceId : null,
    stripePaymentIntentId: line.stripePaymentIntentId ?? null,
    settledAt: line.settledAt ?? null,
    createdAt: now,
    updatedAt: now,
  };
  const onConflict = {
    target: refTarget(line.ref),
    set: {
      status: line.status,
      amount: line.amount,
      stripePaymentIntentId: sql`coalesce(excluded.stripe_payment_intent_id, ${payments.stripePaymentIntentId})`,
      settledAt: line.settledAt ?? null,
      lastError: null,
      updatedAt: now,
    },
    setWhere: inArray(payments.status, [...replaceFrom]),
  };
  if (!when) return db.insert(payments).values(values).onConflictDoUpdate(onConflict);
  // insert ... select names every column, in the table's order; its WHERE is `when`.
  const value = <T>(name: string, v: T) => sql<T>`${v}`.as(name);
  return db
    .insert(payments)
    .select(
      db
        .select({
          id: sql<number>`null`.as("id"),
          kind: value("kind", values.kind),
          status: value("status", values.status),
          amount: value("amount", values.amount),
          currency: value("currency", values.currency),
          userId: value("user_id", values.userId),
          expertId: value("expert_id", values.expertId),
          questionId: value("question_id", values.questionId),
          bookingId: value("booking_id", values.bookingId),
          stripePaymentIntentId: value("stripe_payment_intent_id", values.stripePaymentIntentId),
          stripeInvoiceId: value("stripe_invoice_id", values.stripeInvoiceId),
          stripeRefundId: sql<string | null>`null`.as("stripe_refund_id"),
          lastError: sql<string | null>`null`.as("last_error"),
          createdAt: value("created_at", now.getTime()),
          updatedAt: value("updated_at", now.getTime()),
          settledAt: value("settled_at", values.settledAt?.getTime() ?? null),
        })
        .from(sql`(select 1)`)
        .where(when),
    )
    .onConflictDoUpdate(onConflict);
}

/**
 * Records an outcome on an existing ledger line, only while it is in one of `from` (when given).
 * `lastError` set with an unchanged status is how a refused capture or cancel is kept for a retry.
 */
export function ledgerUpdateStatement(
  db: Database,
  ref: LedgerRef,
  change: {
    status?: PaymentStatus;
    lastError?: string | null;
    settledAt?: Date | null;
    stripeRefundId?: string | null;
    stripePaymentIntentId?: string | null;
  },
  { now, from }: { now: Date; from?: readonly PaymentStatus[] },
) {
  const set: Partial<typeof payments.$inferInsert> = { updatedAt: now };
  if (change.status !== undefined) set.status = change.status;
  if (change.lastError !== undefined) set.lastError = change.lastError?.slice(0, 1000) ?? null;
  if (change.settledAt !== undefined) set.settledAt = change.settledAt;
  if (change.stripeRefundId !== undefined) set.stripeRefundId = change.stripeRefundId;
  if (change.stripePaymentIntentId !== undefined) set.stripePaymentIntentId = change.stripePaymentIntentId;
  return db
    .update(payments)
    .set(set)
    .where(from ? and(refWhere(ref), inArray(payments.status, [...from])) : refWhere(ref));
}

/** The most one subscriber's daily questions earn their experts over any 30 days: the month's price. */
export const SUBSCRIPTION_CREDIT_PER_30_DAYS = SUBSCRIPTION_PRICE_CENTS;

/**
 * Captures a subscriber's answered question for its expert: the standard fee, or what is left of
 * the month's price once the subscriber's other answered questions within 29 days either side of
 * this one's day have been credited (so no 30 days of one subscriber's questions earn more than
 * the $20 a month they pay). Otherwise a month could owe $5 for each of up to 31 daily questions,
 * which an expert could farm by subscribing a second account and asking themselves. Counted by the
 * questions' days, not the subscription's invoices, so it holds whatever order Stripe's events come
 * in. One statement, so two answers at once cannot both spend the same dollars.
 */
export function subscriptionCreditStatement(
  db: Database,
  question: { id: number; userId: number | null; subscriptionDay: string | null },
  now: Date,
) {
  const day = question.subscriptionDay ?? now.toISOString().slice(0, 10);
  const credited = sql`(select coalesce(sum(paid.amount), 0) from ${payments} as paid
    join ${questions} as asked on asked.id = paid.question_id
    where paid.user_id = ${question.userId} and paid.kind = 'subscription_question' and paid.status = 'captured'
      and asked.subscription_day between ${addDays(day, -29)} and ${addDays(day, 29)})`;
  return db
    .update(payments)
    .set({
      status: "captured",
      settledAt: now,
      updatedAt: now,
      amount: sql`min(${payments.amount}, max(0, ${SUBSCRIPTION_CREDIT_PER_30_DAYS} - ${credited}))`,
    })
    .where(
      and(
        eq(payments.questionId, question.id),
        eq(payments.kind, "subscription_question"),
        eq(payments.status, "authorized"),
      ),
    );
}

/**
 * The ledger change that goes with closing a question nobody is charged for (declined or expired):
 * its pending line is cancelled. An authorised one is left alone here: the caller cancels it at
 * Stripe first, and the ledger follows Stripe's answer.
 */
export function unchargedQuestionLedgerStatements(
  db: Database,
  question: { id: number; paymentState: string | null },
  now: Date,
) {
  return question.paymentState === "authorized"
    ? []
    : [
        ledgerUpdateStatement(
          db,
          { questionId: question.id },
          { status: "cancelled" },
          { now, from: ["pending", "authorized"] },
        ),
      ];
}

export async function getLedgerLine(db: Database, ref: LedgerRef) {
  const [line] = await db.select().from(payments).where(refWhere(ref)).limit(1);
  return line ?? null;
}

/**
 * Ledger lines whose last call to Stripe was refused (a capture or cancel to retry), newest first:
 * what the admin area shows and the scheduled retries work through.
 */
export async function listPaymentsNeedingAttention(db: Database, { limit = 50 } = {}) {
  return db
    .select()
    .from(payments)
    .where(and(isNotNull(payments.lastError), inArray(payments.status, ["pending", "authorized"])))
    .orderBy(sql`${payments.updatedAt} desc`)
    .limit(limit);
}

/**
 * charge.refunded: money given back outside the app (the Stripe Dashboard, a refund by support). The
 * app's own refunds mark their line when they are made; this catches the others, so earnings never
 * count money the client has back. The line is the one its PaymentIntent paid; only a whole refund
 * moves it (the ledger keeps one amount per line), a partial one is logged for a person to settle.
 *
 * Whatever the line's state: Stripe does not order its events, so a refund can arrive before the
 * payment's own success (or before the app has recorded it), and a line marked refunded is never
 * captured or confirmed again. A released authorisation (an uncaptured charge) is a cancellation.
 */
export async function onChargeRefunded(db: Database, charge: Stripe.Charge, now: Date) {
  const intent = charge.payment_intent;
  const intentId = typeof intent === "string" ? intent : (intent?.id ?? null);
  if (!intentId) return { statements: [], note: "not a payment of ours" };
  if (!charge.refunded) {
    console.warn(
      JSON.stringify({
        level: "warn",
        message: "partial refund made outside the app; the ledger line keeps its amount",
        charge: charge.id,
        paymentIntent: intentId,
        amountRefunded: charge.amount_refunded,
      }),
    );
    return { statements: [], note: "partly refunded: ledger unchanged" };
  }
  const released = charge.captured === false;
  // A captured charge's line moves from a cancelled state too: a lapsed hold's payment that went
  // through after all, then refunded.
  const from: PaymentStatus[] = released
    ? ["pending", "authorized"]
    : ["pending", "authorized", "captured", "failed", "cancelled"];
  const ofThisPayment = and(eq(payments.stripePaymentIntentId, intentId), inArray(payments.status, from));
  // The event is "processed" only when it changes something: the app's own refunds and cancellations
  // have marked their line already, and a log that says otherwise hides a refund the app missed.
  const [line] = await db.select({ id: payments.id }).from(payments).where(ofThisPayment).limit(1);
  if (!line) return { statements: [], note: "ledger line already settled" };
  if (released) {
    return {
      statements: [db.update(payments).set({ status: "cancelled", updatedAt: now }).where(ofThisPayment)],
      note: "authorisation released at Stripe",
    };
  }
  return {
    statements: [
      db.update(payments).set({ status: "refunded", updatedAt: now }).where(ofThisPayment),
      // A hold paid for and refunded before it was confirmed frees its slot: the client may book
      // that time again (a refunded hold is not one that ran out).
      db
        .update(bookings)
        .set({ status: "expired", holdExpiresAt: null, refundedAt: now })
        .where(
          and(
            eq(bookings.paymentIntentId, intentId),
            inArray(bookings.status, ["awaiting_payment", "pending"]),
          ),
        ),
    ],
    note: "refunded at Stripe",
  };
}
