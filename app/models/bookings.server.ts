/**
 * Booked sessions (SPEC.md "Book a session", "Expert portal" Bookings and Availability; DESIGN.md
 * "Bookings and time" and "Money and payments").
 *
 * - The expert's weekly schedule lives in `availability` (their own zone, app/lib/slots.ts reads it);
 *   free slots are the schedule's hours minus the live bookings (a hold past its expiry is free)
 *   minus the past.
 * - Booking writes the row first: `awaiting_payment`, holding the slot for 15 minutes. The partial
 *   unique index `bookings_live_slot_unique` (expert, start) on live statuses decides every race:
 *   of two clients asking for one slot at once, exactly one insert succeeds.
 * - Then a PaymentIntent (automatic capture: sessions are charged when booked) for the expert's
 *   session price. The booking turns `confirmed` when the server sees the PaymentIntent succeed, by
 *   the browser's return or the webhook, whichever comes first. `pending` means the payment is still
 *   processing (a bank debit): it keeps the slot until Stripe says how it ended.
 * - Test mode (no Stripe key) books without payment: the hold is confirmed at once.
 * - Cancelling (the client up to 24 hours before, the expert any time before the start) frees the
 *   slot, refunds in full and tells the other party; a second cancel never refunds twice.
 * - `freeExpiredHolds` is for the scheduled task: it releases unpaid holds (cancelling their
 *   PaymentIntents first, so nobody pays for a slot they lost) and retries refunds that failed.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, asc, desc, eq, inArray, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { alias } from "drizzle-orm/sqlite-core";
import type { Database } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors.server";
import { personNameSql } from "~/db/person-name.server";
import {
  availability,
  type Booking,
  bookings,
  experts,
  LIVE_BOOKING_STATUSES,
  payments,
  users,
} from "~/db/schema.server";
import { googleCalendarUrl, sessionEvent } from "~/lib/calendar-links";
import { formatCents, priceChangedMessage } from "~/lib/money";
import {
  CLIENT_CANCEL_CUTOFF_MS,
  canonicalTimeZone,
  clientMayCancel,
  effectiveSchedule,
  formatInstant,
  formatInstantForClient,
  HOLD_LIFETIME_MS,
  HOLD_MS,
  instantToLocal,
  MAX_OPEN_HOLDS,
  MEETING_LINK_LEAD_MINUTES,
  overlapsBusy,
  REHOLD_WAIT_MS,
  resolveSlot,
  type ScheduleWindow,
  type Slot,
  type SlotRefusal,
  slotsForDate,
  UPCOMING_WINDOW_DAYS,
} from "~/lib/slots";
import type { ClientBooking } from "~/models/client-dashboard.server";
import { notificationStatements } from "~/models/notifications.server";
import {
  CURRENCY,
  cancelPayment,
  checkPaymentIntent,
  createPaymentIntent,
  type ExpectedPayment,
  getLedgerLine,
  ledgerUpdateStatement,
  ledgerUpsertStatement,
  type PaymentSubject,
  refundPayment,
  retrievePaymentIntent,
  verifyPaymentIntent,
} from "~/models/payments.server";
import { getOptionalStripe, type PaymentIntent, type StripeClient } from "~/services/stripe.server";

/** What the booking functions need: the primary database, Stripe (null in test mode), the time. */
export type BookingDeps = {
  db: Database;
  stripe: StripeClient | null;
  now: Date;
  /** Prefix of each booking's video-room URL (config `MEETING_ROOM_BASE`). */
  meetingRoomBase: string;
};

export function bookingDeps(context: Pick<AppLoadContext, "primaryDb" | "config" | "now">): BookingDeps {
  return {
    db: context.primaryDb,
    stripe: getOptionalStripe(context),
    now: new Date(context.now()),
    meetingRoomBase: context.config.meetingRoomBase,
  };
}

export const BOOKING_REFUSALS = {
  expertNotFound: "This expert could not be found. Please check the URL and try again.",
  unavailable: "This expert is not taking new bookings right now.",
  ownBooking: "You can't book a session with yourself.",
  slotTaken: "Sorry, that time was just booked by someone else. Please choose another time.",
  paymentInit: "Failed to initialize payment. Please try again.",
  notFound: "Booking not found.",
  alreadyCancelled: "This session has already been cancelled.",
  notCancellable: "Only confirmed sessions can be cancelled.",
  started: "This session has already started, so it can no longer be cancelled.",
  tooLate: "Sessions can only be cancelled up to 24 hours before they start.",
  holdLost:
    "Sorry, your hold on this time ran out and someone else booked it. Your payment has been refunded in full.",
  tooManyHolds: `You already have ${MAX_OPEN_HOLDS} sessions waiting for payment. Please finish paying for one, or wait until its hold ends.`,
  holdRanOut:
    "Your hold on this time ran out before it was paid. Please choose another time, or try this one again tomorrow.",
  refunded: "This payment was refunded, so the session was not booked. Please choose a time and book again.",
  startedBeforePaid:
    "Sorry, your payment went through only after the session's start time. Your payment has been refunded in full.",
} as const;

/** What each refusal of a requested start tells the client (and which field it is about). */
export const SLOT_MESSAGES: Record<SlotRefusal, { message: string; field: "date" | "time" | "timeZone" }> = {
  invalid_date: { message: "Please select a date for your session", field: "date" },
  invalid_time: { message: "Please select a time slot", field: "time" },
  invalid_time_zone: { message: "Please choose a valid time zone.", field: "timeZone" },
  past: { message: "That time has already passed. Please choose a time in the future.", field: "date" },
  too_far: {
    message: "Sessions can be booked up to 60 days ahead. Please choose an earlier date.",
    field: "date",
  },
  day_off: {
    message: "This expert does not take sessions on that day. Please choose another date.",
    field: "date",
  },
  not_on_the_hour: {
    message: "Sessions start on the hour. Please choose one of the listed times.",
    field: "time",
  },
  outside_hours: {
    message: "That time is outside the expert's hours. Please choose one of the listed times.",
    field: "time",
  },
};

const subjectOf = (bookingId: number): PaymentSubject => ({ kind: "booking", bookingId });

type Statement = BatchItem<"sqlite">;

async function runBatch(db: Database, statements: Statement[]) {
  const [first, ...rest] = statements;
  return db.batch([first, ...rest]);
}

/** A booking occupies its slot: live, and if unpaid, its hold has not run out. */
const blocksSlot = (now: Date) =>
  sql`(${bookings.status} in ('pending', 'confirmed', 'completed') or (${bookings.status} = 'awaiting_payment' and (${bookings.holdExpiresAt} is null or ${bookings.holdExpiresAt} > ${now.getTime()})))`;

const LIVE_STATUS_SQL = sql.raw(LIVE_BOOKING_STATUSES.map((status) => `'${status}'`).join(", "));

// ---------------------------------------------------------------------------------------------
// The expert's schedule and free slots

export type BookingExpert = {
  id: number;
  userId: number;
  name: string;
  title: string | null;
  profileImage: string | null;
  customUrl: string | null;
  /** Integer cents: what a session costs (the server's price, never the browser's). */
  sessionPrice: number;
  timeZone: string;
  isAvailable: boolean;
  /** The schedule that applies (the default when the expert has set none). */
  schedule: ScheduleWindow[];
  usesDefaultSchedule: boolean;
};

/** Parses an id from the URL; anything that is not a positive integer is no id. */
export function parseId(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined || value === "") return null;
  const id = typeof value === "number" ? value : /^\d{1,12}$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The expert as booking needs them (live profile and account), with the schedule that applies. */
export async function getBookingExpert(db: Database, expertId: number): Promise<BookingExpert | null> {
  const [found, windows] = await db.batch([
    db
      .select({
        id: experts.id,
        userId: experts.userId,
        name: personNameSql(users),
        title: experts.title,
        profileImage: experts.profileImage,
        customUrl: experts.customUrl,
        sessionPrice: experts.sessionPrice,
        timeZone: experts.timeZone,
        isAvailable: experts.isAvailable,
      })
      .from(experts)
      .innerJoin(users, eq(users.id, experts.userId))
      .where(and(eq(experts.id, expertId), isNull(experts.deletedAt), isNull(users.deletedAt)))
      .limit(1),
    db
      .select({
        dayOfWeek: availability.dayOfWeek,
        startTime: availability.startTime,
        endTime: availability.endTime,
      })
      .from(availability)
      .where(eq(availability.expertId, expertId))
      .orderBy(asc(availability.dayOfWeek), asc(availability.startTime)),
  ]);
  const row = found[0];
  if (!row) return null;
  return {
    ...row,
    isAvailable: Boolean(row.isAvailable),
    schedule: [...effectiveSchedule(windows)],
    usesDefaultSchedule: windows.length === 0,
  };
}

/** Starts (epoch ms) of the expert's sessions from now on that occupy their slot. */
export async function listBusyStarts(db: Database, expertId: number, now: Date): Promise<number[]> {
  const rows = await db
    .select({ startsAt: bookings.startsAt })
    .from(bookings)
    .where(
      and(
        eq(bookings.expertId, expertId),
        sql`${bookings.startsAt} > ${now.getTime()}`,
        inArray(bookings.status, [...LIVE_BOOKING_STATUSES]),
        blocksSlot(now),
      ),
    );
  return rows.map((row) => row.startsAt.getTime());
}

/** The free slots of one of the expert's local dates (the fresh list a refused client is shown). */
export async function freeSlotsOn(db: Database, expert: BookingExpert, date: string, now: Date) {
  const busy = await listBusyStarts(db, expert.id, now);
  return slotsForDate(expert.schedule, expert.timeZone, date).filter(
    (slot) => slot.startsAt > now.getTime() && !overlapsBusy(slot.startsAt, busy),
  );
}

// ---------------------------------------------------------------------------------------------
// Booking

async function slotTakenRefusal(
  db: Database,
  expert: BookingExpert,
  date: string,
  now: Date,
): Promise<CreateBookingResult> {
  return {
    status: "refused",
    httpStatus: 409,
    message: BOOKING_REFUSALS.slotTaken,
    field: "time",
    slots: await freeSlotsOn(db, expert, date, now),
  };
}

/**
 * Holding a slot costs nothing until it is paid, so one client's holds are limited: a few open at
 * once, and none again on a start whose hold ran out unpaid in the last day. Otherwise one account
 * could keep any slot, or every slot, from everyone by taking a fresh hold as the last one ends.
 * `replacing` is the caller's own hold that the new one replaces (paying again for another time).
 */
async function holdLimitRefusal(
  db: Database,
  input: { userId: number; expertId: number; startsAt: number; now: Date; replacing: number | null },
): Promise<Refused | null> {
  const now = input.now.getTime();
  const sameStart = sql`(${bookings.expertId} = ${input.expertId} and ${bookings.startsAt} = ${input.startsAt})`;
  const [counts] = await db
    .select({
      open: sql<number>`coalesce(sum(${bookings.status} = 'awaiting_payment' and ${bookings.holdExpiresAt} > ${now} and not ${sameStart} and ${bookings.id} <> ${input.replacing ?? -1}), 0)`,
      // A hold that ran out keeps its end; one the client moved to another time, or whose bank
      // payment failed, has none, and the client may take that start again.
      ranOut: sql<number>`coalesce(sum(${sameStart} and ${bookings.createdAt} > ${now - REHOLD_WAIT_MS} and ${bookings.refundedAt} is null and ${bookings.holdExpiresAt} <= ${now} and ${bookings.status} in ('expired', 'awaiting_payment')), 0)`,
    })
    .from(bookings)
    .where(and(eq(bookings.userId, input.userId), sql`${bookings.startsAt} > ${now}`));
  if (counts.ranOut > 0) {
    return { status: "refused", httpStatus: 409, message: BOOKING_REFUSALS.holdRanOut, field: "time" };
  }
  if (counts.open >= MAX_OPEN_HOLDS) {
    return { status: "refused", httpStatus: 409, message: BOOKING_REFUSALS.tooManyHolds };
  }
  return null;
}

/** A hold's end when it is kept for another 15 minutes: never past its lifetime. */
const renewedHoldEnd = (hold: Pick<Booking, "createdAt">, now: Date) =>
  Math.min(now.getTime() + HOLD_MS, hold.createdAt.getTime() + HOLD_LIFETIME_MS);

export type Booker = { id: number; username: string; name: string | null; email: string };

export type BookingInput = {
  expertId: number;
  date: string;
  time: string;
  /** The zone `date` and `time` are written in; the expert's when absent. */
  timeZone?: string | null;
  name: string;
  email: string;
  message: string;
  /** The caller's own unpaid booking, to pay for again after a declined card. */
  retryBookingId?: number | null;
  /** The price the client was shown, in cents: a session at another price is refused. */
  expectedAmount?: number | null;
};

export type Refused = {
  status: "refused";
  httpStatus: 400 | 404 | 409 | 502;
  message: string;
  field?: "date" | "time" | "timeZone";
  /** With a taken slot: the date's free slots as they are now. */
  slots?: Slot[];
  /** The price shown (`expectedAmount`) is not the price now. */
  reason?: "price_changed";
};

export type CreateBookingResult =
  | { status: "confirmed"; bookingId: number; testMode: boolean }
  | { status: "pending"; bookingId: number }
  | {
      status: "requires_payment";
      bookingId: number;
      paymentIntentId: string;
      clientSecret: string;
      amount: number;
      holdExpiresAt: number;
    }
  | Refused;

function randomToken(length: number) {
  const alphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join("");
}

/** A unique video room per booking: a 20-character random name is never guessed or reused. */
export function newMeetingLink(base: string) {
  return `${base}${randomToken(20)}`;
}

/**
 * The client's own unpaid hold with this expert, still holding its slot, for the booking screen after
 * a payment on a bank's page failed: its slot is offered again (not shown as taken) with the message,
 * and paying again reuses the hold and its PaymentIntent. Anyone else's, or a lapsed one, is null.
 */
export async function getHoldToRetry(
  db: Database,
  input: { bookingId: number; userId: number; expertId: number; now: Date },
): Promise<{ bookingId: number; startsAt: number; message: string } | null> {
  const [row] = await db
    .select({ bookingId: bookings.id, startsAt: bookings.startsAt, message: bookings.notes })
    .from(bookings)
    .where(
      and(
        eq(bookings.id, input.bookingId),
        eq(bookings.userId, input.userId),
        eq(bookings.expertId, input.expertId),
        eq(bookings.status, "awaiting_payment"),
        sql`${bookings.startsAt} > ${input.now.getTime()}`,
        blocksSlot(input.now),
      ),
    )
    .limit(1);
  return row
    ? { bookingId: row.bookingId, startsAt: row.startsAt.getTime(), message: row.message ?? "" }
    : null;
}

export async function getBookingRow(db: Database, bookingId: number): Promise<Booking | null> {
  const [row] = await db.select().from(bookings).where(eq(bookings.id, bookingId)).limit(1);
  return row ?? null;
}

/** Releases a hold on this slot that ran out unpaid, so the slot can be taken (one statement). */
function releaseStaleHoldStatements(db: Database, expertId: number, startsAt: number, now: Date) {
  const stale = and(
    eq(bookings.expertId, expertId),
    sql`${bookings.startsAt} = ${startsAt}`,
    eq(bookings.status, "awaiting_payment"),
    sql`${bookings.holdExpiresAt} <= ${now.getTime()}`,
  );
  return [
    db
      .update(payments)
      .set({ status: "cancelled", updatedAt: now })
      .where(
        and(
          eq(payments.kind, "booking"),
          inArray(payments.status, ["pending", "failed"]),
          sql`${payments.bookingId} in (select ${bookings.id} from ${bookings} where ${stale})`,
        ),
      ),
    db.update(bookings).set({ status: "expired" }).where(stale),
  ];
}

/**
 * Books a session for `booker`: checks the expert and the slot, holds it, and either confirms it at
 * once (test mode, or a free session) or answers with the PaymentIntent the browser confirms.
 */
export async function createBooking(
  deps: BookingDeps,
  input: { booker: Booker; booking: BookingInput },
): Promise<CreateBookingResult> {
  const { db, now } = deps;
  const request = input.booking;
  const expert = await getBookingExpert(db, request.expertId);
  if (!expert) return { status: "refused", httpStatus: 404, message: BOOKING_REFUSALS.expertNotFound };
  if (expert.userId === input.booker.id) {
    return { status: "refused", httpStatus: 400, message: BOOKING_REFUSALS.ownBooking };
  }
  if (!expert.isAvailable)
    return { status: "refused", httpStatus: 409, message: BOOKING_REFUSALS.unavailable };

  const resolved = resolveSlot({
    schedule: expert.schedule,
    expertTimeZone: expert.timeZone,
    date: request.date,
    time: request.time,
    timeZone: request.timeZone,
    now: now.getTime(),
  });
  if (!resolved.ok) {
    const { message, field } = SLOT_MESSAGES[resolved.reason];
    return { status: "refused", httpStatus: 400, message, field };
  }
  const slot = resolved.slot;
  // The unique index settles a race for the same start; a session that would overlap one starting
  // at another time (booked before the expert changed zone) is refused here.
  const otherStarts = (await listBusyStarts(db, expert.id, now)).filter((start) => start !== slot.startsAt);
  if (overlapsBusy(slot.startsAt, otherStarts)) {
    return slotTakenRefusal(db, expert, slot.date, now);
  }
  const price = expert.sessionPrice;
  if (request.expectedAmount != null && request.expectedAmount !== price) {
    return {
      status: "refused",
      httpStatus: 409,
      message: priceChangedMessage("session", price),
      reason: "price_changed",
    };
  }
  const details = { name: request.name, email: request.email, notes: request.message };

  // Paying again after a declined card: the same hold and PaymentIntent, if they still fit.
  let releaseOwn: Statement[] = [];
  if (request.retryBookingId) {
    const previous = await getBookingRow(db, request.retryBookingId);
    if (
      previous &&
      previous.userId === input.booker.id &&
      previous.expertId === expert.id &&
      previous.status === "awaiting_payment"
    ) {
      if (previous.startsAt.getTime() === slot.startsAt && previous.amount === price) {
        const reused = await reuseHold(deps, previous, details);
        if (reused) return reused;
      }
      // Another slot (or price) now: the old hold goes, in the same batch as the new one. It did
      // not run out (no end), so the client may come back to its start.
      releaseOwn = [
        db
          .update(bookings)
          .set({ status: "expired", holdExpiresAt: null })
          .where(and(eq(bookings.id, previous.id), eq(bookings.status, "awaiting_payment"))),
        ledgerUpdateStatement(
          db,
          { bookingId: previous.id },
          { status: "cancelled" },
          { now, from: ["pending", "failed"] },
        ),
      ];
    }
  }

  if (deps.stripe && price > 0) {
    const refusal = await holdLimitRefusal(db, {
      userId: input.booker.id,
      expertId: expert.id,
      startsAt: slot.startsAt,
      now,
      replacing: releaseOwn.length > 0 ? (request.retryBookingId ?? null) : null,
    });
    if (refusal) return refusal;
  }

  let bookingId: number;
  let holdEnd = now.getTime() + HOLD_MS;
  try {
    const results = await runBatch(db, [
      ...releaseStaleHoldStatements(db, expert.id, slot.startsAt, now),
      ...releaseOwn,
      db
        .insert(bookings)
        .values({
          userId: input.booker.id,
          expertId: expert.id,
          date: slot.date,
          startTime: slot.time,
          endTime: instantToLocal(slot.endsAt, expert.timeZone).time,
          startsAt: new Date(slot.startsAt),
          endsAt: new Date(slot.endsAt),
          duration: 60,
          status: "awaiting_payment",
          meetingLink: newMeetingLink(deps.meetingRoomBase),
          amount: price,
          currency: CURRENCY,
          ...details,
          clientTimeZone: request.timeZone ? canonicalTimeZone(request.timeZone) : null,
          holdExpiresAt: new Date(holdEnd),
          createdAt: now,
        })
        .returning({ id: bookings.id }),
    ]);
    const inserted = results[results.length - 1] as { id: number }[];
    bookingId = inserted[0].id;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // The unique index decided: someone holds or booked this start. If it is the caller's own (the
    // answer to their first try was lost on its way back), it is theirs: an unpaid hold to pay, or
    // a booking already made (in test mode, or paid), not "booked by someone else".
    const own = await ownBookingAt(db, {
      userId: input.booker.id,
      expertId: expert.id,
      startsAt: slot.startsAt,
    });
    if (own?.status === "confirmed")
      return { status: "confirmed", bookingId: own.id, testMode: !deps.stripe };
    if (own?.status === "pending") return { status: "pending", bookingId: own.id };
    if (own?.status !== "awaiting_payment" || (own.holdExpiresAt?.getTime() ?? 0) <= now.getTime()) {
      return slotTakenRefusal(db, expert, slot.date, now);
    }
    if (own.amount !== price) return slotTakenRefusal(db, expert, slot.date, now);
    if (own.paymentIntentId) {
      return (await reuseHold(deps, own, details)) ?? slotTakenRefusal(db, expert, slot.date, now);
    }
    // Its PaymentIntent was never recorded: made again below, Stripe replays the same one.
    holdEnd = renewedHoldEnd(own, now);
    await db
      .update(bookings)
      .set({ ...details, holdExpiresAt: new Date(holdEnd) })
      .where(and(eq(bookings.id, own.id), eq(bookings.status, "awaiting_payment")));
    bookingId = own.id;
  }

  if (!deps.stripe || price <= 0) {
    const booking = (await getBookingRow(db, bookingId))!;
    await runBatch(db, confirmStatements(db, booking, expert, { now, paymentIntentId: null }));
    return { status: "confirmed", bookingId, testMode: !deps.stripe };
  }

  let intent: PaymentIntent;
  try {
    intent = await createPaymentIntent(deps.stripe, {
      subject: subjectOf(bookingId),
      amount: price,
      userId: input.booker.id,
      captureMethod: "automatic",
      description: `60-minute session with ${expert.name}`,
      receiptEmail: input.booker.email,
    });
  } catch (error) {
    console.error(
      JSON.stringify({
        level: "error",
        message: "create payment intent failed",
        bookingId,
        error: String(error),
      }),
    );
    // Stripe replays a saved failure for the same idempotency key: this hold can never be paid.
    // Drop it (nothing was paid and the slot is free again); a retry starts afresh.
    await db
      .delete(bookings)
      .where(
        and(
          eq(bookings.id, bookingId),
          eq(bookings.status, "awaiting_payment"),
          isNull(bookings.paymentIntentId),
        ),
      );
    return { status: "refused", httpStatus: 502, message: BOOKING_REFUSALS.paymentInit };
  }
  if (!intent.client_secret) throw new Error(`PaymentIntent ${intent.id} has no client secret`);

  await runBatch(db, [
    db
      .update(bookings)
      .set({ paymentIntentId: intent.id })
      .where(and(eq(bookings.id, bookingId), isNull(bookings.paymentIntentId))),
    ledgerUpsertStatement(
      db,
      {
        kind: "booking",
        ref: { bookingId },
        amount: price,
        status: "pending",
        userId: input.booker.id,
        expertId: expert.id,
        stripePaymentIntentId: intent.id,
      },
      { now, replaceFrom: ["pending", "failed"] },
    ),
  ]);
  return {
    status: "requires_payment",
    bookingId,
    paymentIntentId: intent.id,
    clientSecret: intent.client_secret,
    amount: price,
    holdExpiresAt: holdEnd,
  };
}

/** The ids of a client's confirmed sessions that also meet `when`. */
const confirmedSessionsOfClient = (db: Database, userId: number, ...when: SQL[]) =>
  db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.userId, userId), eq(bookings.status, "confirmed"), ...when));

/** A client's confirmed sessions still to come (what closing their account cancels where it may). */
export async function listUpcomingBookingIdsOfClient(db: Database, userId: number, now: Date) {
  const rows = await confirmedSessionsOfClient(db, userId, sql`${bookings.startsAt} > ${now.getTime()}`);
  return rows.map((row) => row.id);
}

/**
 * Whether the client has a confirmed session they can no longer cancel (it starts within 24 hours) or
 * that is under way: deleting the account then would leave it paid for and booked, with nobody to
 * send its video link to.
 */
export async function hasSessionTooSoonToCancel(db: Database, userId: number, now: Date) {
  const [row] = await confirmedSessionsOfClient(
    db,
    userId,
    sql`${bookings.endsAt} > ${now.getTime()}`,
    sql`${bookings.startsAt} < ${now.getTime() + CLIENT_CANCEL_CUTOFF_MS}`,
  ).limit(1);
  return row !== undefined;
}

/**
 * Before an account is deleted: the holds on the expert's slots, or the client's own holds, lapse
 * (unpaid and processing), and their
 * PaymentIntents are cancelled where Stripe still allows it. A payment that lands anyway finds a
 * lapsed hold of a deleted expert, which is never revived, so it is refunded (at once or by the
 * scheduled task).
 */
export async function releaseHoldsOfClosingAccount(
  deps: BookingDeps,
  account: { expertId: number } | { userId: number },
) {
  const { db, now } = deps;
  const holds = await db
    .select()
    .from(bookings)
    .where(
      and(
        "expertId" in account ? eq(bookings.expertId, account.expertId) : eq(bookings.userId, account.userId),
        inArray(bookings.status, ["awaiting_payment", "pending"]),
      ),
    );
  for (const hold of holds) {
    await runBatch(db, [
      db
        .update(bookings)
        .set({ status: "expired", holdExpiresAt: null })
        .where(and(eq(bookings.id, hold.id), inArray(bookings.status, ["awaiting_payment", "pending"]))),
      ledgerUpdateStatement(
        db,
        { bookingId: hold.id },
        { status: "cancelled" },
        { now, from: ["pending", "failed"] },
      ),
    ]);
    if (deps.stripe && hold.paymentIntentId) {
      await cancelPayment(deps.stripe, {
        subject: subjectOf(hold.id),
        paymentIntentId: hold.paymentIntentId,
        reason: "abandoned",
      });
    }
  }
}

/** The caller's live booking of an expert's start (a hold, or booked), if any: there is one at most. */
async function ownBookingAt(
  db: Database,
  { userId, expertId, startsAt }: { userId: number; expertId: number; startsAt: number },
): Promise<Booking | null> {
  const [row] = await db
    .select()
    .from(bookings)
    .where(
      and(
        eq(bookings.userId, userId),
        eq(bookings.expertId, expertId),
        eq(bookings.startsAt, new Date(startsAt)),
        inArray(bookings.status, ["awaiting_payment", "pending", "confirmed"]),
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * The caller's unpaid hold, kept for another 15 minutes (within its lifetime), with its
 * PaymentIntent's client secret; null when it can't be kept.
 */
async function reuseHold(
  deps: BookingDeps,
  previous: Booking,
  details: { name: string; email: string; notes: string },
): Promise<CreateBookingResult | null> {
  const { db, now } = deps;
  if (!deps.stripe || !previous.paymentIntentId) return null;
  const intent = await retrievePaymentIntent(deps.stripe, previous.paymentIntentId);
  if (!intent || intent.status === "canceled") return null;
  const paid = intent.status === "succeeded" || intent.status === "processing";
  // A payment already made is recorded whatever the hold's age; an unpaid hold lives out its lifetime.
  const holdEnd = paid ? now.getTime() + HOLD_MS : renewedHoldEnd(previous, now);
  if (holdEnd <= now.getTime()) return null;
  const [kept] = await db
    .update(bookings)
    .set({ ...details, holdExpiresAt: new Date(holdEnd) })
    .where(and(eq(bookings.id, previous.id), eq(bookings.status, "awaiting_payment")))
    .returning({ id: bookings.id });
  if (!kept) return null;
  if (paid) {
    // Paid already (the response was lost): record it instead of asking for the card again.
    const confirmed = await confirmBookingPayment(deps, {
      userId: previous.userId ?? -1,
      bookingId: previous.id,
      paymentIntentId: intent.id,
    });
    if (confirmed.ok && confirmed.status === "confirmed") {
      return { status: "confirmed", bookingId: previous.id, testMode: false };
    }
    if (confirmed.ok) return { status: "pending", bookingId: previous.id };
  }
  if (!intent.client_secret) return null;
  return {
    status: "requires_payment",
    bookingId: previous.id,
    paymentIntentId: intent.id,
    clientSecret: intent.client_secret,
    amount: previous.amount,
    holdExpiresAt: holdEnd,
  };
}

type ExpertForNotice = Pick<BookingExpert, "userId" | "name" | "timeZone">;

async function expertForNotice(db: Database, expertId: number): Promise<ExpertForNotice> {
  const [row] = await db
    .select({ userId: experts.userId, name: personNameSql(users), timeZone: experts.timeZone })
    .from(experts)
    .innerJoin(users, eq(users.id, experts.userId))
    .where(eq(experts.id, expertId))
    .limit(1);
  return row ?? { userId: -1, name: "Your expert", timeZone: "UTC" };
}

/**
 * The statements that confirm a paid (or test-mode) booking: the row, its ledger line (captured: a
 * session is charged when booked) and both parties told, in one batch. Only an unpaid or processing
 * booking changes (`revive`: one whose hold ran out, if nobody took the slot since), so a second
 * confirmation changes nothing, and the notices go out only when this batch confirmed it. A payment
 * that lands once the session's start has passed (a slow bank payment) confirms nothing: the booking
 * lapses with its payment captured, and is refunded (by the caller, or the hold sweep's refunds).
 */
function confirmStatements(
  db: Database,
  booking: Booking,
  expert: ExpertForNotice,
  options: { now: Date; paymentIntentId: string | null; revive?: boolean },
): Statement[] {
  const { now, paymentIntentId } = options;
  const confirmable = options.revive
    ? and(
        eq(bookings.status, "expired"),
        sql`not exists (select 1 from ${bookings} as other where other.expert_id = ${booking.expertId} and other.starts_at = ${booking.startsAt.getTime()} and other.status in (${LIVE_STATUS_SQL}) and other.id <> ${booking.id})`,
        // A lapsed booking whose payment is already captured is owed a refund (its slot was taken).
        sql`not exists (select 1 from ${payments} where ${payments.bookingId} = ${booking.id} and ${payments.status} = 'captured')`,
      )
    : inArray(bookings.status, ["awaiting_payment", "pending"]);
  // A refunded PaymentIntent still reads "succeeded": one refunded at Stripe (charge.refunded, which
  // may come first) never confirms its session.
  const notRefunded = sql`not exists (select 1 from ${payments} where ${payments.bookingId} = ${booking.id} and ${payments.status} = 'refunded')`;
  const statements: Statement[] = [
    db
      .update(bookings)
      .set({
        status: "confirmed",
        confirmedAt: now,
        holdExpiresAt: null,
        ...(paymentIntentId ? { paymentIntentId } : {}),
      })
      .where(
        and(
          eq(bookings.id, booking.id),
          confirmable,
          notRefunded,
          isNull(bookings.refundedAt),
          sql`${bookings.startsAt} > ${now.getTime()}`,
          // Nobody would hold the session of an expert whose account is gone, nor keep one for a
          // client whose account is gone: a late payment is refunded.
          sql`not exists (select 1 from ${experts} where ${experts.id} = ${booking.expertId} and ${experts.deletedAt} is not null)`,
          sql`not exists (select 1 from ${users} where ${users.id} = ${bookings.userId} and ${users.deletedAt} is not null)`,
          paymentIntentId
            ? or(isNull(bookings.paymentIntentId), eq(bookings.paymentIntentId, paymentIntentId))
            : undefined,
        ),
      ),
  ];
  statements.push(
    db
      .update(bookings)
      .set({ status: "expired", holdExpiresAt: null })
      .where(
        and(
          eq(bookings.id, booking.id),
          inArray(bookings.status, ["awaiting_payment", "pending"]),
          sql`${bookings.startsAt} <= ${now.getTime()}`,
        ),
      ),
  );
  if (booking.amount > 0) {
    statements.push(
      ledgerUpsertStatement(
        db,
        {
          kind: "booking",
          ref: { bookingId: booking.id },
          amount: booking.amount,
          status: "captured",
          userId: booking.userId,
          expertId: booking.expertId,
          stripePaymentIntentId: paymentIntentId,
          settledAt: now,
        },
        { now, replaceFrom: ["pending", "failed", "cancelled"] },
      ),
    );
  }
  const confirmedNow = sql`exists (select 1 from ${bookings} where ${bookings.id} = ${booking.id} and ${bookings.status} = 'confirmed' and ${bookings.confirmedAt} = ${now.getTime()})`;
  const when = formatInstant(booking.startsAt.getTime(), expert.timeZone);
  const whenForClient = formatInstantForClient(
    booking.startsAt.getTime(),
    expert.timeZone,
    booking.clientTimeZone,
  );
  const dedupeKey = `booking_confirmed:booking:${booking.id}`;
  if (booking.userId !== null) {
    statements.push(
      ...notificationStatements(
        db,
        {
          userId: booking.userId,
          kind: "booking_confirmed",
          title: "Session confirmed",
          body: `Your 60-minute session with ${expert.name} on ${whenForClient} is confirmed. The video call link is sent to you ${MEETING_LINK_LEAD_MINUTES} minutes before it starts.`,
          link: "/dashboard/bookings",
          dedupeKey,
        },
        { when: confirmedNow },
      ),
    );
  }
  if (expert.userId > 0) {
    statements.push(
      ...notificationStatements(
        db,
        {
          userId: expert.userId,
          kind: "booking_confirmed",
          title: "New session booked",
          body: `${booking.name || "A client"} booked a 60-minute session with you on ${when}.`,
          link: "/expert/bookings",
          dedupeKey,
        },
        { when: confirmedNow },
      ),
    );
  }
  return statements;
}

const expectedPaymentOf = (booking: Booking): ExpectedPayment => ({
  subject: subjectOf(booking.id),
  amount: booking.amount,
  currency: booking.currency,
  userId: booking.userId,
  captureMethod: "automatic",
  paymentIntentId: booking.paymentIntentId,
});

/** A session's PaymentIntent (automatic capture) counts as paid once it has succeeded. */
const BOOKING_PAID_STATUSES = ["succeeded"] as const;

export type ConfirmBookingResult =
  | { ok: true; status: "confirmed" | "pending"; bookingId: number }
  | {
      ok: false;
      reason: "not_found" | "mismatch" | "not_paid" | "failed" | "slot_taken" | "started";
      message: string;
    };

/**
 * The browser's return after confirming the payment: the PaymentIntent must be this booking's, at
 * Stripe, succeeded, for the right amount; then the booking is confirmed. A payment still processing
 * makes it `pending`. Confirming twice is harmless. A payment that arrives after the hold ran out
 * and someone else took the slot is refunded at once.
 */
export async function confirmBookingPayment(
  deps: BookingDeps,
  input: { userId: number; bookingId: number; paymentIntentId: string },
): Promise<ConfirmBookingResult> {
  const { db, now } = deps;
  const booking = await getBookingRow(db, input.bookingId);
  if (!booking || booking.userId !== input.userId) {
    return { ok: false, reason: "not_found", message: BOOKING_REFUSALS.notFound };
  }
  if (booking.status === "confirmed" || booking.status === "completed") {
    return booking.paymentIntentId === input.paymentIntentId
      ? { ok: true, status: "confirmed", bookingId: booking.id }
      : { ok: false, reason: "mismatch", message: "This payment does not match your booking." };
  }
  if (booking.status === "cancelled") {
    return { ok: false, reason: "mismatch", message: BOOKING_REFUSALS.alreadyCancelled };
  }
  if (!deps.stripe) return { ok: false, reason: "mismatch", message: "Payments are not configured." };
  const check = await verifyPaymentIntent(
    deps.stripe,
    db,
    input.paymentIntentId,
    expectedPaymentOf(booking),
    { paidStatuses: BOOKING_PAID_STATUSES },
  );
  if (!check.ok) {
    const message = check.reason === "mismatch" ? "This payment does not match your booking." : check.message;
    if (check.reason === "not_paid" && check.intent?.status === "processing") {
      await markProcessing(db, booking.id, check.intent.id);
      return { ok: true, status: "pending", bookingId: booking.id };
    }
    if (check.reason === "failed" && booking.paymentIntentId === input.paymentIntentId) {
      await paymentFailedStatement(db, booking.id, check.message, now);
    }
    return { ok: false, reason: check.reason, message };
  }
  return settlePaidBooking(deps, booking, check.intent.id);
}

/** Confirms a booking whose payment succeeded, reviving a lapsed hold if its slot is still free. */
async function settlePaidBooking(
  deps: BookingDeps,
  booking: Booking,
  paymentIntentId: string,
): Promise<ConfirmBookingResult> {
  const { db, now } = deps;
  const expert = await expertForNotice(db, booking.expertId);
  const revive = booking.status === "expired";
  try {
    await runBatch(db, confirmStatements(db, booking, expert, { now, paymentIntentId, revive }));
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return { ok: false, reason: "mismatch", message: "This payment does not match your booking." };
  }
  const after = (await getBookingRow(db, booking.id))!;
  if (after.status === "confirmed" || after.status === "completed") {
    return { ok: true, status: "confirmed", bookingId: booking.id };
  }
  // Refunded at Stripe (not by the app, whose refunds record their id) before it could be confirmed:
  // nothing to confirm, and nothing to refund.
  if (
    after.refundId === null &&
    (await getLedgerLine(db, { bookingId: booking.id }))?.status === "refunded"
  ) {
    return { ok: false, reason: "mismatch", message: BOOKING_REFUSALS.refunded };
  }
  if (after.status === "awaiting_payment" || after.status === "pending") {
    return { ok: false, reason: "mismatch", message: "This payment does not match your booking." };
  }
  if (after.startsAt.getTime() <= now.getTime()) {
    // Paid once the session had started: there is no session left to hold, so the money goes back.
    await refundBooking(deps, booking.id);
    return { ok: false, reason: "started", message: BOOKING_REFUSALS.startedBeforePaid };
  }
  if (!revive) return settlePaidBooking(deps, after, paymentIntentId);
  // Paid after the hold ran out, and the slot is someone else's now: the money goes back.
  await refundBooking(deps, booking.id);
  return { ok: false, reason: "slot_taken", message: BOOKING_REFUSALS.holdLost };
}

function markProcessing(db: Database, bookingId: number, paymentIntentId: string) {
  return db
    .update(bookings)
    .set({ status: "pending", holdExpiresAt: null })
    .where(
      and(
        eq(bookings.id, bookingId),
        eq(bookings.status, "awaiting_payment"),
        eq(bookings.paymentIntentId, paymentIntentId),
      ),
    );
}

function paymentFailedStatement(db: Database, bookingId: number, message: string, now: Date) {
  return ledgerUpdateStatement(
    db,
    { bookingId },
    { status: "failed", lastError: message },
    { now, from: ["pending", "failed"] },
  );
}

// ---------------------------------------------------------------------------------------------
// Webhooks (app/models/stripe-webhooks.server.ts dispatches `booking` events here)

export type WebhookOutcome = { statements: unknown[]; note: string };

async function bookingForIntent(db: Database, intent: PaymentIntent) {
  const id = parseId(intent.metadata?.bookingId ?? null);
  return id === null ? null : getBookingRow(db, id);
}

/**
 * payment_intent.succeeded: the session is paid; confirm it (or, for a hold that ran out, revive it
 * if the slot is still free; otherwise, or once its start has passed, the booking lapses and the
 * captured line waits for `freeExpiredHolds` to refund it).
 */
export async function onBookingPaymentSucceeded(
  db: Database,
  intent: PaymentIntent,
  now: Date,
): Promise<WebhookOutcome> {
  const booking = await bookingForIntent(db, intent);
  if (!booking) return { statements: [], note: "unknown booking" };
  const check = checkPaymentIntent(intent, expectedPaymentOf(booking), {
    paidStatuses: BOOKING_PAID_STATUSES,
  });
  if (!check.ok) return { statements: [], note: `refused: ${check.reason}` };
  if (!["awaiting_payment", "pending", "expired"].includes(booking.status)) {
    return { statements: [], note: `already ${booking.status}` };
  }
  const expert = await expertForNotice(db, booking.expertId);
  const revive = booking.status === "expired";
  return {
    statements: confirmStatements(db, booking, expert, { now, paymentIntentId: intent.id, revive }),
    note: revive ? "paid after the hold expired" : "booking confirmed",
  };
}

/** payment_intent.processing: a bank payment is on its way; the booking keeps its slot meanwhile. */
export async function onBookingPaymentProcessing(
  db: Database,
  intent: PaymentIntent,
): Promise<WebhookOutcome> {
  const booking = await bookingForIntent(db, intent);
  if (!booking || booking.paymentIntentId !== intent.id || booking.status !== "awaiting_payment") {
    return { statements: [], note: "nothing to do" };
  }
  return { statements: [markProcessing(db, booking.id, intent.id)], note: "payment processing" };
}

/** A PaymentIntent in these states is still paying: a decline reported for it is an earlier attempt's. */
const PAYING_INTENT_STATUSES: ReadonlySet<string> = new Set(["processing", "requires_capture", "succeeded"]);

/**
 * payment_intent.payment_failed: the card was declined. An unpaid hold stays (the client may try
 * again while it lasts); a processing payment that failed gives its slot back.
 *
 * Stripe does not deliver events in order: a decline of a first attempt can arrive after a second
 * attempt (a bank debit) began processing. Before giving a processing booking's slot away, the
 * PaymentIntent is read again from Stripe, and the event is ignored if it is still paying.
 */
export async function onBookingPaymentFailed(
  db: Database,
  intent: PaymentIntent,
  now: Date,
  stripe: StripeClient,
): Promise<WebhookOutcome> {
  const booking = await bookingForIntent(db, intent);
  if (!booking || booking.paymentIntentId !== intent.id) return { statements: [], note: "unknown booking" };
  if (booking.status === "pending") {
    const current = await retrievePaymentIntent(stripe, intent.id);
    if (current && PAYING_INTENT_STATUSES.has(current.status)) {
      return { statements: [], note: `stale decline: the payment is ${current.status}` };
    }
  }
  const message = intent.last_payment_error?.message ?? "The payment failed.";
  return {
    statements: [
      paymentFailedStatement(db, booking.id, message, now),
      db
        .update(bookings)
        .set({ status: "expired" })
        .where(and(eq(bookings.id, booking.id), eq(bookings.status, "pending"))),
    ],
    note: "payment failed",
  };
}

// ---------------------------------------------------------------------------------------------
// Cancelling and refunding

export type CancelActor = { userId: number; expertId: number | null };

export type CancelResult =
  | { ok: true; refund: "refunded" | "refund_failed" | "none"; by: "client" | "expert"; message: string }
  | { ok: false; httpStatus: 403 | 404 | 409; message: string };

/** "Ada cancelled your session on …", or, when Ada closed her account, that this is why. */
function cancelledSentence(who: string, session: string, closingAccount = false) {
  return closingAccount
    ? `${who} closed their account, so ${session} is cancelled.`
    : `${who} cancelled ${session}.`;
}

/**
 * Cancels a confirmed session: the client up to 24 hours before the start, the expert any time
 * before it. The slot is free at once, the other party is told, and the payment is refunded in
 * full. A second cancel changes nothing and never refunds twice (the guarded update lets one
 * through; the refund's idempotency key covers a retried request).
 */
export async function cancelBooking(
  deps: BookingDeps,
  input: { actor: CancelActor; bookingId: number; closingAccount?: boolean },
): Promise<CancelResult> {
  const { db, now } = deps;
  const booking = await getBookingRow(db, input.bookingId);
  if (!booking || ["awaiting_payment", "expired"].includes(booking.status)) {
    return { ok: false, httpStatus: 404, message: BOOKING_REFUSALS.notFound };
  }
  const by =
    booking.userId === input.actor.userId
      ? "client"
      : input.actor.expertId !== null && booking.expertId === input.actor.expertId
        ? "expert"
        : null;
  // Someone else's booking is not found, as one that does not exist: its id tells them nothing.
  if (!by) return { ok: false, httpStatus: 404, message: BOOKING_REFUSALS.notFound };
  if (booking.status === "cancelled") {
    // A refund that failed the first time is retried; a done one is never repeated.
    const line = await getLedgerLine(db, { bookingId: booking.id });
    if (line?.status === "captured" && line.lastError) {
      const refund = await refundBooking(deps, booking.id);
      return { ok: true, refund, by, message: refundMessage(refund, booking.amount) };
    }
    return { ok: false, httpStatus: 409, message: BOOKING_REFUSALS.alreadyCancelled };
  }
  if (booking.status !== "confirmed") {
    return { ok: false, httpStatus: 409, message: BOOKING_REFUSALS.notCancellable };
  }
  if (booking.startsAt.getTime() <= now.getTime()) {
    return { ok: false, httpStatus: 409, message: BOOKING_REFUSALS.started };
  }
  if (by === "client" && !clientMayCancel(booking.startsAt.getTime(), now.getTime())) {
    return { ok: false, httpStatus: 409, message: BOOKING_REFUSALS.tooLate };
  }

  const expert = await expertForNotice(db, booking.expertId);
  const when = formatInstant(booking.startsAt.getTime(), expert.timeZone);
  // In test mode (no Stripe) nothing was charged, so nothing is said to be refunded.
  const refundText =
    booking.amount > 0 && deps.stripe
      ? ` The full ${formatCents(booking.amount)} is refunded to the card that paid.`
      : "";
  const notice =
    by === "client"
      ? {
          userId: expert.userId,
          title: "Session cancelled",
          body: `${cancelledSentence(booking.name || "Your client", `the session on ${when}`, input.closingAccount)} The time is open for booking again.`,
          link: "/expert/bookings",
        }
      : booking.userId === null
        ? null
        : {
            userId: booking.userId,
            title: deps.stripe ? "Session cancelled and refunded" : "Session cancelled",
            body: `${cancelledSentence(expert.name, `your session on ${formatInstantForClient(booking.startsAt.getTime(), expert.timeZone, booking.clientTimeZone)}`, input.closingAccount)}${refundText}`,
            link: "/dashboard/bookings",
          };
  const cancelledNow = sql`exists (select 1 from ${bookings} where ${bookings.id} = ${booking.id} and ${bookings.status} = 'cancelled' and ${bookings.cancelledAt} = ${now.getTime()})`;
  const [updated] = await runBatch(db, [
    db
      .update(bookings)
      .set({ status: "cancelled", cancelledAt: now, cancelledBy: input.actor.userId })
      .where(and(eq(bookings.id, booking.id), eq(bookings.status, "confirmed")))
      .returning({ id: bookings.id }),
    ...(notice && notice.userId > 0
      ? notificationStatements(
          db,
          { ...notice, kind: "booking_cancelled", dedupeKey: `booking_cancelled:booking:${booking.id}` },
          { when: cancelledNow },
        )
      : []),
  ]);
  if ((updated as unknown[]).length === 0) {
    return { ok: false, httpStatus: 409, message: BOOKING_REFUSALS.alreadyCancelled };
  }
  const refund = await refundBooking(deps, booking.id);
  const message = deps.stripe
    ? refundMessage(refund, booking.amount)
    : "The session was cancelled. It was booked in test mode, so no payment was taken.";
  return { ok: true, refund, by, message };
}

function refundMessage(refund: "refunded" | "refund_failed" | "none", amount: number) {
  if (refund === "refunded") return `The session was cancelled and ${formatCents(amount)} refunded in full.`;
  if (refund === "refund_failed") {
    return "The session was cancelled. The refund could not be made just now; it is retried automatically.";
  }
  return "The session was cancelled.";
}

/**
 * Refunds a booking's payment in full, once: the ledger line must still be `captured`. A refusal is
 * kept on the line (`lastError`) and retried with a fresh idempotency key; test-mode lines (no card
 * was charged) are cancelled, not refunded.
 */
export async function refundBooking(
  deps: BookingDeps,
  bookingId: number,
): Promise<"refunded" | "refund_failed" | "none"> {
  const { db, now } = deps;
  const [booking, line] = await Promise.all([getBookingRow(db, bookingId), getLedgerLine(db, { bookingId })]);
  // Only a session that will not take place is refunded; a lapsed one cannot be revived once its
  // payment is captured (see confirmStatements), so this holds until the refund is recorded.
  if (!booking || !["cancelled", "expired"].includes(booking.status) || line?.status !== "captured") {
    return "none";
  }
  const refunded = (refundId: string | null) =>
    runBatch(db, [
      db
        .update(bookings)
        .set({ refundedAt: now, ...(refundId ? { refundId } : {}) })
        .where(and(eq(bookings.id, bookingId), isNull(bookings.refundedAt))),
      ledgerUpdateStatement(
        db,
        { bookingId },
        {
          status: "refunded",
          settledAt: now,
          lastError: null,
          ...(refundId ? { stripeRefundId: refundId } : {}),
        },
        { now, from: ["captured"] },
      ),
    ]);
  const paymentIntentId = booking.paymentIntentId ?? line.stripePaymentIntentId;
  if (!paymentIntentId) {
    // Booked in test mode: no card was charged, so nothing is refunded. The line is cancelled, so
    // the expert's books (and their CSV) never show a refund of money that was never taken.
    await ledgerUpdateStatement(
      db,
      { bookingId },
      { status: "cancelled", settledAt: now, lastError: null },
      { now, from: ["captured"] },
    );
    return "none";
  }
  let outcome: Awaited<ReturnType<typeof refundPayment>>;
  if (!deps.stripe) {
    outcome = { ok: false, error: "Stripe is not configured.", code: null };
  } else {
    try {
      outcome = await refundPayment(deps.stripe, {
        subject: subjectOf(bookingId),
        paymentIntentId,
        reason: "requested_by_customer",
        retryStamp: line.lastError ? (line.updatedAt?.getTime() ?? null) : null,
      });
    } catch (error) {
      outcome = { ok: false, error: `Stripe could not be reached: ${String(error)}`, code: null };
    }
  }
  if (outcome.ok) {
    await refunded(outcome.result.id);
    return "refunded";
  }
  console.error(
    JSON.stringify({ level: "error", message: "refund failed", bookingId, error: outcome.error }),
  );
  await ledgerUpdateStatement(
    db,
    { bookingId },
    { lastError: `Refund failed: ${outcome.error}` },
    { now, from: ["captured"] },
  );
  return "refund_failed";
}

// ---------------------------------------------------------------------------------------------
// The scheduled task's part (issue 9 calls it from the Cron Trigger)

export type HoldSweep = { expired: number; confirmed: number; refunded: number; failures: string[] };

/**
 * Frees unpaid holds that ran out: each one's PaymentIntent is cancelled first, so the client can no
 * longer pay for a slot they lost (one that turns out to have been paid is confirmed instead). Then
 * refunds what is owed and not yet refunded: cancelled sessions whose refund failed, and payments
 * that arrived after their hold was given to someone else. Idempotent; safe to run twice at once.
 */
export async function freeExpiredHolds(deps: BookingDeps, { limit = 50 } = {}): Promise<HoldSweep> {
  const { db, now } = deps;
  const sweep: HoldSweep = { expired: 0, confirmed: 0, refunded: 0, failures: [] };
  const lapsed = await db
    .select()
    .from(bookings)
    .where(and(eq(bookings.status, "awaiting_payment"), sql`${bookings.holdExpiresAt} <= ${now.getTime()}`))
    .orderBy(asc(bookings.holdExpiresAt))
    .limit(limit);
  for (const booking of lapsed) {
    try {
      if (booking.paymentIntentId && deps.stripe) {
        const cancelled = await cancelPayment(deps.stripe, {
          subject: subjectOf(booking.id),
          paymentIntentId: booking.paymentIntentId,
          reason: "abandoned",
        });
        if (!cancelled.ok) {
          const intent = await retrievePaymentIntent(deps.stripe, booking.paymentIntentId);
          if (intent?.status === "succeeded") {
            const settled = await settlePaidBooking(deps, booking, intent.id);
            if (settled.ok) {
              sweep.confirmed += 1;
              continue;
            }
            // Paid, but it can hold no session (its expert closed their account while it was being
            // paid): it lapses with its payment on the ledger, and the refund sweep below returns it.
            const [lapsed] = await runBatch(db, [
              db
                .update(bookings)
                .set({ status: "expired" })
                .where(and(eq(bookings.id, booking.id), eq(bookings.status, "awaiting_payment")))
                .returning({ id: bookings.id }),
              ledgerUpdateStatement(
                db,
                { bookingId: booking.id },
                { status: "captured", settledAt: now },
                { now, from: ["pending", "failed"] },
              ),
            ]);
            sweep.expired += (lapsed as unknown[]).length;
            continue;
          }
          if (intent?.status === "processing") {
            await markProcessing(db, booking.id, intent.id);
            continue;
          }
        }
      }
      const [expired] = await runBatch(db, [
        db
          .update(bookings)
          .set({ status: "expired" })
          .where(
            and(
              eq(bookings.id, booking.id),
              eq(bookings.status, "awaiting_payment"),
              sql`${bookings.holdExpiresAt} <= ${now.getTime()}`,
            ),
          )
          .returning({ id: bookings.id }),
        ledgerUpdateStatement(
          db,
          { bookingId: booking.id },
          { status: "cancelled" },
          { now, from: ["pending", "failed"] },
        ),
      ]);
      sweep.expired += (expired as unknown[]).length;
    } catch (error) {
      sweep.failures.push(`booking ${booking.id}: ${String(error)}`);
    }
  }

  const owed = await db
    .select({ id: bookings.id })
    .from(payments)
    .innerJoin(bookings, eq(bookings.id, payments.bookingId))
    .where(
      and(
        eq(payments.kind, "booking"),
        eq(payments.status, "captured"),
        inArray(bookings.status, ["cancelled", "expired"]),
      ),
    )
    // Least recently tried first: a refund Stripe keeps refusing goes to the back of the queue.
    .orderBy(asc(payments.updatedAt), asc(payments.id))
    .limit(limit);
  for (const { id } of owed) {
    const outcome = await refundBooking(deps, id);
    if (outcome === "refunded") sweep.refunded += 1;
    if (outcome === "refund_failed") sweep.failures.push(`booking ${id}: refund failed`);
  }
  return sweep;
}

// ---------------------------------------------------------------------------------------------
// Reading

const upcomingWhere = (expertId: number, now: Date) =>
  and(
    eq(bookings.expertId, expertId),
    eq(bookings.status, "confirmed"),
    sql`${bookings.endsAt} > ${now.getTime()}`,
  );

const clientUsers = alias(users, "client_user");

/**
 * Whom a session is with, as the expert reads it: the name given when booking, else the account's
 * name ("Deleted account" once the client has closed it), else "Client".
 */
export function bookingClientName(bookingName: string | null, accountName: string | null): string {
  return bookingName?.trim() || accountName || "Client";
}

/**
 * The expert's upcoming sessions (confirmed, not over yet), soonest first: the one reading of
 * "upcoming" shared by the dashboard, the Bookings page and Upcoming Appointments. A query (not
 * run) so a page can put it in its own batch.
 */
export function upcomingBookingsQuery(
  db: Database,
  { expertId, now, limit, until }: { expertId: number; now: Date; limit?: number; until?: Date },
) {
  const query = db
    .select({
      id: bookings.id,
      name: bookings.name,
      clientAccountName: personNameSql(clientUsers),
      startsAt: bookings.startsAt,
      endsAt: bookings.endsAt,
      duration: bookings.duration,
      notes: bookings.notes,
    })
    .from(bookings)
    .leftJoin(clientUsers, eq(clientUsers.id, bookings.userId))
    .where(
      and(upcomingWhere(expertId, now), until ? sql`${bookings.startsAt} < ${until.getTime()}` : undefined),
    )
    .orderBy(asc(bookings.startsAt), asc(bookings.id));
  return limit === undefined ? query : query.limit(limit);
}

/** How many upcoming sessions the expert has (the dashboard's count), as a scalar subquery. */
export function upcomingBookingsCount(expertId: number, now: Date) {
  return sql<number>`(select count(*) from ${bookings} where ${upcomingWhere(expertId, now)})`;
}

export type UpcomingAppointment = {
  id: number;
  date: string;
  time: string;
  startsAt: number;
  duration: number;
  clientName: string;
};

/** Upcoming Appointments on /expert/availability: the next 7 days, in the expert's zone. */
export async function listUpcomingAppointments(
  db: Database,
  { expertId, timeZone, now }: { expertId: number; timeZone: string; now: Date },
): Promise<UpcomingAppointment[]> {
  const until = new Date(now.getTime() + UPCOMING_WINDOW_DAYS * 24 * 60 * 60 * 1000);
  const rows = await upcomingBookingsQuery(db, { expertId, now, until, limit: 100 });
  return rows.map((row) => {
    const local = instantToLocal(row.startsAt, timeZone);
    return {
      id: row.id,
      date: local.date,
      time: local.time,
      startsAt: row.startsAt.getTime(),
      duration: row.duration,
      clientName: bookingClientName(row.name, row.clientAccountName),
    };
  });
}

export type ExpertBookingStatus = "pending" | "confirmed" | "completed" | "cancelled";

/** A session as the expert's Bookings page shows it: times in the expert's current zone. */
export type ExpertBookingView = {
  id: number;
  /** The expert's local date and times now (the zone may have changed since it was booked). */
  date: string;
  startTime: string;
  endTime: string;
  startsAt: number;
  endsAt: number;
  duration: number;
  status: ExpertBookingStatus;
  clientName: string;
  email: string | null;
  message: string | null;
  amount: number;
  /** The video room, once it is sent (15 minutes before); null before that. */
  meetingLink: string | null;
  cancelledBy: "client" | "expert" | null;
  refunded: boolean;
  icsPath: string;
  googleCalendarUrl: string;
};

/** Whether a session's video link is out (the scheduled task sends it 15 minutes before). */
export function meetingLinkIsDue(booking: { startsAt: number; linkSentAt: number | null }, now: number) {
  return booking.linkSentAt !== null || booking.startsAt - now <= MEETING_LINK_LEAD_MINUTES * 60 * 1000;
}

/**
 * The expert's Bookings page: their zone and every session (never unpaid holds), newest first, each
 * with its times in the expert's current zone and its calendar links.
 */
export async function getExpertCalendar(
  db: Database,
  input: { expertId: number; now: Date; origin: string; limit?: number },
): Promise<{ timeZone: string; bookings: ExpertBookingView[] }> {
  const [expert] = await db
    .select({ name: personNameSql(users), timeZone: experts.timeZone })
    .from(experts)
    .innerJoin(users, eq(users.id, experts.userId))
    .where(eq(experts.id, input.expertId))
    .limit(1);
  const timeZone = expert?.timeZone ?? "UTC";
  const rows = await db
    .select({
      booking: bookings,
      clientAccountName: personNameSql(clientUsers),
    })
    .from(bookings)
    .leftJoin(clientUsers, eq(clientUsers.id, bookings.userId))
    .where(
      and(
        eq(bookings.expertId, input.expertId),
        inArray(bookings.status, ["pending", "confirmed", "completed", "cancelled"]),
      ),
    )
    .orderBy(desc(bookings.startsAt), desc(bookings.id))
    .limit(input.limit ?? 1000);
  const host = new URL(input.origin).host;
  const list = rows.map(({ booking, clientAccountName }): ExpertBookingView => {
    const startsAt = booking.startsAt.getTime();
    const endsAt = booking.endsAt.getTime();
    const start = instantToLocal(startsAt, timeZone);
    const clientName = bookingClientName(booking.name, clientAccountName);
    const event = sessionEvent({
      bookingId: booking.id,
      expertName: expert?.name ?? "Expert",
      clientName,
      viewer: "expert",
      startsAt,
      endsAt,
      origin: input.origin,
      host,
    });
    return {
      id: booking.id,
      date: start.date,
      startTime: start.time,
      endTime: instantToLocal(endsAt, timeZone).time,
      startsAt,
      endsAt,
      duration: booking.duration,
      status: booking.status as ExpertBookingStatus,
      clientName,
      email: booking.email,
      message: booking.notes,
      amount: booking.amount,
      meetingLink:
        booking.status === "confirmed" &&
        meetingLinkIsDue({ startsAt, linkSentAt: booking.linkSentAt?.getTime() ?? null }, input.now.getTime())
          ? booking.meetingLink
          : null,
      cancelledBy:
        booking.status !== "cancelled"
          ? null
          : booking.cancelledBy !== null && booking.cancelledBy === booking.userId
            ? "client"
            : "expert",
      refunded: booking.refundedAt !== null,
      icsPath: `/bookings/${booking.id}/calendar.ics`,
      googleCalendarUrl: googleCalendarUrl(event),
    };
  });
  return { timeZone, bookings: list };
}

/**
 * The client's own bookings as their dashboard shows them: each with its calendar links (made for
 * the client: the expert's name in the title), and the video room only once it is due.
 */
export function clientBookingsView(
  list: readonly ClientBooking[],
  input: { clientName: string; origin: string; now: Date },
) {
  const host = new URL(input.origin).host;
  return list.map(({ linkSentAt, meetingLink, ...booking }) => {
    const event = sessionEvent({
      bookingId: booking.id,
      expertName: booking.expert.name,
      clientName: input.clientName,
      viewer: "client",
      startsAt: booking.startsAt,
      endsAt: booking.endsAt,
      origin: input.origin,
      host,
    });
    const due =
      booking.status === "confirmed" &&
      meetingLinkIsDue({ startsAt: booking.startsAt, linkSentAt }, input.now.getTime());
    return {
      ...booking,
      meetingLink: due ? meetingLink : null,
      icsPath: `/bookings/${booking.id}/calendar.ics`,
      googleCalendarUrl: googleCalendarUrl(event),
    };
  });
}

/**
 * The calendar event of a booking for someone allowed to see it (its client or its expert), or null.
 * The .ics file is made from it.
 */
export async function getCalendarEventForViewer(
  db: Database,
  input: { bookingId: number; viewer: CancelActor; origin: string },
) {
  const expertUsers = alias(users, "expert_user");
  const [row] = await db
    .select({
      booking: bookings,
      expertName: personNameSql(expertUsers),
      clientAccountName: personNameSql(clientUsers),
    })
    .from(bookings)
    .innerJoin(experts, eq(experts.id, bookings.expertId))
    .innerJoin(expertUsers, eq(expertUsers.id, experts.userId))
    .leftJoin(clientUsers, eq(clientUsers.id, bookings.userId))
    .where(
      and(
        eq(bookings.id, input.bookingId),
        ne(bookings.status, "awaiting_payment"),
        ne(bookings.status, "expired"),
      ),
    )
    .limit(1);
  if (!row) return null;
  const { booking } = row;
  const viewer =
    booking.userId === input.viewer.userId
      ? "client"
      : input.viewer.expertId !== null && booking.expertId === input.viewer.expertId
        ? "expert"
        : null;
  if (!viewer) return null;
  return sessionEvent({
    bookingId: booking.id,
    expertName: row.expertName,
    clientName: bookingClientName(booking.name, row.clientAccountName),
    viewer,
    startsAt: booking.startsAt.getTime(),
    endsAt: booking.endsAt.getTime(),
    origin: input.origin,
    host: new URL(input.origin).host,
    cancelled: booking.status === "cancelled",
    paymentProcessing: booking.status === "pending",
  });
}

// ---------------------------------------------------------------------------------------------
// The expert's schedule and switch

/** The expert's own schedule rows (empty: the default applies) and zone, for the editor. */
export async function getScheduleForEditor(db: Database, expertId: number) {
  const [expert, windows] = await db.batch([
    db
      .select({ timeZone: experts.timeZone, isAvailable: experts.isAvailable, customUrl: experts.customUrl })
      .from(experts)
      .where(eq(experts.id, expertId))
      .limit(1),
    db
      .select({
        dayOfWeek: availability.dayOfWeek,
        startTime: availability.startTime,
        endTime: availability.endTime,
      })
      .from(availability)
      .where(eq(availability.expertId, expertId))
      .orderBy(asc(availability.dayOfWeek), asc(availability.startTime)),
  ]);
  if (!expert[0]) return null;
  return {
    timeZone: expert[0].timeZone,
    isAvailable: Boolean(expert[0].isAvailable),
    customUrl: expert[0].customUrl,
    windows,
    isSet: windows.length > 0,
    schedule: [...effectiveSchedule(windows)],
  };
}

/**
 * Replaces the expert's weekly schedule and zone in one batch. Sessions already booked keep their
 * instants: a new schedule only changes which slots new clients see.
 */
export async function saveSchedule(
  db: Database,
  input: { expertId: number; timeZone: string; windows: ScheduleWindow[]; now: Date },
) {
  const statements: Statement[] = [
    db.delete(availability).where(eq(availability.expertId, input.expertId)),
    ...input.windows.map((window) =>
      db.insert(availability).values({ expertId: input.expertId, ...window, createdAt: input.now }),
    ),
    db
      .update(experts)
      .set({ timeZone: input.timeZone, updatedAt: input.now })
      .where(eq(experts.id, input.expertId)),
  ];
  await runBatch(db, statements);
}

/** The Available / Unavailable switch. Returns the expert's custom URL (for cache invalidation). */
export async function setAvailableForBookings(
  db: Database,
  input: { expertId: number; isAvailable: boolean; now: Date },
) {
  const [row] = await db
    .update(experts)
    .set({ isAvailable: input.isAvailable, updatedAt: input.now })
    .where(eq(experts.id, input.expertId))
    .returning({ customUrl: experts.customUrl, isAvailable: experts.isAvailable });
  return row ?? null;
}

/** For the SPEC's GET /api/experts/{id}/bookings: the expert's sessions, optionally by status. */
export async function listBookingsForApi(
  db: Database,
  { expertId, status }: { expertId: number; status: ExpertBookingStatus | null },
) {
  return db
    .select({
      id: bookings.id,
      userId: bookings.userId,
      expertId: bookings.expertId,
      date: bookings.date,
      startTime: bookings.startTime,
      endTime: bookings.endTime,
      startsAt: bookings.startsAt,
      endsAt: bookings.endsAt,
      duration: bookings.duration,
      status: bookings.status,
      name: bookings.name,
      email: bookings.email,
      message: bookings.notes,
      amount: bookings.amount,
    })
    .from(bookings)
    .where(
      and(
        eq(bookings.expertId, expertId),
        status
          ? eq(bookings.status, status)
          : inArray(bookings.status, ["pending", "confirmed", "completed", "cancelled"]),
      ),
    )
    .orderBy(desc(bookings.startsAt))
    .limit(1000);
}
