/**
 * Helpers for the booking tests (inside workerd): experts with a schedule, dates that are on or off
 * it, the requests the booking screen sends, and the rows they leave.
 */
import { env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { parseConfig } from "~/config.server";
import { createDatabase } from "~/db/client.server";
import { availability, bookings, experts, notifications, payments } from "~/db/schema.server";
import { addDays, BOOKING_HORIZON_DAYS, dateInZone, dayOfWeek, type ScheduleWindow } from "~/lib/slots";
import type { BookingDeps } from "~/models/bookings.server";
import { createStripeClient } from "~/services/stripe.server";
import { db } from "./accounts";
import { newExpert, type Person, postJson } from "./questions";

export const MESSAGE = "I'd like to talk through our pricing and the first two hires.";

/** An expert with a session price, zone and (optionally) their own schedule. */
export async function newBookableExpert(
  options: { sessionPrice?: number; timeZone?: string; schedule?: ScheduleWindow[]; prefix?: string } = {},
): Promise<Person & { expertId: number }> {
  const expert = await newExpert(options.prefix ?? "coach");
  await db()
    .update(experts)
    .set({ sessionPrice: options.sessionPrice ?? 12000, timeZone: options.timeZone ?? "America/New_York" })
    .where(eq(experts.id, expert.expertId));
  for (const window of options.schedule ?? []) {
    await db()
      .insert(availability)
      .values({ expertId: expert.expertId, ...window });
  }
  return expert;
}

/**
 * The `n`-th date from `from` days ahead (in `timeZone`) whose day of the week is one of `days`
 * (Monday to Friday by default). Different tests take different `n` so their slots never meet.
 * Past the booking horizon no slot can be booked, so such a date would fail a test only on some
 * days of the year: it throws instead, on every day.
 */
export function bookableDate({
  n = 0,
  from = 3,
  days = [1, 2, 3, 4, 5],
  timeZone = "America/New_York",
} = {}): string {
  const today = dateInZone(Date.now(), timeZone);
  // A day short of the horizon: its last day's slots depend on the hour the test runs.
  const lastBookable = addDays(today, BOOKING_HORIZON_DAYS - 1);
  let date = addDays(today, from);
  let found = -1;
  for (;;) {
    if (days.includes(dayOfWeek(date))) found += 1;
    if (found === n) break;
    date = addDays(date, 1);
  }
  if (date > lastBookable && from < BOOKING_HORIZON_DAYS) {
    throw new Error(`bookableDate({ n: ${n} }) is ${date}, past the booking horizon (${lastBookable})`);
  }
  return date;
}

export type BookingBody = {
  expertId: number;
  date: string;
  time: string;
  name?: string;
  email?: string;
  message?: string;
  timeZone?: string;
  [extra: string]: unknown;
};

/** POST /api/bookings as the booking screen sends it. */
export function book(person: Person, body: BookingBody) {
  return postJson(
    "/api/bookings",
    { name: "Jordan Client", email: "jordan@example.com", message: MESSAGE, ...body },
    person.cookie,
  );
}

export const getBooking = async (id: number) =>
  (await db().select().from(bookings).where(eq(bookings.id, id)))[0];

export const bookingLedger = async (bookingId: number) =>
  (await db().select().from(payments).where(eq(payments.bookingId, bookingId)))[0];

export const bookingsOf = (expertId: number) =>
  db().select().from(bookings).where(eq(bookings.expertId, expertId));

export async function countBookings(expertId: number) {
  const [row] = await db()
    .select({ n: sql<number>`count(*)` })
    .from(bookings)
    .where(eq(bookings.expertId, expertId));
  return row.n;
}

export const notificationKinds = async (userId: number) =>
  (await db().select().from(notifications).where(eq(notifications.userId, userId))).map((row) => row.kind);

/** The model's dependencies as a request would build them (Stripe when configured), at a chosen time. */
export function depsAt(now: Date): BookingDeps {
  const config = parseConfig(env as unknown as Record<string, unknown>);
  return {
    db: createDatabase(env.DB),
    stripe: config.paymentsTestMode ? null : createStripeClient(config.stripe),
    now,
    meetingRoomBase: config.meetingRoomBase,
  };
}
