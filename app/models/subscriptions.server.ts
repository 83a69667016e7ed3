/**
 * Subscriptions (SPEC.md "Subscribe", sections 4, 5 and 9; DESIGN.md "Money and payments"): $20 a
 * month for one new question a day, billed by Stripe Billing.
 *
 * The state lives on the user's row (`subscription_*` columns) and follows Stripe:
 * - subscribing creates the Stripe customer (one per user) and a subscription `default_incomplete`
 *   whose first invoice the browser pays with the Payment Element; the row says `incomplete` until
 *   Stripe says the invoice is paid (the browser's return or the webhook, whichever comes first);
 * - webhooks (`invoice.paid`, `invoice.payment_failed`, `customer.subscription.updated`,
 *   `customer.subscription.deleted`) move the row, each event once (app/models/stripe-webhooks),
 *   in any order: every change is a conditional UPDATE that only applies an event newer than the
 *   last one applied (`subscription_event_at`), a deleted subscription never comes back, and events
 *   about any subscription but the user's current one change nothing;
 * - each paid (or failed) invoice is a line in the payments ledger (kind `subscription`), and each
 *   paid one sends the subscriber a receipt;
 * - starting (test mode), cancelling and resuming are confirmed in writing, as is the end and a
 *   failed renewal.
 * Test mode (no Stripe key) activates a 30-day subscription without Stripe; cancelling and resuming
 * then happen here alone.
 *
 * Asking with the subscription (one question per UTC day, a unique index) is the questions model's.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, eq, inArray, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { users } from "~/db/schema.server";
import { formatCents } from "~/lib/money";
import { formatUtcDate } from "~/lib/utc-dates";
import { notificationStatements, notify } from "~/models/notifications.server";
import { CURRENCY, ledgerUpsertStatement } from "~/models/payments.server";
import { getSubscriptionAllowance } from "~/models/questions.server";
import {
  SUBSCRIPTION_MESSAGES,
  SUBSCRIPTION_PRICE_CENTS,
  type SubscriptionStatus,
  TEST_MODE_SUBSCRIPTION_DAYS,
  UNPAID_RENEWAL_STATUSES,
} from "~/schemas/subscription";
import { getOptionalStripe, type Stripe, StripeApiError, type StripeClient } from "~/services/stripe.server";

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the subscription functions need from the request. */
export type SubscriptionDeps = {
  /** The primary database: payments and read-after-write. */
  db: Database;
  /** null in test mode. */
  stripe: StripeClient | null;
  /** The recurring $20/month price (STRIPE_SUBSCRIPTION_PRICE_ID); needed only with Stripe. */
  priceId: string | null;
  now: Date;
};

export function subscriptionDeps(
  context: Pick<AppLoadContext, "primaryDb" | "config" | "now">,
): SubscriptionDeps {
  return {
    db: context.primaryDb,
    stripe: getOptionalStripe(context),
    priceId: context.config.stripe.subscriptionPriceId ?? null,
    now: new Date(context.now()),
  };
}

export type SubscriptionState = {
  userId: number;
  email: string;
  name: string | null;
  username: string;
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
  status: SubscriptionStatus | null;
  endDate: Date | null;
  cancelAtPeriodEnd: boolean;
  eventAt: Date | null;
};

export async function getSubscriptionState(db: Database, userId: number): Promise<SubscriptionState | null> {
  const [row] = await db
    .select({
      userId: users.id,
      email: users.email,
      name: users.name,
      username: users.username,
      stripeCustomerId: users.stripeCustomerId,
      stripeSubscriptionId: users.stripeSubscriptionId,
      status: users.subscriptionStatus,
      endDate: users.subscriptionEndDate,
      cancelAtPeriodEnd: users.subscriptionCancelAtPeriodEnd,
      eventAt: users.subscriptionEventAt,
    })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .limit(1);
  return row ?? null;
}

/** Active means paid up to an end date still ahead: the subscriber asks without paying. */
export function isSubscriptionActive(
  state: Pick<SubscriptionState, "status" | "endDate"> | null,
  now: Date,
): boolean {
  return state?.status === "active" && state.endDate !== null && state.endDate.getTime() > now.getTime();
}

// ---------------------------------------------------------------------------------------------
// Subscribing

export type StartResult =
  | { status: "active"; endDate: Date }
  | { status: "requires_payment"; subscriptionId: string; clientSecret: string }
  | { status: "refused"; httpStatus: 404 | 409 | 502; message: string };

const refusedInit = (): StartResult => ({
  status: "refused",
  httpStatus: 502,
  message: SUBSCRIPTION_MESSAGES.initFailed,
});

function logError(message: string, details: Record<string, unknown>) {
  console.error(JSON.stringify({ level: "error", message, ...details }));
}

/**
 * Starts the user's subscription. Refused while one is active. Test mode activates it at once for 30
 * days; otherwise the Stripe customer (one per user) and a `default_incomplete` subscription are
 * created and the first invoice's client secret is returned for the browser to confirm. An unpaid
 * (incomplete) subscription is reused, so trying again after a declined card never makes a second.
 */
export async function startSubscription(deps: SubscriptionDeps, userId: number): Promise<StartResult> {
  const { db, now } = deps;
  const state = await getSubscriptionState(db, userId);
  if (!state) return { status: "refused", httpStatus: 404, message: SUBSCRIPTION_MESSAGES.generic };
  if (isSubscriptionActive(state, now)) {
    return { status: "refused", httpStatus: 409, message: SUBSCRIPTION_MESSAGES.alreadyActive };
  }

  if (!deps.stripe) {
    const endDate = new Date(now.getTime() + TEST_MODE_SUBSCRIPTION_DAYS * DAY_MS);
    // Conditional on "not active now", so two at once activate one subscription.
    const activated = await db
      .update(users)
      .set({
        subscriptionStatus: "active",
        subscriptionEndDate: endDate,
        subscriptionCancelAtPeriodEnd: false,
        stripeSubscriptionId: null,
        subscriptionEventAt: now,
      })
      .where(and(eq(users.id, userId), notActiveAt(now)))
      .returning({ id: users.id });
    if (activated.length === 0) {
      return { status: "refused", httpStatus: 409, message: SUBSCRIPTION_MESSAGES.alreadyActive };
    }
    await notify(db, {
      userId,
      kind: "subscription",
      title: "Your subscription is active",
      body: `Your monthly subscription runs until ${formatUtcDate(endDate)}: one new question a day, with nothing more to pay.`,
      link: "/dashboard",
      dedupeKey: `subscription_started:${userId}:${now.getTime()}`,
    });
    return { status: "active", endDate };
  }

  if (!deps.priceId) {
    logError("subscription price not configured", { userId, missing: "STRIPE_SUBSCRIPTION_PRICE_ID" });
    return refusedInit();
  }
  const stripe = deps.stripe;

  let customerId: string;
  try {
    customerId = await ensureCustomer(stripe, db, state, now);
  } catch (error) {
    logError("create customer failed", { userId, error: String(error) });
    return refusedInit();
  }

  try {
    // The previous subscription is asked about at Stripe, never assumed over from our row: a renewal
    // whose webhook is late leaves the row `lapsed` while Stripe still bills it.
    if (state.stripeSubscriptionId && state.status !== "canceled") {
      const existing = await retrieveAtStripe(stripe, state.stripeSubscriptionId);
      const existingStatus = existing ? statusFromStripe(existing.status) : "canceled";
      // An unpaid subscription is paid for again, never duplicated.
      const secret = existing ? invoiceSecret(existing) : null;
      if (existing && existingStatus === "incomplete" && secret) {
        return { status: "requires_payment", subscriptionId: existing.id, clientSecret: secret };
      }
      // Paid after all (the return and the webhooks were missed or are late): that is the subscription.
      if (existing && existingStatus === "active") {
        const statements = subscriptionStateStatements(db, {
          userId,
          subscription: existing,
          at: now,
          movesEventClock: false,
        });
        if (statements.length > 0) await db.batch(statements as [(typeof statements)[0]]);
        return { status: "refused", httpStatus: 409, message: SUBSCRIPTION_MESSAGES.alreadyActive };
      }
      // One whose renewal failed is replaced, not doubled: it ends at Stripe first.
      if (existingStatus !== "canceled") await cancelAtStripe(stripe, state.stripeSubscriptionId);
    }

    const priceId = deps.priceId;
    // The key is the user's and the subscription this one follows: two requests at once (or a retry
    // after a lost response) get the same subscription back; the next one, after this one ended,
    // follows a different previous one and so gets a new key.
    const subscription = await withIdempotencyKey(
      `subscription-user-${userId}-create-after-${state.stripeSubscriptionId ?? "none"}`,
      now,
      (idempotencyKey) =>
        stripe.subscriptions.create(
          {
            customer: customerId,
            items: [{ price: priceId }],
            payment_behavior: "default_incomplete",
            payment_settings: { save_default_payment_method: "on_subscription" },
            expand: ["latest_invoice.confirmation_secret"],
            metadata: { kind: "subscription", userId: String(userId) },
          },
          { idempotencyKey },
        ),
    );
    const invoice = latestInvoice(subscription);
    const secret = invoiceSecret(subscription);
    if (!invoice || !secret) throw new Error(`subscription ${subscription.id} has no invoice to pay`);
    if (invoice.amount_due !== SUBSCRIPTION_PRICE_CENTS || invoice.currency !== CURRENCY) {
      // The configured price is not $20/month: never charge what the screen did not say.
      logError("subscription price mismatch", {
        userId,
        subscription: subscription.id,
        amountDue: invoice.amount_due,
        currency: invoice.currency,
      });
      await cancelAtStripe(stripe, subscription.id);
      return refusedInit();
    }
    await db
      .update(users)
      .set({
        stripeSubscriptionId: subscription.id,
        subscriptionStatus: "incomplete",
        subscriptionEndDate: null,
        subscriptionCancelAtPeriodEnd: false,
        subscriptionEventAt: null,
      })
      .where(
        and(
          eq(users.id, userId),
          // A replayed creation of the subscription we already hold changes nothing.
          sql`${users.stripeSubscriptionId} is not ${subscription.id}`,
        ),
      );
    return { status: "requires_payment", subscriptionId: subscription.id, clientSecret: secret };
  } catch (error) {
    logError("create subscription failed", { userId, error: String(error) });
    return refusedInit();
  }
}

/**
 * Calls Stripe with the idempotency key `key`. Stripe saves a server error (5xx) under its key and
 * replays it for 24 hours, so after one the call is made once more with a fresh key: a later attempt
 * is never stuck on an old failure, while a network retry inside one call still reuses its key.
 */
async function withIdempotencyKey<T>(key: string, now: Date, call: (key: string) => Promise<T>): Promise<T> {
  try {
    return await call(key);
  } catch (error) {
    if (!(error instanceof StripeApiError) || (error.statusCode ?? 0) < 500) throw error;
    return call(`${key}-retry-${now.getTime()}`);
  }
}

/** The user's Stripe customer: created once (the idempotency key is the user's), then stored. */
async function ensureCustomer(
  stripe: StripeClient,
  db: Database,
  state: SubscriptionState,
  now: Date,
): Promise<string> {
  if (state.stripeCustomerId) return state.stripeCustomerId;
  const customer = await withIdempotencyKey(`customer-user-${state.userId}-create`, now, (idempotencyKey) =>
    stripe.customers.create(
      {
        email: state.email,
        name: state.name ?? state.username,
        metadata: { userId: String(state.userId) },
      },
      { idempotencyKey },
    ),
  );
  await db
    .update(users)
    .set({ stripeCustomerId: customer.id })
    .where(and(eq(users.id, state.userId), isNull(users.stripeCustomerId)));
  return customer.id;
}

/** Ends a subscription at Stripe now; one that is already gone counts as ended. */
const isMissingAtStripe = (error: unknown) =>
  error instanceof StripeApiError && (error.statusCode === 404 || error.code === "resource_missing");

/** The subscription as Stripe has it, with its latest invoice's secret; null when Stripe has none. */
async function retrieveAtStripe(stripe: StripeClient, subscriptionId: string) {
  try {
    return await stripe.subscriptions.retrieve(subscriptionId, {
      expand: ["latest_invoice.confirmation_secret"],
    });
  } catch (error) {
    if (isMissingAtStripe(error)) {
      return null;
    }
    throw error;
  }
}

async function cancelAtStripe(stripe: StripeClient, subscriptionId: string) {
  try {
    await stripe.subscriptions.cancel(subscriptionId);
  } catch (error) {
    if (isMissingAtStripe(error)) {
      return;
    }
    throw error;
  }
}

function latestInvoice(subscription: Stripe.Subscription): Stripe.Invoice | null {
  const invoice = subscription.latest_invoice;
  return invoice && typeof invoice === "object" ? invoice : null;
}

function invoiceSecret(subscription: Stripe.Subscription): string | null {
  return latestInvoice(subscription)?.confirmation_secret?.client_secret ?? null;
}

/** Not active at `now`: no status, another status, or an active one whose end has passed. */
const notActiveAt = (now: Date) =>
  or(
    isNull(users.subscriptionStatus),
    sql`${users.subscriptionStatus} <> 'active'`,
    isNull(users.subscriptionEndDate),
    lte(users.subscriptionEndDate, now),
  );

export type SyncResult = { ok: true; active: boolean } | { ok: false; message: string };

/**
 * The browser's return after paying the first invoice: reads the subscription from Stripe (the
 * webhook may not have arrived yet) and applies it, with its paid invoice in the ledger.
 */
export async function syncSubscriptionFromStripe(
  deps: SubscriptionDeps,
  userId: number,
): Promise<SyncResult> {
  const { db, now } = deps;
  const state = await getSubscriptionState(db, userId);
  if (!state) return { ok: false, message: SUBSCRIPTION_MESSAGES.generic };
  if (!deps.stripe || !state.stripeSubscriptionId || !state.stripeCustomerId) {
    return { ok: true, active: isSubscriptionActive(state, now) };
  }
  let subscription: Stripe.Subscription;
  try {
    subscription = await deps.stripe.subscriptions.retrieve(state.stripeSubscriptionId, {
      expand: ["latest_invoice"],
    });
  } catch (error) {
    logError("retrieve subscription failed", { userId, error: String(error) });
    return { ok: false, message: SUBSCRIPTION_MESSAGES.provider };
  }
  if (idOf(subscription.customer) !== state.stripeCustomerId) {
    logError("subscription customer mismatch", { userId, subscription: subscription.id });
    return { ok: false, message: SUBSCRIPTION_MESSAGES.generic };
  }
  const invoice = latestInvoice(subscription);
  const statements = [
    ...subscriptionStateStatements(db, { userId, subscription, at: now, movesEventClock: false }),
    ...(invoice?.status === "paid" ? paidInvoiceStatements(db, userId, invoice, now) : []),
  ];
  if (statements.length > 0) await db.batch(statements as [(typeof statements)[0]]);
  const after = await getSubscriptionState(db, userId);
  return { ok: true, active: isSubscriptionActive(after, now) };
}

// ---------------------------------------------------------------------------------------------
// Cancelling and resuming (at the end of the period), and ending a subscription whose renewal failed

export type ChangeResult =
  | { ok: true; endDate: Date; endedNow: boolean }
  | { ok: false; httpStatus: 409 | 502; message: string };

/**
 * Cancels at the end of the paid period (Stripe's `cancel_at_period_end`): the subscriber keeps
 * their daily question until then, and may resume before that date. A subscription whose renewal
 * failed has no paid period left: it ends now, so Stripe stops retrying the card.
 */
export async function cancelSubscription(deps: SubscriptionDeps, userId: number): Promise<ChangeResult> {
  const state = await getSubscriptionState(deps.db, userId);
  if (state?.status && UNPAID_RENEWAL_STATUSES.includes(state.status))
    return endUnpaidSubscription(deps, state);
  return setCancelAtPeriodEnd(deps, state, true);
}

export async function resumeSubscription(deps: SubscriptionDeps, userId: number): Promise<ChangeResult> {
  return setCancelAtPeriodEnd(deps, await getSubscriptionState(deps.db, userId), false);
}

/**
 * Ends a past-due (or unpaid) subscription at once. Cancelling stops Stripe's automatic collection of
 * its open invoice, so the refused renewal is never charged. If the card's retry went through after
 * all (its webhook not here yet), the subscription is paid and active: it is cancelled at the end of
 * that period instead, like any other.
 */
async function endUnpaidSubscription(
  deps: SubscriptionDeps,
  state: SubscriptionState,
): Promise<ChangeResult> {
  const { db, now, stripe } = deps;
  const { userId, stripeSubscriptionId: subscriptionId } = state;
  if (stripe && subscriptionId) {
    try {
      const current = await retrieveAtStripe(stripe, subscriptionId);
      if (current && statusFromStripe(current.status) === "active") {
        const statements = subscriptionStateStatements(db, {
          userId,
          subscription: current,
          at: now,
          movesEventClock: false,
        });
        if (statements.length > 0) await db.batch(statements as [(typeof statements)[0]]);
        return setCancelAtPeriodEnd(deps, await getSubscriptionState(db, userId), true);
      }
      await cancelAtStripe(stripe, subscriptionId);
    } catch (error) {
      logError("end unpaid subscription failed", { userId, error: String(error) });
      return { ok: false, httpStatus: 502, message: SUBSCRIPTION_MESSAGES.provider };
    }
  }
  await db.batch([
    endedNowStatement(
      db,
      { userId, subscriptionId, now },
      inArray(users.subscriptionStatus, UNPAID_RENEWAL_STATUSES),
    ),
    // The same notice (and key) as Stripe's deletion event, which then finds the row ended and is quiet.
    ...notificationStatements(
      db,
      {
        userId,
        kind: "subscription",
        title: "Your subscription has ended",
        body: "You cancelled your monthly subscription after its last payment failed. That payment will not be taken; questions are paid one at a time until you subscribe again.",
        link: "/subscribe",
        dedupeKey: `subscription_ended:${subscriptionId ?? `user-${userId}-${now.getTime()}`}`,
      },
      { when: and(eq(users.subscriptionStatus, "canceled"), eq(users.subscriptionEndDate, now)) },
    ),
  ]);
  return { ok: true, endDate: now, endedNow: true };
}

async function setCancelAtPeriodEnd(
  deps: SubscriptionDeps,
  state: SubscriptionState | null,
  cancel: boolean,
): Promise<ChangeResult> {
  const { db, now } = deps;
  if (!state || !isSubscriptionActive(state, now)) {
    return { ok: false, httpStatus: 409, message: SUBSCRIPTION_MESSAGES.notActive };
  }
  const { userId } = state;
  if (state.cancelAtPeriodEnd === cancel) {
    return {
      ok: false,
      httpStatus: 409,
      message: cancel ? SUBSCRIPTION_MESSAGES.alreadyCanceling : SUBSCRIPTION_MESSAGES.notCanceling,
    };
  }
  // Test mode (and a subscription made in test mode): the row is the whole subscription.
  if (!deps.stripe || !state.stripeSubscriptionId) {
    await db.batch([
      db
        .update(users)
        .set({ subscriptionCancelAtPeriodEnd: cancel, subscriptionEventAt: now })
        .where(and(eq(users.id, userId), eq(users.subscriptionStatus, "active"))),
      ...cancelChangeNoticeStatements(db, { state, cancel, endDate: state.endDate!, now }),
    ]);
    return { ok: true, endDate: state.endDate!, endedNow: false };
  }
  let subscription: Stripe.Subscription;
  try {
    // Setting a flag is idempotent by nature; the library keys its own retries.
    subscription = await deps.stripe.subscriptions.update(state.stripeSubscriptionId, {
      cancel_at_period_end: cancel,
    });
  } catch (error) {
    logError("update subscription failed", { userId, cancel, error: String(error) });
    return { ok: false, httpStatus: 502, message: SUBSCRIPTION_MESSAGES.provider };
  }
  const endDate = periodEndOf(subscription) ?? state.endDate!;
  const statements = [
    ...subscriptionStateStatements(db, { userId, subscription, at: now, movesEventClock: true }),
    ...cancelChangeNoticeStatements(db, { state, cancel, endDate, now }),
  ];
  await db.batch(statements as [(typeof statements)[0]]);
  const after = await getSubscriptionState(db, userId);
  return { ok: true, endDate: after?.endDate ?? state.endDate!, endedNow: false };
}

/**
 * Confirms a cancellation or a resumption in writing. Written only when the row now says what was
 * asked (the same batch), so a change that lost to a newer one tells nobody. Keyed by the state the
 * change was made from: two requests at once from the same state tell once.
 */
function cancelChangeNoticeStatements(
  db: Database,
  input: { state: SubscriptionState; cancel: boolean; endDate: Date; now: Date },
) {
  const { state, cancel, endDate, now } = input;
  const userId = state.userId;
  const date = formatUtcDate(endDate);
  return notificationStatements(
    db,
    {
      userId,
      kind: "subscription",
      ...(cancel
        ? {
            title: "Your subscription will end",
            body: `You cancelled your monthly subscription. You keep your daily question until ${date}; you can resume the subscription from your dashboard before then.`,
          }
        : {
            title: "Your subscription will renew",
            body: `You resumed your monthly subscription. It renews on ${date} for ${formatCents(SUBSCRIPTION_PRICE_CENTS)}.`,
          }),
      link: "/dashboard",
      dedupeKey: `subscription_${cancel ? "cancelled" : "resumed"}:${userId}:${state.eventAt?.getTime() ?? 0}`,
    },
    {
      when: and(
        eq(users.subscriptionStatus, "active"),
        eq(users.subscriptionCancelAtPeriodEnd, cancel),
        eq(users.subscriptionEventAt, now),
      ),
    },
  );
}

/**
 * Deleting an account ends its Stripe subscription at once, so a deleted person is never billed
 * again. Not ok (and the caller keeps the account) when Stripe cannot be reached.
 */
export async function endSubscriptionOfDeletedAccount(
  deps: SubscriptionDeps,
  userId: number,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const { db, now } = deps;
  const state = await getSubscriptionState(db, userId);
  if (!state?.status || state.status === "canceled") return { ok: true };
  const subscriptionId = state.stripeSubscriptionId;
  if (deps.stripe && subscriptionId) {
    try {
      await cancelAtStripe(deps.stripe, subscriptionId);
    } catch (error) {
      logError("cancel subscription of deleted account failed", { userId, error: String(error) });
      return { ok: false, message: SUBSCRIPTION_MESSAGES.provider };
    }
  }
  // Ended here too when there is nothing at Stripe to end (test mode): a deleted account holds no plan.
  await endedNowStatement(db, { userId, subscriptionId, now });
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------
// The scheduled task (issue 9's cron calls this)

/**
 * Lapses subscriptions whose paid period has ended without Stripe telling us of a renewal (and test
 * mode ones, which never renew): `active` or `past_due` with an end date at or before `now` become
 * `lapsed`. Idempotent: a second run finds nothing. A later Stripe event still applies (renewal
 * webhooks are newer than the last event applied), so a late renewal brings the subscription back.
 * A test-mode subscriber is told here, in the same batch; a Stripe subscriber is told by Stripe's
 * deletion event, since a renewal that comes late may still bring theirs back.
 * Returns the ids of the users whose subscription lapsed.
 */
export async function lapseEndedSubscriptions(db: Database, now: Date): Promise<number[]> {
  const ended = and(
    inArray(users.subscriptionStatus, ["active", "past_due"]),
    lte(users.subscriptionEndDate, now),
    isNull(users.deletedAt),
  );
  const lapsedIds: number[] = [];
  // In rounds, each under D1's 100 bound parameters per query; what a run leaves, the next one takes.
  for (let round = 0; round < LAPSE_ROUNDS; round++) {
    const due = await db
      .select({
        id: users.id,
        subscriptionId: users.stripeSubscriptionId,
        endDate: users.subscriptionEndDate,
      })
      .from(users)
      .where(ended)
      .limit(LAPSE_ROUND_SIZE);
    if (due.length === 0) break;
    const [lapsed] = await db.batch([
      db
        .update(users)
        .set({ subscriptionStatus: "lapsed", subscriptionCancelAtPeriodEnd: false })
        .where(
          and(
            inArray(
              users.id,
              due.map((row) => row.id),
            ),
            ended,
          ),
        )
        .returning({ id: users.id }),
      ...due
        .filter((row) => row.subscriptionId === null)
        .flatMap((row) =>
          notificationStatements(
            db,
            {
              userId: row.id,
              kind: "subscription",
              title: "Your subscription has ended",
              body: ENDED_NOTICE_BODY,
              link: "/subscribe",
              dedupeKey: `subscription_ended:user-${row.id}-${row.endDate?.getTime()}`,
            },
            {
              when: sql`exists (select 1 from ${users} where ${users.id} = ${row.id} and ${users.subscriptionStatus} = 'lapsed' and ${users.stripeSubscriptionId} is null)`,
            },
          ),
        ),
    ]);
    lapsedIds.push(...lapsed.map((row) => row.id));
    if (due.length < LAPSE_ROUND_SIZE) break;
  }
  return lapsedIds;
}

const LAPSE_ROUND_SIZE = 50;
const LAPSE_ROUNDS = 20;

const ENDED_NOTICE_BODY =
  "Your monthly subscription has ended. Questions are now paid one at a time; you can subscribe again at any time.";

// ---------------------------------------------------------------------------------------------
// Reading, for the dashboard

export type SubscriptionOverview = {
  status: SubscriptionStatus;
  active: boolean;
  /** Renewal date (active, renewing), end date (cancelling or ended), or null (never paid). */
  endDate: number | null;
  cancelAtPeriodEnd: boolean;
  priceCents: number;
  questionsLeftToday: number;
  /** When the next included question is available (now, or midnight UTC tomorrow). */
  nextQuestionAt: number | null;
};

/** The dashboard's subscription panel, or null for someone who never subscribed. */
export async function getSubscriptionOverview(
  db: Database,
  userId: number,
  now: Date,
): Promise<SubscriptionOverview | null> {
  const state = await getSubscriptionState(db, userId);
  if (!state?.status) return null;
  const active = isSubscriptionActive(state, now);
  const allowance = active ? await getSubscriptionAllowance(db, userId, now) : null;
  return {
    // An active row past its end date (before the cron lapses it) has ended.
    status: state.status === "active" && !active ? "lapsed" : state.status,
    active,
    endDate: state.endDate?.getTime() ?? null,
    cancelAtPeriodEnd: active && state.cancelAtPeriodEnd,
    priceCents: SUBSCRIPTION_PRICE_CENTS,
    questionsLeftToday: allowance?.questionsLeftToday ?? 0,
    nextQuestionAt: allowance?.nextQuestionAt.getTime() ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Stripe's view of a subscription, applied to the user's row

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === "string" ? value : value.id;

/** Stripe's statuses in ours; null for one we do not know (the event then changes nothing). */
export function statusFromStripe(status: string): SubscriptionStatus | null {
  switch (status) {
    case "active":
    case "trialing":
      return "active";
    case "past_due":
      return "past_due";
    case "unpaid":
    case "paused":
      return "unpaid";
    case "canceled":
    case "incomplete_expired":
      return "canceled";
    case "incomplete":
      return "incomplete";
    default:
      return null;
  }
}

/**
 * The end of the paid period. Since API version 2025-03-31 it is on the subscription's items; an
 * endpoint pinned to an older version still sends the subscription's own `current_period_end`.
 */
export function periodEndOf(subscription: Stripe.Subscription): Date | null {
  const ends = (subscription.items?.data ?? [])
    .map((item) => item.current_period_end)
    .filter((end): end is number => typeof end === "number");
  const legacy = (subscription as unknown as { current_period_end?: number }).current_period_end;
  if (ends.length === 0 && typeof legacy === "number") ends.push(legacy);
  return ends.length > 0 ? new Date(Math.max(...ends) * 1000) : null;
}

/** The subscription an invoice bills (API 2025-03-31+: `parent.subscription_details`; before: `subscription`). */
export function invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
  const fromParent = idOf(invoice.parent?.subscription_details?.subscription ?? null);
  if (fromParent) return fromParent;
  return idOf((invoice as unknown as { subscription?: string | { id: string } | null }).subscription ?? null);
}

/** The end of the period an invoice pays for: its subscription line's period. */
export function invoicePeriodEnd(invoice: Stripe.Invoice): Date | null {
  const ends = (invoice.lines?.data ?? [])
    .map((line) => line.period?.end)
    .filter((end): end is number => typeof end === "number");
  return ends.length > 0 ? new Date(Math.max(...ends) * 1000) : null;
}

/**
 * Only the user's current subscription moves the row; a deleted one is final; an event older than
 * the last one applied is ignored. `final` (a deletion) applies whatever its time: nothing can follow it.
 */
function applicable(userId: number, subscriptionId: string, at: Date, { final = false } = {}) {
  return and(
    eq(users.id, userId),
    eq(users.stripeSubscriptionId, subscriptionId),
    final
      ? undefined
      : and(
          sql`coalesce(${users.subscriptionStatus}, '') <> 'canceled'`,
          or(isNull(users.subscriptionEventAt), lte(users.subscriptionEventAt, at)),
        ),
  );
}

/**
 * Ends the user's subscription (`subscriptionId`, or the one made without Stripe) at `now`, when the
 * row still holds that subscription and, if given, `onlyWhile` holds.
 */
function endedNowStatement(
  db: Database,
  { userId, subscriptionId, now }: { userId: number; subscriptionId: string | null; now: Date },
  onlyWhile?: SQL,
) {
  return db
    .update(users)
    .set({
      subscriptionStatus: "canceled",
      subscriptionEndDate: now,
      subscriptionCancelAtPeriodEnd: false,
      subscriptionEventAt: laterEventAt(now),
    })
    .where(
      and(
        eq(users.id, userId),
        subscriptionId ? eq(users.stripeSubscriptionId, subscriptionId) : isNull(users.stripeSubscriptionId),
        onlyWhile,
      ),
    );
}

const laterEventAt = (at: Date) => sql`max(coalesce(${users.subscriptionEventAt}, 0), ${at.getTime()})`;

/**
 * The statements that make the user's row say what `subscription` says (as of `at`).
 *
 * `movesEventClock` is true for Stripe's events and for a change the user made here (its written
 * confirmation keys on the stamp), false for a read of Stripe's state (the return page): a read
 * applies unless a newer event has, but leaves the events' clock alone. That clock is Stripe's
 * `created`, in whole seconds and on Stripe's clock; stamped with our milliseconds, a read that still
 * saw the first invoice unpaid made the activation events of that same second stale, and the paid
 * subscription stayed incomplete.
 */
function subscriptionStateStatements(
  db: Database,
  input: { userId: number; subscription: Stripe.Subscription; at: Date; movesEventClock: boolean },
) {
  const { userId, subscription, at, movesEventClock } = input;
  const status = statusFromStripe(subscription.status);
  if (!status) return [];
  const final = status === "canceled";
  const endedAt = subscription.ended_at ?? subscription.canceled_at;
  // An ended subscription ended when Stripe says, else when we heard (never its unpaid period's end).
  const endDate = final ? (endedAt ? new Date(endedAt * 1000) : at) : periodEndOf(subscription);
  return [
    db
      .update(users)
      .set({
        subscriptionStatus: status,
        ...(endDate ? { subscriptionEndDate: endDate } : {}),
        subscriptionCancelAtPeriodEnd:
          !final && (subscription.cancel_at_period_end || subscription.cancel_at != null),
        ...(movesEventClock ? { subscriptionEventAt: laterEventAt(at) } : {}),
      })
      .where(
        and(
          applicable(userId, subscription.id, at, { final }),
          // Stripe never takes a paid subscription back to incomplete: such an event is older news.
          status === "incomplete"
            ? or(isNull(users.subscriptionStatus), eq(users.subscriptionStatus, "incomplete"))
            : undefined,
        ),
      )
      .returning({ id: users.id }),
  ];
}

/**
 * A paid invoice's ledger line and its receipt. The invoice keys the receipt, so the browser's return
 * and the webhook (whichever comes first, or both) send it once.
 */
function paidInvoiceStatements(db: Database, userId: number, invoice: Stripe.Invoice, now: Date) {
  const paidUntil = invoicePeriodEnd(invoice);
  return [
    paidInvoiceLedgerStatement(db, userId, invoice, now),
    ...(invoice.amount_paid > 0
      ? notificationStatements(db, {
          userId,
          kind: "subscription",
          title: "Subscription payment received",
          body: `We received ${formatCents(invoice.amount_paid)} for your monthly subscription.${
            paidUntil ? ` It is paid until ${formatUtcDate(paidUntil)}.` : ""
          }`,
          link: "/dashboard",
          dedupeKey: `subscription_paid:${invoice.id}`,
        })
      : []),
  ];
}

function paidInvoiceLedgerStatement(db: Database, userId: number, invoice: Stripe.Invoice, now: Date) {
  const paidAt = invoice.status_transitions?.paid_at;
  return ledgerUpsertStatement(
    db,
    {
      kind: "subscription",
      ref: { stripeInvoiceId: invoice.id },
      amount: invoice.amount_paid,
      status: "captured",
      userId,
      expertId: null,
      settledAt: paidAt ? new Date(paidAt * 1000) : now,
    },
    // A paid invoice stays paid: a late failure event never rolls it back.
    { now, replaceFrom: ["pending", "failed"] },
  );
}

// ---------------------------------------------------------------------------------------------
// Webhooks: the handlers app/models/stripe-webhooks.server.ts dispatches subscription events to

type WebhookOutcome = { statements: unknown[]; note: string };

async function userForCustomer(db: Database, customer: string | { id: string } | null | undefined) {
  const customerId = idOf(customer ?? null);
  if (!customerId) return null;
  const [row] = await db
    .select({
      id: users.id,
      stripeSubscriptionId: users.stripeSubscriptionId,
      status: users.subscriptionStatus,
      eventAt: users.subscriptionEventAt,
    })
    .from(users)
    .where(eq(users.stripeCustomerId, customerId))
    .limit(1);
  return row ?? null;
}

function unknownCustomer(event: Stripe.Event, customer: unknown): WebhookOutcome {
  console.warn(
    JSON.stringify({
      level: "warn",
      message: "subscription event for an unknown customer",
      event: event.id,
      type: event.type,
      customer: idOf((customer as string | { id: string } | null) ?? null),
    }),
  );
  return { statements: [], note: "unknown customer" };
}

const eventTime = (event: Stripe.Event) => new Date(event.created * 1000);

/** Whether an event at `at` would apply to the row as read (the UPDATE decides again, atomically). */
const wouldApply = (
  user: { stripeSubscriptionId: string | null; status: string | null; eventAt: Date | null },
  subscriptionId: string | null,
  at: Date,
) =>
  subscriptionId !== null &&
  user.stripeSubscriptionId === subscriptionId &&
  user.status !== "canceled" &&
  (user.eventAt === null || user.eventAt.getTime() <= at.getTime());

/** customer.subscription.updated: status, period end and cancel-at-period-end, as Stripe has them. */
export async function onSubscriptionUpdated(
  db: Database,
  subscription: Stripe.Subscription,
  _now: Date,
  event: Stripe.Event,
): Promise<WebhookOutcome> {
  const user = await userForCustomer(db, subscription.customer);
  if (!user) return unknownCustomer(event, subscription.customer);
  if (user.stripeSubscriptionId !== subscription.id)
    return { statements: [], note: "not the current subscription" };
  const statements = subscriptionStateStatements(db, {
    userId: user.id,
    subscription,
    at: eventTime(event),
    movesEventClock: true,
  });
  return {
    statements,
    note: statements.length > 0 ? `subscription ${subscription.status}` : "unknown status",
  };
}

/** customer.subscription.deleted: the subscription has ended (at period end, or after failed payments). */
export async function onSubscriptionDeleted(
  db: Database,
  subscription: Stripe.Subscription,
  _now: Date,
  event: Stripe.Event,
): Promise<WebhookOutcome> {
  const user = await userForCustomer(db, subscription.customer);
  if (!user) return unknownCustomer(event, subscription.customer);
  if (user.stripeSubscriptionId !== subscription.id)
    return { statements: [], note: "not the current subscription" };
  const ended = { ...subscription, status: "canceled" } as Stripe.Subscription;
  if (!ended.ended_at && !ended.canceled_at) ended.ended_at = event.created;
  // Lapsed too: the scheduled task may have ended it first, and it tells only test-mode subscribers.
  const notify = ["active", "past_due", "unpaid", "lapsed"].includes(user.status ?? "");
  return {
    statements: [
      ...subscriptionStateStatements(db, {
        userId: user.id,
        subscription: ended,
        at: eventTime(event),
        movesEventClock: true,
      }),
      ...(notify
        ? notificationStatements(db, {
            userId: user.id,
            kind: "subscription",
            title: "Your subscription has ended",
            body: ENDED_NOTICE_BODY,
            link: "/subscribe",
            dedupeKey: `subscription_ended:${subscription.id}`,
          })
        : []),
    ],
    note: "subscription ended",
  };
}

/** invoice.paid: the ledger line, and the subscription active up to the paid period's end. */
export async function onInvoicePaid(
  db: Database,
  invoice: Stripe.Invoice,
  now: Date,
  event: Stripe.Event,
): Promise<WebhookOutcome> {
  const subscriptionId = invoiceSubscriptionId(invoice);
  if (!subscriptionId) return { statements: [], note: "not a subscription invoice" };
  const user = await userForCustomer(db, invoice.customer);
  if (!user) return unknownCustomer(event, invoice.customer);
  const at = eventTime(event);
  const periodEnd = invoicePeriodEnd(invoice);
  const statements: unknown[] = [...paidInvoiceStatements(db, user.id, invoice, now)];
  if (periodEnd) {
    statements.push(
      db
        .update(users)
        .set({
          subscriptionStatus: "active",
          subscriptionEndDate: sql`max(coalesce(${users.subscriptionEndDate}, 0), ${periodEnd.getTime()})`,
          subscriptionEventAt: laterEventAt(at),
        })
        .where(applicable(user.id, subscriptionId, at)),
    );
  }
  return { statements, note: "invoice paid" };
}

/** invoice.payment_failed: a renewal the card refused: no free questions until it is paid. */
export async function onInvoicePaymentFailed(
  db: Database,
  invoice: Stripe.Invoice,
  now: Date,
  event: Stripe.Event,
): Promise<WebhookOutcome> {
  const subscriptionId = invoiceSubscriptionId(invoice);
  if (!subscriptionId) return { statements: [], note: "not a subscription invoice" };
  const user = await userForCustomer(db, invoice.customer);
  if (!user) return unknownCustomer(event, invoice.customer);
  const at = eventTime(event);
  // The first invoice failing leaves the subscription incomplete (the browser shows the card error).
  const wasActive = user.status === "active" || user.status === "past_due" || user.status === "lapsed";
  const applies = wasActive && wouldApply(user, subscriptionId, at);
  return {
    statements: [
      ledgerUpsertStatement(
        db,
        {
          kind: "subscription",
          ref: { stripeInvoiceId: invoice.id },
          amount: invoice.amount_due,
          status: "failed",
          userId: user.id,
          expertId: null,
        },
        { now, replaceFrom: ["pending", "failed"] },
      ),
      db
        .update(users)
        .set({ subscriptionStatus: "past_due", subscriptionEventAt: laterEventAt(at) })
        .where(
          and(
            applicable(user.id, subscriptionId, at),
            inArray(users.subscriptionStatus, ["active", "past_due", "lapsed"]),
          ),
        ),
      ...(applies
        ? notificationStatements(db, {
            userId: user.id,
            kind: "subscription",
            title: "Your subscription payment failed",
            body: "We couldn't charge your card for this month's subscription. Until it is paid, questions are paid one at a time.",
            link: "/dashboard",
            dedupeKey: `subscription_payment_failed:${invoice.id}`,
          })
        : []),
    ],
    note: "invoice payment failed",
  };
}
