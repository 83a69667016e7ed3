/**
 * Booking a session in test mode (no Stripe key, as `wrangler dev` runs): the booking screen, the
 * slot rules and every attack of the issue, holds and races decided by the unique index, the
 * expert's calendar and schedule, calendar files, and cancelling. Paying with Stripe is in
 * tests/integration/payments/bookings.test.ts.
 */
import { env, SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { availability, bookings, emailOutbox, experts } from "~/db/schema.server";
import {
  formatInstant,
  formatLongDate,
  formatTime12,
  instantToLocal,
  localToInstant,
  zoneName,
} from "~/lib/slots";
import { createBooking, freeExpiredHolds } from "~/models/bookings.server";
import { getExpertDashboard } from "~/models/experts.server";
import { cacheKeys } from "~/services/cache.server";
import { bookingTimes, insertBooking } from "../factories";
import { BASE, db, get, postForm, postRaw } from "./support/accounts";
import {
  book,
  bookableDate,
  bookingLedger,
  countBookings,
  depsAt,
  getBooking,
  MESSAGE,
  newBookableExpert,
  notificationKinds,
} from "./support/bookings";
import { newAdmin, newClient, notificationsOf, postJson, toastFrom } from "./support/questions";

const HOUR = 60 * 60 * 1000;

type Created = { status: string; bookingId: number; testMode?: boolean; redirectTo?: string };
type Refusal = {
  error: string;
  fieldErrors?: Record<string, string[]>;
  slots?: { time: string; startsAt: number }[];
};

async function bookOk(...args: Parameters<typeof book>): Promise<Created> {
  const response = await book(...args);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Created;
}

describe("the booking screen", () => {
  it("sends a signed-out visitor to /auth with SPEC.md's toast, and back after signing in", async () => {
    const expert = await newBookableExpert();
    const response = await get(`/book/${expert.expertId}`);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/auth?redirectTo=%2Fbook%2F${expert.expertId}`);
    expect(toastFrom(response)).toMatchObject({
      title: "Authentication Required",
      description: "Please log in to book a session.",
      variant: "destructive",
    });
    const client = await newClient();
    const signIn = await postForm("/auth", {
      intent: "login",
      username: client.username,
      password: "client-pass-1",
      redirectTo: `/book/${expert.expertId}`,
    });
    expect(signIn.headers.get("Location")).toBe(`/book/${expert.expertId}`);
  });

  it("shows the expert, the price on the button and the test-mode note, and takes ?expert= too", async () => {
    const expert = await newBookableExpert({ sessionPrice: 12000 });
    const client = await newClient();
    const response = await get(`/book/${expert.expertId}`, client.cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const html = await response.text();
    expect(html).toContain(`Book a Session with ${expert.username} Name`);
    expect(html).toContain("Confirm Booking ($120.00)");
    expect(html).toContain("Test Mode Active");
    expect(html).toContain("Loading expert details...");
    expect(html).toContain("America/New_York");

    const byQuery = await get(`/book?expert=${expert.expertId}`, client.cookie);
    expect(byQuery.status).toBe(302);
    expect(byQuery.headers.get("Location")).toBe(`/book/${expert.expertId}`);
    expect((await get(`/checkout/session/${expert.expertId}`, client.cookie)).headers.get("Location")).toBe(
      `/book/${expert.expertId}`,
    );
  });

  it("says SPEC.md's alert for an expert that does not exist", async () => {
    const client = await newClient();
    for (const path of ["/book/999999", "/book/not-a-number", "/book"]) {
      const response = await get(path, client.cookie);
      expect(response.status, path).toBe(404);
      expect(await response.text()).toContain(
        "This expert could not be found. Please check the URL and try again.",
      );
    }
  });

  it("hides the calendar of an expert who is not taking bookings", async () => {
    const expert = await newBookableExpert();
    await db().update(experts).set({ isAvailable: false }).where(eq(experts.id, expert.expertId));
    const client = await newClient();
    const html = await (await get(`/book/${expert.expertId}`, client.cookie)).text();
    expect(html).toContain("is not taking new bookings right now");
    expect(html).not.toContain("Confirm Booking");
  });
});

describe("booking in test mode", () => {
  it("confirms at once for the expert's price, with a unique meeting room, a ledger line and both told", async () => {
    const expert = await newBookableExpert({ sessionPrice: 12000 });
    const client = await newClient();
    const date = bookableDate({ n: 0 });
    // The browser's price and status are ignored: the server decides both.
    const created = await bookOk(client, {
      expertId: expert.expertId,
      date,
      time: "10:00",
      amount: 1,
      price: 1,
      status: "confirmed",
    });
    expect(created).toMatchObject({ status: "confirmed", testMode: true });
    expect(created.redirectTo).toBe(`/thank-you?booking=${created.bookingId}`);

    const row = await getBooking(created.bookingId);
    expect(row).toMatchObject({
      status: "confirmed",
      userId: client.userId,
      expertId: expert.expertId,
      date,
      startTime: "10:00",
      endTime: "11:00",
      duration: 60,
      amount: 12000,
      name: "Jordan Client",
      email: "jordan@example.com",
      notes: MESSAGE,
      holdExpiresAt: null,
    });
    expect(row.startsAt.getTime()).toBe(localToInstant(date, "10:00", "America/New_York"));
    expect(row.endsAt.getTime() - row.startsAt.getTime()).toBe(HOUR);
    expect(row.meetingLink).toMatch(/^https:\/\/meet\.jit\.si\/ExpertAnswers-[A-Za-z0-9]{20}$/);
    expect(await bookingLedger(created.bookingId)).toMatchObject({
      kind: "booking",
      status: "captured",
      amount: 12000,
      expertId: expert.expertId,
      userId: client.userId,
    });
    expect(await notificationKinds(client.userId)).toEqual(["booking_confirmed"]);
    expect(await notificationKinds(expert.userId)).toEqual(["booking_confirmed"]);
    const mails = await db().select().from(emailOutbox);
    expect(mails.filter((mail) => mail.subject === "Session confirmed")).toHaveLength(1);
    expect(mails.filter((mail) => mail.subject === "New session booked")).toHaveLength(1);
    // The client's zone is unknown to the server: their notice gives the time in UTC too.
    const inUtc = formatInstant(row.startsAt.getTime(), "UTC");
    const expertTime = formatInstant(row.startsAt.getTime(), "America/New_York");
    const [clientNotice] = await notificationsOf(client.userId);
    expect(clientNotice.body).toContain(`on ${expertTime} (${inUtc}) is confirmed`);
    const [expertNotice] = await notificationsOf(expert.userId);
    expect(expertNotice.body).toContain(`on ${expertTime}.`);

    const second = await bookOk(client, { expertId: expert.expertId, date, time: "11:00" });
    expect((await getBooking(second.bookingId)).meetingLink).not.toBe(row.meetingLink);
  });

  it("takes the date and time in the client's own zone when the screen says which", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    const date = bookableDate({ n: 1 });
    const startsAt = localToInstant(date, "10:00", "America/New_York")!;
    const inTokyo = instantToLocal(startsAt, "Asia/Tokyo");
    const created = await bookOk(client, {
      expertId: expert.expertId,
      date: inTokyo.date,
      time: inTokyo.time,
      timeZone: "Asia/Tokyo",
    });
    const row = await getBooking(created.bookingId);
    expect(row.startsAt.getTime()).toBe(startsAt);
    expect(row).toMatchObject({ date, startTime: "10:00", clientTimeZone: "Asia/Tokyo" });
    // The client's notice says the time on their own clock first, the expert's beside it.
    const inTokyoText = formatInstant(startsAt, "Asia/Tokyo");
    const expertTime = formatInstant(startsAt, "America/New_York");
    const [clientNotice] = await notificationsOf(client.userId);
    expect(clientNotice.body).toContain(`on ${inTokyoText} (${expertTime}, the expert's time) is confirmed`);
  });

  it("keeps the UTC instant right across a daylight-saving change between booking and session", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    // Booked on 20 February (New York on EST, UTC-5) for 10 March (EDT, UTC-4).
    const result = await createBooking(depsAt(new Date("2026-02-20T15:00:00Z")), {
      booker: { id: client.userId, username: client.username, name: "Jordan", email: "jordan@example.com" },
      booking: {
        expertId: expert.expertId,
        date: "2026-03-10",
        time: "10:00",
        name: "Jordan",
        email: "jordan@example.com",
        message: MESSAGE,
      },
    });
    expect(result).toMatchObject({ status: "confirmed" });
    if (result.status !== "confirmed") throw new Error("not booked");
    const row = await getBooking(result.bookingId);
    expect(row.startsAt.toISOString()).toBe("2026-03-10T14:00:00.000Z");
    expect(row.endsAt.toISOString()).toBe("2026-03-10T15:00:00.000Z");
    const ics = await (await get(`/bookings/${result.bookingId}/calendar.ics`, client.cookie)).text();
    expect(ics).toContain("DTSTART:20260310T140000Z");
    expect(ics).toContain("DTEND:20260310T150000Z");
  });
});

describe("bad input and attacks: 400, SPEC.md's message, nothing written", () => {
  const cases: [
    name: string,
    body: (date: string) => Record<string, unknown>,
    status: number,
    message: string,
  ][] = [
    [
      "a date in the past",
      () => ({ date: "2020-01-06", time: "10:00" }),
      400,
      "That time has already passed. Please choose a time in the future.",
    ],
    [
      "a weekend",
      () => ({ date: bookableDate({ days: [6] }), time: "10:00" }),
      400,
      "This expert does not take sessions on that day. Please choose another date.",
    ],
    [
      "a start outside the schedule",
      (date) => ({ date, time: "08:00" }),
      400,
      "That time is outside the expert's hours. Please choose one of the listed times.",
    ],
    [
      "a start at the end of the day",
      (date) => ({ date, time: "18:00" }),
      400,
      "That time is outside the expert's hours. Please choose one of the listed times.",
    ],
    [
      "a start not on the hour",
      (date) => ({ date, time: "10:30" }),
      400,
      "Sessions start on the hour. Please choose one of the listed times.",
    ],
    [
      "an invalid date string",
      () => ({ date: "2026-02-30", time: "10:00" }),
      400,
      "Please select a date for your session",
    ],
    [
      "a date that is not a date",
      () => ({ date: "next tuesday", time: "10:00" }),
      400,
      "Please select a date for your session",
    ],
    ["a time that is not a time", (date) => ({ date, time: "ten" }), 400, "Please select a time slot"],
    [
      "no date",
      (date) => ({ date: undefined, time: "10:00", _d: date }),
      400,
      "Please select a date for your session",
    ],
    [
      "a time zone that does not exist",
      (date) => ({ date, time: "10:00", timeZone: "Mars/Olympus" }),
      400,
      "Please choose a valid time zone.",
    ],
    [
      "a date beyond the booking horizon",
      () => ({ date: bookableDate({ from: 90 }), time: "10:00" }),
      400,
      "Sessions can be booked up to 60 days ahead. Please choose an earlier date.",
    ],
    [
      "a short name",
      (date) => ({ date, time: "10:00", name: "J" }),
      400,
      "Name must be at least 2 characters long",
    ],
    [
      "a bad email",
      (date) => ({ date, time: "10:00", email: "nope" }),
      400,
      "Please enter a valid email address",
    ],
    [
      "a short message",
      (date) => ({ date, time: "10:00", message: "hi" }),
      400,
      "Please provide a brief description of what you'd like to discuss",
    ],
  ];

  for (const [name, body, status, message] of cases) {
    it(`refuses ${name}`, async () => {
      const expert = await newBookableExpert();
      const client = await newClient();
      const response = await book(client, {
        expertId: expert.expertId,
        date: "",
        time: "",
        ...body(bookableDate({ n: 2 })),
      } as Parameters<typeof book>[1]);
      expect(response.status).toBe(status);
      expect(((await response.json()) as Refusal).error).toBe(message);
      expect(await countBookings(expert.expertId)).toBe(0);
    });
  }

  it("refuses a day off in the expert's own schedule, and hours outside it", async () => {
    // Tuesdays 13:00 to 16:00 only.
    const expert = await newBookableExpert({
      schedule: [{ dayOfWeek: 2, startTime: "13:00", endTime: "16:00" }],
    });
    const client = await newClient();
    const monday = bookableDate({ days: [1] });
    const tuesday = bookableDate({ days: [2] });
    const dayOff = await book(client, { expertId: expert.expertId, date: monday, time: "13:00" });
    expect(dayOff.status).toBe(400);
    expect(((await dayOff.json()) as Refusal).error).toBe(
      "This expert does not take sessions on that day. Please choose another date.",
    );
    for (const time of ["10:00", "16:00"]) {
      const outside = await book(client, { expertId: expert.expertId, date: tuesday, time });
      expect(outside.status, time).toBe(400);
    }
    expect(await countBookings(expert.expertId)).toBe(0);
    await bookOk(client, { expertId: expert.expertId, date: tuesday, time: "15:00" });
  });

  it("refuses a booking for an unavailable expert (409), a missing one (404) and oneself (400)", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    const date = bookableDate({ n: 3 });
    await db().update(experts).set({ isAvailable: false }).where(eq(experts.id, expert.expertId));
    const unavailable = await book(client, { expertId: expert.expertId, date, time: "10:00" });
    expect(unavailable.status).toBe(409);
    expect(((await unavailable.json()) as Refusal).error).toBe(
      "This expert is not taking new bookings right now.",
    );

    const missing = await book(client, { expertId: 987654321, date, time: "10:00" });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as Refusal).error).toBe(
      "This expert could not be found. Please check the URL and try again.",
    );

    const self = await newBookableExpert();
    const own = await book(self, { expertId: self.expertId, date, time: "10:00" });
    expect(own.status).toBe(400);
    expect(((await own.json()) as Refusal).error).toBe("You can't book a session with yourself.");
    expect(await countBookings(expert.expertId)).toBe(0);
    expect(await countBookings(self.expertId)).toBe(0);
  });

  it("refuses a session whose price changed since the screen showed it (409), booking nothing", async () => {
    const expert = await newBookableExpert({ sessionPrice: 9000 });
    const client = await newClient();
    const date = bookableDate({ n: 4 });
    await db().update(experts).set({ sessionPrice: 12000 }).where(eq(experts.id, expert.expertId));
    const stale = await book(client, {
      expertId: expert.expertId,
      date,
      time: "10:00",
      expectedAmount: 9000,
    });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({
      reason: "price_changed",
      error: "The price of this session has changed to $120.00. Please check it and try again.",
    });
    expect(await countBookings(expert.expertId)).toBe(0);

    const current = await book(client, {
      expertId: expert.expertId,
      date,
      time: "10:00",
      expectedAmount: 12000,
    });
    expect(current.status).toBe(201);
    expect(await getBooking(((await current.json()) as { bookingId: number }).bookingId)).toMatchObject({
      amount: 12000,
    });
  });

  it("refuses requests that are not JSON, signed out, or from another site", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    const body = {
      expertId: expert.expertId,
      date: bookableDate(),
      time: "10:00",
      name: "Jo",
      email: "j@x.io",
      message: MESSAGE,
    };
    expect((await postJson("/api/bookings", body)).status).toBe(401);
    expect(
      (
        await postRaw("/api/bookings", new URLSearchParams({ date: "x" }), {
          cookie: client.cookie,
          contentType: "application/x-www-form-urlencoded",
        })
      ).status,
    ).toBe(415);
    expect(
      (
        await postRaw("/api/bookings", JSON.stringify(body), {
          cookie: client.cookie,
          contentType: "application/json",
          origin: "https://evil.example",
        })
      ).status,
    ).toBe(403);
    expect(await countBookings(expert.expertId)).toBe(0);
  });
});

describe("holds and races", () => {
  it("lets exactly one of several clients booking the same slot at once win; the others get 409 and the fresh list", async () => {
    const expert = await newBookableExpert();
    const clients = await Promise.all([newClient(), newClient(), newClient(), newClient(), newClient()]);
    const date = bookableDate({ n: 4 });
    const responses = await Promise.all(
      clients.map((client) => book(client, { expertId: expert.expertId, date, time: "14:00" })),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    for (const response of responses.filter((item) => item.status === 409)) {
      const body = (await response.json()) as Refusal;
      expect(body.error).toBe(
        "Sorry, that time was just booked by someone else. Please choose another time.",
      );
      expect(body.slots?.map((slot) => slot.time)).not.toContain("14:00");
      expect(body.slots?.map((slot) => slot.time)).toContain("15:00");
    }
    const live = (await db().select().from(bookings).where(eq(bookings.expertId, expert.expertId))).filter(
      (row) => row.status !== "expired" && row.status !== "cancelled",
    );
    expect(live).toHaveLength(1);
  });

  it("answers a client's retry of a time they booked with their booking, and only others with 'taken'", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    const date = bookableDate({ n: 4 });
    const first = await bookOk(client, { expertId: expert.expertId, date, time: "11:00" });
    // The answer to the first try was lost; the screen sends it again.
    const retry = await book(client, { expertId: expert.expertId, date, time: "11:00" });
    expect(retry.status).toBe(201);
    expect(await retry.json()).toMatchObject({ bookingId: first.bookingId, status: "confirmed" });
    const other = await book(await newClient(), { expertId: expert.expertId, date, time: "11:00" });
    expect(other.status).toBe(409);
    expect(((await other.json()) as Refusal).error).toBe(
      "Sorry, that time was just booked by someone else. Please choose another time.",
    );
    const live = (await db().select().from(bookings).where(eq(bookings.expertId, expert.expertId))).filter(
      (row) => row.status !== "expired" && row.status !== "cancelled",
    );
    expect(live.map((row) => row.id)).toEqual([first.bookingId]);
  });

  it("never offers or books an hour that overlaps a session booked on another half hour", async () => {
    // A session at 10:30, as one booked before the expert moved to a zone with a half-hour offset.
    const expert = await newBookableExpert();
    const client = await newClient();
    const date = bookableDate({ n: 5 });
    await insertBooking(db(), {
      userId: client.userId,
      expertId: expert.expertId,
      ...bookingTimes(date, "10:30", "America/New_York"),
      status: "confirmed",
    });
    const offered = (await (
      await get(`/api/experts/${expert.expertId}/availability?date=${date}`)
    ).json()) as {
      slots: { time: string }[];
    };
    const times = offered.slots.map((slot) => slot.time);
    expect(times).not.toContain("10:00");
    expect(times).not.toContain("11:00");
    expect(times).toContain("12:00");
    for (const time of ["10:00", "11:00"]) {
      const refused = await book(client, { expertId: expert.expertId, date, time });
      expect(refused.status, time).toBe(409);
      expect(((await refused.json()) as Refusal).slots?.map((slot) => slot.time)).not.toContain("11:00");
    }
    await bookOk(client, { expertId: expert.expertId, date, time: "12:00" });
  });

  it("keeps a slot held by an unpaid booking, and frees it once the hold passes 15 minutes", async () => {
    const expert = await newBookableExpert();
    const [holder, other] = await Promise.all([newClient(), newClient()]);
    const date = bookableDate({ n: 5 });
    const startsAt = localToInstant(date, "11:00", "America/New_York")!;
    const heldAt = Date.now();
    const hold = await insertBooking(db(), {
      expertId: expert.expertId,
      userId: holder.userId,
      date,
      startTime: "11:00",
      endTime: "12:00",
      startsAt: new Date(startsAt),
      endsAt: new Date(startsAt + HOUR),
      status: "awaiting_payment",
      holdExpiresAt: new Date(heldAt + 15 * 60 * 1000),
      confirmedAt: null,
    });

    const availabilityOn = async () =>
      (
        (await (await get(`/api/experts/${expert.expertId}/availability?date=${date}`)).json()) as {
          slots: { time: string }[];
        }
      ).slots.map((slot) => slot.time);
    expect(await availabilityOn()).not.toContain("11:00");
    const taken = await book(other, { expertId: expert.expertId, date, time: "11:00" });
    expect(taken.status).toBe(409);

    // Fourteen minutes later the hold still stands; sixteen minutes later it is gone.
    expect((await freeExpiredHolds(depsAt(new Date(heldAt + 14 * 60 * 1000)))).expired).toBe(0);
    expect((await getBooking(hold.id)).status).toBe("awaiting_payment");
    // A lapsed hold no longer blocks the slot, even before the scheduled task has run.
    await db()
      .update(bookings)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(bookings.id, hold.id));
    expect(await availabilityOn()).toContain("11:00");
    const won = await bookOk(other, { expertId: expert.expertId, date, time: "11:00" });
    expect(won.status).toBe("confirmed");
    expect((await getBooking(hold.id)).status).toBe("expired");
  });

  it("has the scheduled task free holds that ran out (freeExpiredHolds)", async () => {
    const expert = await newBookableExpert();
    const holder = await newClient();
    const date = bookableDate({ n: 6 });
    const startsAt = localToInstant(date, "09:00", "America/New_York")!;
    const now = Date.now();
    const hold = await insertBooking(db(), {
      expertId: expert.expertId,
      userId: holder.userId,
      date,
      startTime: "09:00",
      endTime: "10:00",
      startsAt: new Date(startsAt),
      endsAt: new Date(startsAt + HOUR),
      status: "awaiting_payment",
      holdExpiresAt: new Date(now + 15 * 60 * 1000),
      confirmedAt: null,
    });
    const sweep = await freeExpiredHolds(depsAt(new Date(now + 16 * 60 * 1000)));
    expect(sweep.expired).toBeGreaterThanOrEqual(1);
    expect((await getBooking(hold.id)).status).toBe("expired");
    // Running it again changes nothing.
    await freeExpiredHolds(depsAt(new Date(now + 16 * 60 * 1000)));
    expect((await getBooking(hold.id)).status).toBe("expired");
  });
});

describe("cancelling", () => {
  async function confirmedBooking(n: number, daysAhead = 3) {
    const expert = await newBookableExpert({ sessionPrice: 9000 });
    const client = await newClient();
    const created = await bookOk(client, {
      expertId: expert.expertId,
      date: bookableDate({ n, from: daysAhead }),
      time: "13:00",
    });
    return { expert, client, bookingId: created.bookingId };
  }

  const cancel = (bookingId: number, cookie: string) =>
    postRaw(`/bookings/${bookingId}/cancel`, null, { cookie });

  it("lets the client cancel a day ahead: nothing to refund in test mode, the slot free again, the expert told", async () => {
    const { expert, client, bookingId } = await confirmedBooking(7);
    const response = await cancel(bookingId, client.cookie);
    expect(response.status).toBe(200);
    // Test mode charged nothing: the line is cancelled, not refunded, and nobody is told of a refund.
    expect(await response.json()).toMatchObject({
      ok: true,
      refund: "none",
      message: "The session was cancelled. It was booked in test mode, so no payment was taken.",
    });
    const row = await getBooking(bookingId);
    expect(row).toMatchObject({ status: "cancelled", cancelledBy: client.userId });
    expect(row.refundedAt).toBeNull();
    expect(await bookingLedger(bookingId)).toMatchObject({ status: "cancelled" });
    const csv = await (await get("/expert/earnings/export", expert.cookie)).text();
    expect(csv).toMatch(/Session,cancelled,not counted,/);
    expect(csv).not.toContain("refunded");
    expect(await notificationKinds(expert.userId)).toContain("booking_cancelled");
    expect(await notificationKinds(client.userId)).not.toContain("booking_cancelled");

    const again = await newClient();
    await bookOk(again, { expertId: expert.expertId, date: row.date, time: "13:00" });
  });

  it("refuses a second cancel without refunding again", async () => {
    const { client, bookingId } = await confirmedBooking(8);
    expect((await cancel(bookingId, client.cookie)).status).toBe(200);
    const refundedAt = (await getBooking(bookingId)).refundedAt;
    const second = await cancel(bookingId, client.cookie);
    expect(second.status).toBe(409);
    expect(((await second.json()) as { message: string }).message).toBe(
      "This session has already been cancelled.",
    );
    expect((await getBooking(bookingId)).refundedAt).toEqual(refundedAt);
  });

  it("answers anyone else as if the booking did not exist, and changes nothing", async () => {
    const { bookingId } = await confirmedBooking(9);
    const stranger = await newClient();
    const otherExpert = await newBookableExpert();
    const admin = await newAdmin();
    const missing = await cancel(99_999_999, stranger.cookie);
    expect(missing.status).toBe(404);
    const { message } = (await missing.json()) as { message: string };
    expect(message).toBe("Booking not found.");
    for (const cookie of [stranger.cookie, otherExpert.cookie, admin.cookie]) {
      const response = await cancel(bookingId, cookie);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ ok: false, message });
    }
    expect((await getBooking(bookingId)).status).toBe("confirmed");
    expect(await bookingLedger(bookingId)).toMatchObject({ status: "captured" });
  });

  it("lets a client cancel only up to 24 hours before; the expert may still cancel, and the client is told", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    const soon = await insertBooking(db(), {
      expertId: expert.expertId,
      userId: client.userId,
      startsAt: new Date(Date.now() + 20 * HOUR),
      endsAt: new Date(Date.now() + 21 * HOUR),
      status: "confirmed",
    });
    const late = await cancel(soon.id, client.cookie);
    expect(late.status).toBe(409);
    expect(((await late.json()) as { message: string }).message).toBe(
      "Sessions can only be cancelled up to 24 hours before they start.",
    );
    expect((await getBooking(soon.id)).status).toBe("confirmed");

    const byExpert = await cancel(soon.id, expert.cookie);
    expect(byExpert.status).toBe(200);
    expect(await notificationKinds(client.userId)).toContain("booking_cancelled");
    expect((await getBooking(soon.id)).cancelledBy).toBe(expert.userId);
    // Test mode charged nothing: the client's notice speaks of no refund.
    const [notice] = (await notificationsOf(client.userId)).filter((row) => row.kind === "booking_cancelled");
    expect(notice.title).toBe("Session cancelled");
    expect(notice.body).not.toMatch(/refund/i);
  });

  it("sends a cancel from a page without JavaScript back with a toast", async () => {
    const { client, bookingId } = await confirmedBooking(10);
    const response = await SELF_navigation(
      `/bookings/${bookingId}/cancel?redirectTo=/dashboard/bookings`,
      client.cookie,
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard/bookings");
    expect(toastFrom(response)).toMatchObject({ title: "Session cancelled" });
  });
});

/** A top-level form post (Sec-Fetch-Mode: navigate), as a browser without JavaScript sends it. */
async function SELF_navigation(path: string, cookie: string) {
  const { SELF } = await import("cloudflare:test");
  return SELF.fetch(`https://marketplace.test${path}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      Origin: "https://marketplace.test",
      Host: "marketplace.test",
      Cookie: cookie,
      "Sec-Fetch-Mode": "navigate",
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: "",
  });
}

describe("calendar files", () => {
  it("lets the client and the expert download the .ics with UTC times; nobody else", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    const date = bookableDate({ n: 11 });
    const created = await bookOk(client, { expertId: expert.expertId, date, time: "16:00" });
    const row = await getBooking(created.bookingId);
    const stamp = row.startsAt.toISOString().replace(/[-:]/g, "").replace(".000", "");
    for (const person of [client, expert]) {
      const response = await get(`/bookings/${created.bookingId}/calendar.ics`, person.cookie);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
      expect(response.headers.get("Content-Disposition")).toBe(
        `attachment; filename="session-${created.bookingId}.ics"`,
      );
      const ics = await response.text();
      expect(ics).toContain(`DTSTART:${stamp}`);
      expect(ics).toContain("\r\nSEQUENCE:1\r\n");
      expect(ics).toContain("\r\nORGANIZER;CN=Expert Answers:mailto:support@expertanswers.example\r\n");
    }
    // A later file replaces the one a calendar imported: a higher SEQUENCE, and a CANCEL it obeys.
    const cancelled = await SELF_navigation(`/bookings/${created.bookingId}/cancel`, client.cookie);
    expect(cancelled.status).toBe(302);
    const afterCancel = await (
      await get(`/bookings/${created.bookingId}/calendar.ics`, expert.cookie)
    ).text();
    expect(afterCancel).toContain("\r\nMETHOD:CANCEL\r\n");
    expect(afterCancel).toContain("\r\nSEQUENCE:2\r\n");
    expect(afterCancel).toContain("\r\nSTATUS:CANCELLED\r\n");
    expect(afterCancel).toContain("\r\nORGANIZER;CN=Expert Answers:mailto:");
    const stranger = await newClient();
    expect((await get(`/bookings/${created.bookingId}/calendar.ics`, stranger.cookie)).status).toBe(404);
    expect((await get(`/bookings/${created.bookingId}/calendar.ics`)).status).toBe(302);
  });
});

describe("the client's dashboard", () => {
  it("shows calendar links and Cancel for a session more than a day away, and explains why not later", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    const created = await bookOk(client, {
      expertId: expert.expertId,
      date: bookableDate({ n: 12 }),
      time: "12:00",
    });
    await insertBooking(db(), {
      expertId: expert.expertId,
      userId: client.userId,
      startsAt: new Date(Date.now() + 5 * HOUR),
      endsAt: new Date(Date.now() + 6 * HOUR),
      status: "confirmed",
    });
    await insertBooking(db(), {
      expertId: expert.expertId,
      userId: client.userId,
      startsAt: new Date(Date.now() + 50 * HOUR),
      endsAt: new Date(Date.now() + 51 * HOUR),
      status: "cancelled",
    });
    const html = await (await get("/dashboard/bookings", client.cookie)).text();
    expect(html).toContain(`href="/bookings/${created.bookingId}/calendar.ics"`);
    // A cancelled row's actions say what became of the money (test mode took none), not "Cancelled" twice.
    const cancelledRow = html.match(/<tr class="booking-row" data-status="cancelled">.*?<\/tr>/s)?.[0];
    expect(cancelledRow).toContain("No payment was taken");
    expect(cancelledRow?.match(/Cancelled/g)).toHaveLength(1);
    expect(html).toContain("https://calendar.google.com/calendar/render?action=TEMPLATE");
    expect(html).toContain("Cancel Session");
    // Without JavaScript (no dialog) a disclosure asks, and its form posts back to this page.
    expect(html.split("__remixContext")[0]).toMatch(
      new RegExp(
        `<details class="confirm-disclosure"><summary[^>]*>Cancel Session</summary>.*?<form method="post" action="/bookings/${created.bookingId}/cancel\\?redirectTo=%2Fdashboard%2Fbookings"><button type="submit"[^>]*>Yes, cancel</button>`,
      ),
    );
    expect(html).toContain("Sessions can be cancelled up to 24 hours before they start");
    expect(html).toMatch(/can no longer be cancelled here\. <a[^>]* href="\/contact">Contact us<\/a>/);
    // The video room stays private until it is sent, 15 minutes before.
    expect(html).not.toContain("meet.jit.si");
  });
});

describe("a session after its expert changes time zone", () => {
  it("shows everyone the booked instant, on the expert's new wall clock, not the one stored at booking", async () => {
    const expert = await newBookableExpert({ timeZone: "Asia/Kolkata" });
    const client = await newClient();
    const created = await bookOk(client, {
      expertId: expert.expertId,
      date: bookableDate({ n: 2, timeZone: "Asia/Kolkata" }),
      time: "09:00",
    });
    const row = await getBooking(created.bookingId);
    expect(row.startTime).toBe("09:00");

    // The expert moves to Los Angeles on the Availability screen.
    const weekdays = Object.fromEntries(
      [0, 1, 2, 3, 4, 5, 6].flatMap((day) => [
        ...(day >= 1 && day <= 5 ? [[`days[${day}].enabled`, "on"]] : []),
        [`days[${day}].start`, "09:00"],
        [`days[${day}].end`, "17:00"],
      ]),
    );
    const moved = await postForm(
      "/expert/availability",
      { intent: "schedule", timeZone: "America/Los_Angeles", ...weekdays },
      { cookie: expert.cookie },
    );
    expect(moved.status).toBe(200);

    // 09:00 in Kolkata is 03:30 UTC: the evening before in Los Angeles.
    const start = instantToLocal(row.startsAt, "America/Los_Angeles");
    const end = instantToLocal(row.endsAt, "America/Los_Angeles");
    expect(start.time).toMatch(/^(19|20):30$/);
    const zone = zoneName(row.startsAt.getTime(), "America/Los_Angeles");

    // The client's bookings, as the server renders them (the expert's zone until the page is live).
    for (const path of ["/dashboard", "/dashboard/bookings"]) {
      const markup = (await (await get(path, client.cookie)).text()).split("__remixContext")[0];
      expect(markup).toContain(formatLongDate(start.date));
      expect(markup).toContain(
        `${formatTime12(start.time)} – ${formatTime12(end.time)} <span class="muted">${zone}</span>`,
      );
      expect(markup).not.toContain("9:00 AM – 10:00 AM");
    }
    const mine = (await (await get("/api/bookings", client.cookie)).json()) as Record<string, unknown>[];
    expect(mine).toEqual([
      expect.objectContaining({
        id: created.bookingId,
        date: start.date,
        startTime: start.time,
        endTime: end.time,
        expertTimeZone: "America/Los_Angeles",
      }),
    ]);

    // The expert's dashboard and earnings export read it on their new clock too.
    const dashboard = await getExpertDashboard(db(), { expertId: expert.expertId, now: new Date() });
    expect(dashboard.upcomingList).toEqual([
      expect.objectContaining({
        id: created.bookingId,
        date: start.date,
        startTime: start.time,
        endTime: end.time,
      }),
    ]);
    const csv = await (await get("/expert/earnings/export", expert.cookie)).text();
    expect(csv).toContain(`Session on ${start.date} at ${start.time}`);
  });
});

describe("the expert's calendar and schedule", () => {
  it("lists the expert's sessions by day and in the tabs, and the dashboard counts the same ones", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    const first = await bookOk(client, {
      expertId: expert.expertId,
      date: bookableDate({ n: 13 }),
      time: "10:00",
      name: "Casey Upcoming",
    });
    const second = await bookOk(client, {
      expertId: expert.expertId,
      date: bookableDate({ n: 14 }),
      time: "10:00",
      name: "Robin Gone",
    });
    await postRaw(`/bookings/${second.bookingId}/cancel`, null, { cookie: client.cookie });
    const response = await get("/expert/bookings", expert.cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const text of [
      "Upcoming (1)",
      "Past (0)",
      "Cancelled (1)",
      "All (2)",
      "Date &amp; Time",
      "Casey Upcoming",
      "Robin Gone",
    ]) {
      expect(html, text).toContain(text);
    }
    const dashboard = await getExpertDashboard(db(), { expertId: expert.expertId, now: new Date() });
    expect(dashboard.upcomingBookings).toBe(1);
    expect(dashboard.upcomingList.map((booking) => booking.id)).toEqual([first.bookingId]);
    // Another expert never sees them.
    const other = await newBookableExpert();
    expect(await (await get("/expert/bookings", other.cookie)).text()).not.toContain("Casey Upcoming");
    expect((await get(`/api/experts/${expert.expertId}/bookings`, other.cookie)).status).toBe(403);
    const own = await get(`/api/experts/${expert.expertId}/bookings?status=confirmed`, expert.cookie);
    expect(((await own.json()) as { id: number }[]).map((row) => row.id)).toEqual([first.bookingId]);
    // An admin reads them as they read the expert's questions; a client does not.
    const asAdmin = await get(
      `/api/experts/${expert.expertId}/bookings?status=confirmed`,
      (await newAdmin()).cookie,
    );
    expect(asAdmin.status).toBe(200);
    expect(((await asAdmin.json()) as { id: number }[]).map((row) => row.id)).toEqual([first.bookingId]);
    expect((await get(`/api/experts/${expert.expertId}/bookings`, client.cookie)).status).toBe(403);
  });

  it("names a session whose client deleted their account the same on every portal page, with 12-hour times", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    // A session under 24 hours away keeps the account open until it ends; one can still belong to a
    // deleted account (paid for as the account closed), with the name given at booking blanked.
    const closed = await SELF.fetch(`${BASE}/api/users/${client.userId}`, {
      method: "DELETE",
      headers: { cookie: client.cookie },
    });
    expect(closed.status).toBe(200);
    const startsAt = new Date(Math.ceil((Date.now() + 5 * HOUR) / HOUR) * HOUR);
    await insertBooking(db(), {
      expertId: expert.expertId,
      userId: client.userId,
      name: null,
      startsAt,
      endsAt: new Date(startsAt.getTime() + HOUR),
      status: "confirmed",
    });

    const dashboard = await getExpertDashboard(db(), { expertId: expert.expertId, now: new Date() });
    expect(dashboard.upcomingList.map((row) => row.clientName)).toEqual(["Deleted account"]);
    const dashboardHtml = await (await get("/expert/dashboard", expert.cookie)).text();
    expect(dashboardHtml).toMatch(/>Deleted account(<!-- -->)? · (<!-- -->)?60(<!-- -->)? minutes</);
    // Hours as every other portal page writes them.
    const start = instantToLocal(startsAt.getTime(), "America/New_York");
    const end = instantToLocal(startsAt.getTime() + HOUR, "America/New_York");
    expect(dashboardHtml).toContain(` · ${formatTime12(start.time)} – ${formatTime12(end.time)}<`);
    expect(await (await get("/expert/availability", expert.cookie)).text()).toContain("Deleted account");
    expect(await (await get("/expert/bookings", expert.cookie)).text()).toContain("Deleted account");
  });

  it("lists the next 7 days under Upcoming Appointments, or says there are none", async () => {
    const expert = await newBookableExpert();
    const empty = await (await get("/expert/availability", expert.cookie)).text();
    expect(empty).toContain("Available for Bookings");
    expect(empty).toContain("No upcoming appointments scheduled");
    expect(empty).toContain("Weekly Schedule");

    const client = await newClient();
    await insertBooking(db(), {
      expertId: expert.expertId,
      userId: client.userId,
      name: "Sam Soon",
      startsAt: new Date(Date.now() + 3 * 24 * HOUR),
      endsAt: new Date(Date.now() + 3 * 24 * HOUR + HOUR),
      status: "confirmed",
    });
    await insertBooking(db(), {
      expertId: expert.expertId,
      userId: client.userId,
      name: "Lee Later",
      startsAt: new Date(Date.now() + 10 * 24 * HOUR),
      endsAt: new Date(Date.now() + 10 * 24 * HOUR + HOUR),
      status: "confirmed",
    });
    const html = await (await get("/expert/availability", expert.cookie)).text();
    expect(html).toContain("Sam Soon");
    expect(html).toContain("60 minutes");
    expect(html).not.toContain("Lee Later");
    expect(html).not.toContain("No upcoming appointments scheduled");
  });

  it("saves a weekly schedule and zone that the slots then follow", async () => {
    const expert = await newBookableExpert();
    const days = (enabled: number[], start = "10:00", end = "14:00") =>
      Object.fromEntries(
        [0, 1, 2, 3, 4, 5, 6].flatMap((day) => [
          ...(enabled.includes(day) ? [[`days[${day}].enabled`, "on"]] : []),
          [`days[${day}].start`, start],
          [`days[${day}].end`, end],
        ]),
      );
    const saved = await postForm(
      "/expert/availability",
      { intent: "schedule", timeZone: "Europe/London", ...days([6]) },
      { cookie: expert.cookie },
    );
    expect(saved.status).toBe(200);
    const rows = await db().select().from(availability).where(eq(availability.expertId, expert.expertId));
    expect(rows.map(({ dayOfWeek, startTime, endTime }) => ({ dayOfWeek, startTime, endTime }))).toEqual([
      { dayOfWeek: 6, startTime: "10:00", endTime: "14:00" },
    ]);
    const [zone] = await db()
      .select({ timeZone: experts.timeZone })
      .from(experts)
      .where(eq(experts.id, expert.expertId));
    expect(zone.timeZone).toBe("Europe/London");

    const slots = (await (await get(`/api/experts/${expert.expertId}/availability`)).json()) as {
      slots: { date: string; time: string }[];
    };
    expect(new Set(slots.slots.map((slot) => slot.time))).toEqual(
      new Set(["10:00", "11:00", "12:00", "13:00"]),
    );
    const client = await newClient();
    const saturday = bookableDate({ days: [6], timeZone: "Europe/London" });
    await bookOk(client, { expertId: expert.expertId, date: saturday, time: "13:00" });
    const weekday = await book(client, {
      expertId: expert.expertId,
      date: bookableDate({ timeZone: "Europe/London" }),
      time: "10:00",
    });
    expect(weekday.status).toBe(400);
  });

  it("names a zone the runtime still calls by its old name by its current one", async () => {
    // Intl resolves "Asia/Kolkata" to "Asia/Calcutta", which is what the editor stores.
    const expert = await newBookableExpert({ timeZone: "Asia/Calcutta" });
    const html = (await (await get("/expert/bookings", expert.cookie)).text()).split("__remixContext")[0];
    expect(html).toContain("Times are in your time zone, Asia/Kolkata (");
    expect(html).not.toContain("Calcutta");
  });

  it("refuses a time zone that does not exist, an empty week and an end before the start", async () => {
    const expert = await newBookableExpert();
    const base = { intent: "schedule", "days[1].start": "09:00", "days[1].end": "18:00" };
    const cases: [Record<string, string>, string][] = [
      [{ ...base, "days[1].enabled": "on", timeZone: "Mars/Olympus" }, "Please choose a valid time zone."],
      [{ ...base, timeZone: "UTC" }, "Choose at least one day."],
      [
        { ...base, "days[1].enabled": "on", "days[1].end": "08:00", timeZone: "UTC" },
        "The end must be later than the start.",
      ],
      // Not times at all, on a day that is on: a message, not the error screen.
      [
        { ...base, "days[1].enabled": "on", "days[1].end": "99:99", timeZone: "UTC" },
        "Please choose a time.",
      ],
      [
        { ...base, "days[1].enabled": "on", "days[1].start": "9am", timeZone: "UTC" },
        "Please choose a time.",
      ],
    ];
    for (const [fields, message] of cases) {
      const response = await postForm("/expert/availability", fields, { cookie: expert.cookie });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain(message);
    }
    expect(await db().select().from(availability).where(eq(availability.expertId, expert.expertId))).toEqual(
      [],
    );

    // Without JavaScript the refused schedule comes back as it was sent, next to its message.
    const refused = await postForm(
      "/expert/availability",
      {
        ...base,
        "days[1].enabled": "on",
        "days[1].start": "17:00",
        "days[1].end": "09:00",
        timeZone: "Europe/Paris",
      },
      { cookie: expert.cookie },
    );
    const markup = (await refused.text()).split("__remixContext")[0];
    const selectNamed = (name: string) =>
      markup.match(
        new RegExp(`<select[^>]*name="${name.replace(/[[\].]/g, "\\$&")}"[\\s\\S]*?</select>`),
      )?.[0] ?? "";
    expect(selectNamed("days[1].start")).toMatch(/value="17:00" selected=""/);
    expect(selectNamed("days[1].end")).toMatch(/value="09:00" selected=""/);
    expect(selectNamed("timeZone")).toMatch(/value="Europe\/Paris" selected=""/);
    const [zone] = await db()
      .select({ timeZone: experts.timeZone })
      .from(experts)
      .where(eq(experts.id, expert.expertId));
    expect(zone.timeZone).toBe("America/New_York");
  });

  it("switches bookings off and on for the expert's own profile only, refreshing the cached profile", async () => {
    const expert = await newBookableExpert();
    await env.CACHE.put(cacheKeys.expertProfile(expert.expertId), JSON.stringify({ value: "stale" }));
    const off = await patch(`/api/experts/${expert.expertId}`, { isAvailable: false }, expert.cookie);
    expect(off.status).toBe(200);
    expect(await off.json()).toEqual({ id: expert.expertId, isAvailable: false });
    expect(await env.CACHE.get(cacheKeys.expertProfile(expert.expertId))).toBeNull();
    const [row] = await db()
      .select({ isAvailable: experts.isAvailable })
      .from(experts)
      .where(eq(experts.id, expert.expertId));
    expect(row.isAvailable).toBe(false);
    expect(await (await get("/expert/availability", expert.cookie)).text()).toContain(
      "Unavailable for Bookings",
    );

    const other = await newBookableExpert();
    expect((await patch(`/api/experts/${expert.expertId}`, { isAvailable: true }, other.cookie)).status).toBe(
      403,
    );
    expect(
      (await patch(`/api/experts/${expert.expertId}`, { isAvailable: true, sessionPrice: 1 }, expert.cookie))
        .status,
    ).toBe(400);
    expect(
      (await patch(`/api/experts/${expert.expertId}`, { isAvailable: true }, expert.cookie)).status,
    ).toBe(200);
  });

  it("keeps sessions already booked when bookings are switched off", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    const created = await bookOk(client, {
      expertId: expert.expertId,
      date: bookableDate({ n: 15 }),
      time: "09:00",
    });
    await patch(`/api/experts/${expert.expertId}`, { isAvailable: false }, expert.cookie);
    expect((await getBooking(created.bookingId)).status).toBe("confirmed");
    expect(await (await get("/expert/bookings", expert.cookie)).text()).toContain("Upcoming (1)");
    const confirmedRows = await db()
      .select()
      .from(bookings)
      .where(and(eq(bookings.expertId, expert.expertId), eq(bookings.status, "confirmed")));
    expect(confirmedRows).toHaveLength(1);
  });
});

function patch(path: string, body: unknown, cookie: string) {
  return import("cloudflare:test").then(({ SELF }) =>
    SELF.fetch(`https://marketplace.test${path}`, {
      method: "PATCH",
      headers: {
        Origin: "https://marketplace.test",
        Host: "marketplace.test",
        Cookie: cookie,
        "Content-Type": "application/json",
      },
      body: JSON.stringify(body),
    }),
  );
}
