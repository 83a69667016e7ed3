/**
 * Paying for a session with Stripe configured (against the local fake of its API): the hold and its
 * PaymentIntent, confirmation by the browser's return and by the webhook, races, holds that lapse
 * (and payments that arrive after), and cancelling with a refund made exactly once.
 */
import { eq } from "drizzle-orm";
import { decode } from "turbo-stream";
import { describe, expect, it } from "vitest";
import { bookings, users } from "~/db/schema.server";
import { localToInstant } from "~/lib/slots";
import { BOOKING_REFUSALS, freeExpiredHolds, refundBooking } from "~/models/bookings.server";
import { deleteUserAccount } from "~/models/users.server";
import { MAX_NETWORK_RETRIES } from "~/services/stripe.server";
import { db, get, postForm, postRaw } from "../support/accounts";
import {
  book,
  bookableDate,
  bookingLedger,
  bookingsOf,
  countBookings,
  depsAt,
  getBooking,
  newBookableExpert,
  notificationKinds,
} from "../support/bookings";
import {
  getQuestion,
  newClient,
  notificationsOf,
  type Person,
  pendingQuestion,
  postJson,
  toastFrom,
} from "../support/questions";
import { refundedCharge, sendWebhook, stripeEvent, stripeFake } from "../support/stripe";

type Held = {
  status: string;
  bookingId: number;
  paymentIntentId: string;
  clientSecret: string;
  amount: number;
  holdExpiresAt: number;
};

// Each test takes its own weekday, counted from three days ahead, while the booking horizon has
// any left; then they are taken again from the first. Every test has its own expert and clients, so
// a shared day holds no shared slot.
let nextDay = 0;
const freshDate = (): string => {
  try {
    return bookableDate({ n: nextDay++ });
  } catch {
    nextDay = 0;
    return bookableDate({ n: nextDay++ });
  }
};

async function hold(client: Person, expertId: number, date: string, time = "10:00", extra = {}) {
  const response = await book(client, { expertId, date, time, ...extra });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Held;
}

/** A client's hold that ran out, and the same slot held since by another client. */
async function lapsedHoldRetaken(sessionPrice = 15000) {
  const expert = await newBookableExpert({ sessionPrice });
  const [slow, fast] = await Promise.all([newClient(), newClient()]);
  const date = freshDate();
  const held = await hold(slow, expert.expertId, date);
  await db()
    .update(bookings)
    .set({ holdExpiresAt: new Date(Date.now() - 1000) })
    .where(eq(bookings.id, held.bookingId));
  const taken = await hold(fast, expert.expertId, date);
  return { slow, fast, held, taken };
}

/** The booking screen's loader data, as Remix sends it to the browser (a single-fetch `.data` request). */
async function bookingScreenData(path: string, cookie: string) {
  const response = await get(path, cookie);
  expect(response.status).toBe(200);
  const decoded = await decode(response.body!);
  await decoded.done;
  const routes = decoded.value as Record<string, { data: { busy: number[]; retry: unknown } }>;
  return routes["routes/book.$expertId"].data;
}

const confirm = (client: Person, bookingId: number, paymentIntentId: string) =>
  postJson(`/api/bookings/${bookingId}/payment`, { paymentIntentId }, client.cookie);

/** A hold whose bank payment is processing (the browser came back; the money has not arrived). */
async function bankPaymentProcessing() {
  const expert = await newBookableExpert({ sessionPrice: 15000 });
  const client = await newClient();
  const held = await hold(client, expert.expertId, freshDate());
  await stripeFake.setStatus(held.paymentIntentId, "processing");
  expect((await confirm(client, held.bookingId, held.paymentIntentId)).status).toBe(200);
  expect((await getBooking(held.bookingId)).status).toBe("pending");
  return { expert, client, held };
}

async function paidBooking(price = 15000) {
  const expert = await newBookableExpert({ sessionPrice: price });
  const client = await newClient();
  const date = freshDate();
  const held = await hold(client, expert.expertId, date);
  await stripeFake.setStatus(held.paymentIntentId, "succeeded");
  const response = await confirm(client, held.bookingId, held.paymentIntentId);
  expect(response.status).toBe(200);
  return { expert, client, date, held };
}

const cancel = (bookingId: number, cookie: string) =>
  postRaw(`/bookings/${bookingId}/cancel`, null, { cookie });

const refundRequests = async (paymentIntentId: string) =>
  (await stripeFake.requests(paymentIntentId)).filter(
    (request) => request.path === "/v1/refunds" && request.status === 200,
  );

describe("holding a slot and paying for it", () => {
  it("writes the hold first, then an automatic-capture PaymentIntent for the expert's price", async () => {
    const expert = await newBookableExpert({ sessionPrice: 15000 });
    const client = await newClient();
    const before = Date.now();
    // The browser's price is ignored.
    const held = await hold(client, expert.expertId, freshDate(), "10:00", {
      amount: 100,
      status: "confirmed",
    });
    expect(held).toMatchObject({ status: "requires_payment", amount: 15000 });
    expect(held.clientSecret).toMatch(new RegExp(`^${held.paymentIntentId}_secret_`));

    const row = await getBooking(held.bookingId);
    expect(row).toMatchObject({
      status: "awaiting_payment",
      amount: 15000,
      paymentIntentId: held.paymentIntentId,
    });
    const holdMs = row.holdExpiresAt!.getTime() - before;
    expect(holdMs).toBeGreaterThanOrEqual(15 * 60 * 1000);
    expect(holdMs).toBeLessThan(16 * 60 * 1000);
    expect(await bookingLedger(held.bookingId)).toMatchObject({
      kind: "booking",
      status: "pending",
      amount: 15000,
      stripePaymentIntentId: held.paymentIntentId,
    });

    const intent = await stripeFake.intent(held.paymentIntentId);
    expect(intent).toMatchObject({
      amount: 15000,
      currency: "usd",
      capture_method: "automatic",
      metadata: { kind: "booking", bookingId: String(held.bookingId), userId: String(client.userId) },
    });
    const [create] = await stripeFake.requests(held.paymentIntentId);
    expect(create.idempotencyKey).toBe(`booking-${held.bookingId}-create`);
    // Not confirmed, and invisible to the client's dashboard and the expert's calendar meanwhile.
    expect(await notificationKinds(expert.userId)).toEqual([]);
    expect(await (await get("/expert/bookings", expert.cookie)).text()).not.toContain("Jordan Client");
  });

  it("shows the card payment box and the price, without the test-mode texts", async () => {
    const expert = await newBookableExpert({ sessionPrice: 15000 });
    const client = await newClient();
    const html = await (await get(`/book/${expert.expertId}`, client.cookie)).text();
    expect(html).toContain("Confirm Booking ($150.00)");
    expect(html).toContain("Preparing payment form...");
    expect(html).not.toContain("Test Mode");
  });

  it("confirms the booking on the browser's return once Stripe says the payment succeeded", async () => {
    const expert = await newBookableExpert({ sessionPrice: 15000 });
    const client = await newClient();
    const held = await hold(client, expert.expertId, freshDate());

    const early = await confirm(client, held.bookingId, held.paymentIntentId);
    expect(early.status).toBe(400);
    expect(await early.json()).toMatchObject({ reason: "not_paid" });
    expect((await getBooking(held.bookingId)).status).toBe("awaiting_payment");

    await stripeFake.setStatus(held.paymentIntentId, "succeeded");
    const response = await confirm(client, held.bookingId, held.paymentIntentId);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: "confirmed",
      redirectTo: `/thank-you?booking=${held.bookingId}`,
    });
    const row = await getBooking(held.bookingId);
    expect(row).toMatchObject({ status: "confirmed", holdExpiresAt: null });
    expect(row.confirmedAt).not.toBeNull();
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "captured", amount: 15000 });
    expect(await notificationKinds(client.userId)).toEqual(["booking_confirmed"]);
    expect(await notificationKinds(expert.userId)).toEqual(["booking_confirmed"]);

    // Again (a double click, a retry): nothing changes and nobody is told twice.
    expect((await confirm(client, held.bookingId, held.paymentIntentId)).status).toBe(200);
    expect(await notificationKinds(client.userId)).toEqual(["booking_confirmed"]);
  });

  it("sends the client to their bookings, not an error page, when Stripe can't be reached on the return", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    const held = await hold(client, expert.expertId, freshDate());
    const intent = await stripeFake.setStatus(held.paymentIntentId, "succeeded");
    await stripeFake.failRetrieves(held.paymentIntentId);
    const response = await get(
      `/book/return?booking=${held.bookingId}&payment_intent=${held.paymentIntentId}&redirect_status=succeeded`,
      client.cookie,
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard/bookings");
    expect(toastFrom(response)).toMatchObject({ title: "Payment not confirmed yet" });
    // Stripe's webhook records it when it comes.
    await sendWebhook(stripeEvent("payment_intent.succeeded", intent));
    expect((await getBooking(held.bookingId)).status).toBe("confirmed");
  });

  it("confirms through Stripe's redirect back to /book/return", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    const held = await hold(client, expert.expertId, freshDate());
    await stripeFake.setStatus(held.paymentIntentId, "succeeded");
    const response = await get(
      `/book/return?booking=${held.bookingId}&payment_intent=${held.paymentIntentId}&redirect_status=succeeded`,
      client.cookie,
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/thank-you?booking=${held.bookingId}`);
    expect(toastFrom(response)).toMatchObject({ title: "Success!" });
    expect((await getBooking(held.bookingId)).status).toBe("confirmed");
  });

  it("returns from a bank page's failed payment to the screen with the client's own hold offered again", async () => {
    const expert = await newBookableExpert();
    const [client, stranger] = await Promise.all([newClient(), newClient()]);
    const message = "Let's go through the pricing page and the onboarding e-mails together.";
    const held = await hold(client, expert.expertId, freshDate(), "10:00", { message });
    await stripeFake.setStatus(held.paymentIntentId, "requires_payment_method", {
      message: "The bank refused the payment.",
      code: "payment_method_provider_decline",
    });
    const response = await get(
      `/book/return?booking=${held.bookingId}&payment_intent=${held.paymentIntentId}&redirect_status=failed`,
      client.cookie,
    );
    expect(response.status).toBe(302);
    const retryPath = `/book/${expert.expertId}?retry=${held.bookingId}`;
    expect(response.headers.get("Location")).toBe(retryPath);
    expect(toastFrom(response)).toMatchObject({ title: "Payment Failed" });
    // To anyone else the booking is one that does not exist: its expert is not given away either.
    const strangersReturn = await get(
      `/book/return?booking=${held.bookingId}&payment_intent=${held.paymentIntentId}`,
      stranger.cookie,
    );
    const unknownReturn = await get(`/book/return?booking=999999&payment_intent=pi_x`, stranger.cookie);
    expect(strangersReturn.headers.get("Location")).toBe("/experts");
    expect(unknownReturn.headers.get("Location")).toBe("/experts");
    const { startsAt } = await getBooking(held.bookingId);

    // The hold's own start is free again for its client, with its message; for anyone else it is taken.
    const mine = await bookingScreenData(
      `/book/${expert.expertId}.data?retry=${held.bookingId}`,
      client.cookie,
    );
    expect(mine.retry).toEqual({ bookingId: held.bookingId, startsAt: startsAt.getTime(), message });
    expect(mine.busy).not.toContain(startsAt.getTime());
    const theirs = await bookingScreenData(
      `/book/${expert.expertId}.data?retry=${held.bookingId}`,
      stranger.cookie,
    );
    expect(theirs.retry).toBeNull();
    expect(theirs.busy).toContain(startsAt.getTime());
    expect(await (await get(retryPath, client.cookie)).text()).toContain(message);

    // Paying again from there reuses the hold and its PaymentIntent.
    const again = await hold(client, expert.expertId, (await getBooking(held.bookingId)).date, "10:00", {
      message,
      bookingId: held.bookingId,
    });
    expect(again).toMatchObject({ bookingId: held.bookingId, paymentIntentId: held.paymentIntentId });

    // A lapsed hold is never offered again.
    await db()
      .update(bookings)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(bookings.id, held.bookingId));
    const lapsed = await bookingScreenData(
      `/book/${expert.expertId}.data?retry=${held.bookingId}`,
      client.cookie,
    );
    expect(lapsed.retry).toBeNull();
  });

  it("confirms the booking from the webhook when the browser never comes back, once", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    const held = await hold(client, expert.expertId, freshDate());
    const intent = await stripeFake.setStatus(held.paymentIntentId, "succeeded");
    const event = stripeEvent("payment_intent.succeeded", intent);
    const response = await sendWebhook(event);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ result: "processed", note: "booking confirmed" });
    expect((await getBooking(held.bookingId)).status).toBe("confirmed");
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "captured" });
    expect(await notificationKinds(expert.userId)).toEqual(["booking_confirmed"]);

    expect(await (await sendWebhook(event)).json()).toMatchObject({ result: "duplicate" });
    // The browser's late return agrees and changes nothing.
    expect((await confirm(client, held.bookingId, held.paymentIntentId)).status).toBe(200);
    expect(await notificationKinds(expert.userId)).toEqual(["booking_confirmed"]);
  });

  it("refuses a PaymentIntent that is not this booking's: another booking's, a forged one, another amount", async () => {
    const expert = await newBookableExpert({ sessionPrice: 15000 });
    const client = await newClient();
    const mine = await hold(client, expert.expertId, freshDate());
    const other = await hold(client, expert.expertId, freshDate());
    await stripeFake.setStatus(other.paymentIntentId, "succeeded");
    const forged = await stripeFake.createForeign({
      amount: 100,
      capture_method: "automatic",
      status: "succeeded",
      metadata: { kind: "booking", bookingId: String(mine.bookingId), userId: String(client.userId) },
    });
    for (const paymentIntentId of [other.paymentIntentId, forged.id, "pi_doesNotExist"]) {
      const response = await confirm(client, mine.bookingId, paymentIntentId);
      expect(response.status, paymentIntentId).toBe(400);
      expect(await response.json()).toMatchObject({ reason: "mismatch" });
    }
    expect((await getBooking(mine.bookingId)).status).toBe("awaiting_payment");
    // Someone else's booking is not there at all.
    const stranger = await newClient();
    expect((await confirm(stranger, other.bookingId, other.paymentIntentId)).status).toBe(404);
  });

  it("records a declined card, keeps the hold, and pays again with the same booking and PaymentIntent", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    const date = freshDate();
    const held = await hold(client, expert.expertId, date);
    const declined = await stripeFake.setStatus(held.paymentIntentId, "requires_payment_method", {
      message: "Your card was declined.",
      code: "card_declined",
    });
    const hook = await sendWebhook(stripeEvent("payment_intent.payment_failed", declined));
    expect(await hook.json()).toMatchObject({ result: "processed" });
    expect(await bookingLedger(held.bookingId)).toMatchObject({
      status: "failed",
      lastError: "Your card was declined.",
    });
    expect((await getBooking(held.bookingId)).status).toBe("awaiting_payment");

    const again = await hold(client, expert.expertId, date, "10:00", { bookingId: held.bookingId });
    expect(again).toMatchObject({ bookingId: held.bookingId, paymentIntentId: held.paymentIntentId });
    await stripeFake.setStatus(held.paymentIntentId, "succeeded");
    expect((await confirm(client, held.bookingId, held.paymentIntentId)).status).toBe(200);
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "captured", lastError: null });
  });

  it("keeps the slot while a bank payment is processing", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    const date = freshDate();
    const held = await hold(client, expert.expertId, date);
    await stripeFake.setStatus(held.paymentIntentId, "processing");
    const response = await confirm(client, held.bookingId, held.paymentIntentId);
    expect(response.status).toBe(200);
    // Not yet paid: the confirmation and the calendar file do not call the session confirmed.
    expect(await response.json()).toMatchObject({
      status: "pending",
      redirectTo: `/thank-you?booking=${held.bookingId}&payment=processing`,
    });
    expect(await getBooking(held.bookingId)).toMatchObject({ status: "pending", holdExpiresAt: null });
    const ics = async () => (await get(`/bookings/${held.bookingId}/calendar.ics`, client.cookie)).text();
    expect(await ics()).toContain("STATUS:TENTATIVE\r\n");
    expect(await ics()).toContain("\r\nSEQUENCE:0\r\n");
    const returned = await get(
      `/book/return?booking=${held.bookingId}&payment_intent=${held.paymentIntentId}&redirect_status=processing`,
      client.cookie,
    );
    expect(returned.headers.get("Location")).toBe(`/thank-you?booking=${held.bookingId}&payment=processing`);
    expect(toastFrom(returned)).toMatchObject({ title: "Payment Processing" });
    const rival = await newClient();
    expect((await book(rival, { expertId: expert.expertId, date, time: "10:00" })).status).toBe(409);
    const intent = await stripeFake.setStatus(held.paymentIntentId, "succeeded");
    await sendWebhook(stripeEvent("payment_intent.succeeded", intent));
    expect((await getBooking(held.bookingId)).status).toBe("confirmed");
    expect(await ics()).toContain("STATUS:CONFIRMED\r\n");
    expect(await ics()).toContain("\r\nSEQUENCE:1\r\n");
  });

  it("gives the slot back when a processing bank payment fails", async () => {
    const { expert, held } = await bankPaymentProcessing();
    const failed = await stripeFake.setStatus(held.paymentIntentId, "requires_payment_method", {
      message: "The bank refused the debit.",
      code: "payment_method_provider_decline",
    });
    const hook = await sendWebhook(stripeEvent("payment_intent.payment_failed", failed));
    expect(await hook.json()).toMatchObject({ result: "processed", note: "payment failed" });
    expect((await getBooking(held.bookingId)).status).toBe("expired");
    expect(await bookingLedger(held.bookingId)).toMatchObject({
      status: "failed",
      lastError: "The bank refused the debit.",
    });
    const { date, startTime } = await getBooking(held.bookingId);
    const rival = await newClient();
    expect((await book(rival, { expertId: expert.expertId, date, time: startTime })).status).toBe(200);
  });

  it("ignores a first attempt's decline that arrives after a bank payment began processing", async () => {
    const expert = await newBookableExpert({ sessionPrice: 15000 });
    const client = await newClient();
    const date = freshDate();
    const held = await hold(client, expert.expertId, date);
    // The card is declined; its event is held up. The client pays by bank debit instead.
    const declined = structuredClone(
      await stripeFake.setStatus(held.paymentIntentId, "requires_payment_method", {
        message: "Your card was declined.",
        code: "card_declined",
      }),
    );
    await stripeFake.setStatus(held.paymentIntentId, "processing");
    expect((await confirm(client, held.bookingId, held.paymentIntentId)).status).toBe(200);
    expect((await getBooking(held.bookingId)).status).toBe("pending");

    // Stripe can't be reached to read the payment again: the event fails, and Stripe will retry it.
    const event = stripeEvent("payment_intent.payment_failed", declined);
    await stripeFake.failRetrieves(held.paymentIntentId, MAX_NETWORK_RETRIES + 1);
    expect((await sendWebhook(event)).status).toBe(500);
    expect((await getBooking(held.bookingId)).status).toBe("pending");
    const late = await sendWebhook(event);
    expect(late.status).toBe(200);
    expect(await late.json()).toMatchObject({ note: "stale decline: the payment is processing" });
    expect(await getBooking(held.bookingId)).toMatchObject({ status: "pending", holdExpiresAt: null });
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "pending", lastError: null });
    const rival = await newClient();
    expect((await book(rival, { expertId: expert.expertId, date, time: "10:00" })).status).toBe(409);

    const paid = await stripeFake.setStatus(held.paymentIntentId, "succeeded");
    await sendWebhook(stripeEvent("payment_intent.succeeded", paid));
    expect((await getBooking(held.bookingId)).status).toBe("confirmed");
  });
});

describe("races and holds with payments", () => {
  it("lets only one of two clients hold the same slot at once", async () => {
    const expert = await newBookableExpert();
    const [first, second] = await Promise.all([newClient(), newClient()]);
    const date = freshDate();
    const responses = await Promise.all(
      [first, second].map((client) => book(client, { expertId: expert.expertId, date, time: "15:00" })),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    const rows = await db().select().from(bookings).where(eq(bookings.expertId, expert.expertId));
    expect(rows.filter((row) => row.status === "awaiting_payment")).toHaveLength(1);
  });

  it("gives a client whose first answer was lost their own hold back, never 'booked by someone else'", async () => {
    const expert = await newBookableExpert();
    const [client, other] = await Promise.all([newClient(), newClient()]);
    const date = freshDate();
    const first = await hold(client, expert.expertId, date);
    // The browser never got the answer, so it tries again without the booking's id.
    const again = await hold(client, expert.expertId, date);
    expect(again).toMatchObject({ bookingId: first.bookingId, paymentIntentId: first.paymentIntentId });
    const taken = await book(other, { expertId: expert.expertId, date, time: "10:00" });
    expect(taken.status).toBe(409);

    // Lost before its PaymentIntent was even recorded: Stripe replays the same one for the hold.
    await db().update(bookings).set({ paymentIntentId: null }).where(eq(bookings.id, first.bookingId));
    const third = await hold(client, expert.expertId, date);
    expect(third).toMatchObject({ bookingId: first.bookingId, paymentIntentId: first.paymentIntentId });
    expect((await getBooking(first.bookingId)).paymentIntentId).toBe(first.paymentIntentId);
    const live = (await db().select().from(bookings).where(eq(bookings.expertId, expert.expertId))).filter(
      (row) => row.status === "awaiting_payment",
    );
    expect(live).toHaveLength(1);
  });

  it("frees a hold nobody paid after 15 minutes: the PaymentIntent is cancelled and the slot can be booked", async () => {
    const expert = await newBookableExpert();
    const [holder, next] = await Promise.all([newClient(), newClient()]);
    const date = freshDate();
    const held = await hold(holder, expert.expertId, date);
    const sweep = await freeExpiredHolds(depsAt(new Date(Date.now() + 16 * 60 * 1000)));
    expect(sweep.expired).toBeGreaterThanOrEqual(1);
    expect((await getBooking(held.bookingId)).status).toBe("expired");
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "cancelled" });
    expect(await stripeFake.intent(held.paymentIntentId)).toMatchObject({
      status: "canceled",
      cancellation_reason: "abandoned",
    });
    await hold(next, expert.expertId, date);
  });

  it("confirms a lapsed hold whose payment went through after all, instead of freeing it", async () => {
    const expert = await newBookableExpert();
    const holder = await newClient();
    const held = await hold(holder, expert.expertId, freshDate());
    await stripeFake.setStatus(held.paymentIntentId, "succeeded");
    await freeExpiredHolds(depsAt(new Date(Date.now() + 16 * 60 * 1000)));
    expect((await getBooking(held.bookingId)).status).toBe("confirmed");
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "captured" });
  });

  it("refunds a payment that arrives after its lapsed hold went to someone else", async () => {
    // The hold runs out and another client books and pays for the slot.
    const { slow, fast, held, taken } = await lapsedHoldRetaken();
    await stripeFake.setStatus(taken.paymentIntentId, "succeeded");
    expect((await confirm(fast, taken.bookingId, taken.paymentIntentId)).status).toBe(200);
    expect((await getBooking(held.bookingId)).status).toBe("expired");

    // Then the slow client's card goes through after all: told, and refunded in full.
    await stripeFake.setStatus(held.paymentIntentId, "succeeded");
    const late = await confirm(slow, held.bookingId, held.paymentIntentId);
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ reason: "slot_taken" });
    expect((await getBooking(held.bookingId)).status).toBe("expired");
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "refunded" });
    expect(await refundRequests(held.paymentIntentId)).toHaveLength(1);
    expect((await getBooking(taken.bookingId)).status).toBe("confirmed");
  });

  it("never confirms a late payment once it was refunded, even when the slot is free again", async () => {
    const { slow, held, taken } = await lapsedHoldRetaken();
    // The late payment is refunded because the slot is taken...
    const intent = await stripeFake.setStatus(held.paymentIntentId, "succeeded");
    expect((await confirm(slow, held.bookingId, held.paymentIntentId)).status).toBe(409);
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "refunded" });
    // ...then the other hold is given up, so the slot is free again. A refunded PaymentIntent still
    // reads "succeeded" at Stripe: neither the browser's return nor the webhook may confirm on it.
    await db().update(bookings).set({ status: "expired" }).where(eq(bookings.id, taken.bookingId));
    const again = await confirm(slow, held.bookingId, held.paymentIntentId);
    expect(again.status).toBe(409);
    await sendWebhook(stripeEvent("payment_intent.succeeded", intent));
    expect((await getBooking(held.bookingId)).status).toBe("expired");
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "refunded" });
    expect(await refundRequests(held.paymentIntentId)).toHaveLength(1);
    expect(await notificationKinds(slow.userId)).not.toContain("booking_confirmed");
  });

  it("refunds only a cancelled or lapsed booking, never a confirmed one", async () => {
    const { held } = await paidBooking();
    expect(await refundBooking(depsAt(new Date()), held.bookingId)).toBe("none");
    expect((await getBooking(held.bookingId)).status).toBe("confirmed");
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "captured" });
    expect(await refundRequests(held.paymentIntentId)).toEqual([]);
  });

  it("has the scheduled task refund a late payment the webhook recorded for a slot already taken", async () => {
    const { slow, held } = await lapsedHoldRetaken(12000);
    const intent = await stripeFake.setStatus(held.paymentIntentId, "succeeded");
    const hook = await sendWebhook(stripeEvent("payment_intent.succeeded", intent));
    expect(await hook.json()).toMatchObject({ note: "paid after the hold expired" });
    expect((await getBooking(held.bookingId)).status).toBe("expired");
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "captured" });
    expect(await notificationKinds(slow.userId)).toEqual([]);

    const sweep = await freeExpiredHolds(depsAt(new Date()));
    expect(sweep.refunded).toBeGreaterThanOrEqual(1);
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "refunded" });
  });

  it("revives a lapsed hold paid late when nobody took the slot", async () => {
    const expert = await newBookableExpert();
    const holder = await newClient();
    const held = await hold(holder, expert.expertId, freshDate());
    await db().update(bookings).set({ status: "expired" }).where(eq(bookings.id, held.bookingId));
    const intent = await stripeFake.setStatus(held.paymentIntentId, "succeeded");
    await sendWebhook(stripeEvent("payment_intent.succeeded", intent));
    expect((await getBooking(held.bookingId)).status).toBe("confirmed");
    expect(await notificationKinds(holder.userId)).toEqual(["booking_confirmed"]);
  });
});

describe("limits on unpaid holds", () => {
  /** Moves a hold's taking back in time, with its end as it would be then. */
  const takenAgo = (bookingId: number, minutes: number, holdEndsInMinutes: number) =>
    db()
      .update(bookings)
      .set({
        createdAt: new Date(Date.now() - minutes * 60 * 1000),
        holdExpiresAt: new Date(Date.now() + holdEndsInMinutes * 60 * 1000),
      })
      .where(eq(bookings.id, bookingId));

  it("renews a hold on paying again, but never past 30 minutes from when it was taken", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    const date = freshDate();
    const held = await hold(client, expert.expertId, date);
    await takenAgo(held.bookingId, 25, 1);
    const renewed = await hold(client, expert.expertId, date, "10:00", { bookingId: held.bookingId });
    const createdAt = (await getBooking(held.bookingId)).createdAt.getTime();
    expect(renewed.bookingId).toBe(held.bookingId);
    expect(renewed.holdExpiresAt).toBe(createdAt + 30 * 60 * 1000);
    expect((await getBooking(held.bookingId)).holdExpiresAt?.getTime()).toBe(createdAt + 30 * 60 * 1000);

    // Posting the same start again (no retry id) renews nothing past the lifetime either.
    const again = await hold(client, expert.expertId, date);
    expect(again).toMatchObject({ bookingId: held.bookingId, holdExpiresAt: createdAt + 30 * 60 * 1000 });
  });

  it("refuses the same client a start whose hold ran out unpaid, while anyone else may take it", async () => {
    const expert = await newBookableExpert();
    const [slow, other] = await Promise.all([newClient(), newClient()]);
    const date = freshDate();
    const held = await hold(slow, expert.expertId, date);
    await takenAgo(held.bookingId, 31, -1);
    const before = await bookingsOf(expert.expertId);

    for (const body of [{ bookingId: held.bookingId }, {}]) {
      const refused = await book(slow, { expertId: expert.expertId, date, time: "10:00", ...body });
      expect(refused.status).toBe(409);
      expect(await refused.json()).toMatchObject({
        error:
          "Your hold on this time ran out before it was paid. Please choose another time, or try this one again tomorrow.",
      });
    }
    expect(await bookingsOf(expert.expertId)).toEqual(before);

    // Still so once the sweep has set the hold aside.
    await freeExpiredHolds(depsAt(new Date()));
    expect((await getBooking(held.bookingId)).status).toBe("expired");
    expect((await book(slow, { expertId: expert.expertId, date, time: "10:00" })).status).toBe(409);

    const taken = await hold(other, expert.expertId, date);
    expect(taken.bookingId).not.toBe(held.bookingId);
    // The slow client may still hold another start.
    expect((await hold(slow, expert.expertId, date, "11:00")).bookingId).toBeGreaterThan(taken.bookingId);
  });

  it("lets one client hold three starts at once, not four; holding one again is not another", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    const date = freshDate();
    const held = [];
    for (const time of ["10:00", "11:00", "12:00"])
      held.push(await hold(client, expert.expertId, date, time));
    expect(await hold(client, expert.expertId, date, "11:00")).toMatchObject({
      bookingId: held[1].bookingId,
    });

    const fourth = await book(client, { expertId: expert.expertId, date, time: "13:00" });
    expect(fourth.status).toBe(409);
    expect(await fourth.json()).toMatchObject({
      error:
        "You already have 3 sessions waiting for payment. Please finish paying for one, or wait until its hold ends.",
    });
    expect(await countBookings(expert.expertId)).toBe(3);

    // Moving one hold to another time replaces it rather than adding a fourth.
    const moved = await hold(client, expert.expertId, date, "13:00", { bookingId: held[0].bookingId });
    expect((await getBooking(held[0].bookingId)).status).toBe("expired");
    expect((await getBooking(moved.bookingId)).status).toBe("awaiting_payment");
  });

  it("lets a client go back to the start they moved their hold away from", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    const date = freshDate();
    const first = await hold(client, expert.expertId, date, "10:00");
    const moved = await hold(client, expert.expertId, date, "11:00", { bookingId: first.bookingId });
    const back = await hold(client, expert.expertId, date, "10:00", { bookingId: moved.bookingId });
    expect(back.bookingId).not.toBe(first.bookingId);
    expect((await getBooking(back.bookingId)).status).toBe("awaiting_payment");
    expect((await getBooking(moved.bookingId)).status).toBe("expired");
  });
});

describe("a bank payment that lands after the session's start", () => {
  /** A processing bank payment whose session has started by the time the money arrives. */
  async function startedWhileProcessing() {
    const processing = await bankPaymentProcessing();
    const startedAt = Date.now() - 10 * 60 * 1000;
    await db()
      .update(bookings)
      .set({ startsAt: new Date(startedAt), endsAt: new Date(startedAt + 60 * 60 * 1000) })
      .where(eq(bookings.id, processing.held.bookingId));
    const intent = await stripeFake.setStatus(processing.held.paymentIntentId, "succeeded");
    return { ...processing, intent };
  }

  it("confirms nothing from the webhook; the booking lapses and the sweep refunds it once", async () => {
    const { expert, client, held, intent } = await startedWhileProcessing();
    await sendWebhook(stripeEvent("payment_intent.succeeded", intent));
    expect((await getBooking(held.bookingId)).status).toBe("expired");
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "captured" });
    expect(await notificationKinds(client.userId)).not.toContain("booking_confirmed");
    expect(await notificationKinds(expert.userId)).not.toContain("booking_confirmed");

    await freeExpiredHolds(depsAt(new Date()));
    await freeExpiredHolds(depsAt(new Date()));
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "refunded" });
    expect(await refundRequests(held.paymentIntentId)).toHaveLength(1);
  });

  it("refunds at once on the browser's return and says why", async () => {
    const { client, held } = await startedWhileProcessing();
    const late = await confirm(client, held.bookingId, held.paymentIntentId);
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({
      reason: "started",
      error:
        "Sorry, your payment went through only after the session's start time. Your payment has been refunded in full.",
    });
    expect((await getBooking(held.bookingId)).status).toBe("expired");
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "refunded" });
    expect(await refundRequests(held.paymentIntentId)).toHaveLength(1);
    expect(await notificationKinds(client.userId)).not.toContain("booking_confirmed");
  });
});

describe("cancelling a paid session", () => {
  it("refunds the client in full through Stripe, frees the slot and tells the expert", async () => {
    const { expert, client, date, held } = await paidBooking(15000);
    const response = await cancel(held.bookingId, client.cookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, refund: "refunded" });
    const row = await getBooking(held.bookingId);
    expect(row.status).toBe("cancelled");
    expect(row.refundId).toMatch(/^re_fake_/);
    expect(await bookingLedger(held.bookingId)).toMatchObject({
      status: "refunded",
      stripeRefundId: row.refundId,
    });
    const [refund] = await refundRequests(held.paymentIntentId);
    expect(refund).toMatchObject({
      idempotencyKey: `booking-${held.bookingId}-refund`,
      params: { payment_intent: held.paymentIntentId, reason: "requested_by_customer" },
    });
    expect(await notificationKinds(expert.userId)).toContain("booking_cancelled");
    const next = await newClient();
    expect((await book(next, { expertId: expert.expertId, date, time: "10:00" })).status).toBe(200);
  });

  it("refunds once when cancelled twice, one after the other or both at once", async () => {
    const first = await paidBooking();
    expect((await cancel(first.held.bookingId, first.client.cookie)).status).toBe(200);
    expect((await cancel(first.held.bookingId, first.client.cookie)).status).toBe(409);
    expect(await refundRequests(first.held.paymentIntentId)).toHaveLength(1);

    const second = await paidBooking();
    const responses = await Promise.all([
      cancel(second.held.bookingId, second.client.cookie),
      cancel(second.held.bookingId, second.expert.cookie),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    expect(await refundRequests(second.held.paymentIntentId)).toHaveLength(1);
    expect(await bookingLedger(second.held.bookingId)).toMatchObject({ status: "refunded" });
  });

  it("keeps a refused refund for a retry, which then refunds exactly once", async () => {
    const { client, held } = await paidBooking();
    await stripeFake.failNext(held.paymentIntentId, "refund", "The refund could not be processed.");
    const response = await cancel(held.bookingId, client.cookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ refund: "refund_failed" });
    expect((await getBooking(held.bookingId)).status).toBe("cancelled");
    expect(await bookingLedger(held.bookingId)).toMatchObject({
      status: "captured",
      lastError: "Refund failed: The refund could not be processed.",
    });
    // Not earned and not upcoming while the refund is owed.
    const sweep = await freeExpiredHolds(depsAt(new Date()));
    expect(sweep.refunded).toBeGreaterThanOrEqual(1);
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "refunded", lastError: null });
    expect(await refundRequests(held.paymentIntentId)).toHaveLength(1);
    // A later cancel finds it done.
    expect((await cancel(held.bookingId, client.cookie)).status).toBe(409);
    expect(await refundRequests(held.paymentIntentId)).toHaveLength(1);
  });

  it("lets only the client or the expert cancel (404 for anyone else), and nothing is refunded", async () => {
    const { held } = await paidBooking();
    const stranger = await newClient();
    expect((await cancel(held.bookingId, stranger.cookie)).status).toBe(404);
    expect((await getBooking(held.bookingId)).status).toBe("confirmed");
    expect(await refundRequests(held.paymentIntentId)).toHaveLength(0);
  });
});

describe("a refund made outside the app (the Stripe Dashboard)", () => {
  it("takes a wholly refunded payment out of the earnings, once, and leaves a partial one as it is", async () => {
    const partly = await paidBooking(15000);
    const partial = await sendWebhook(
      stripeEvent(
        "charge.refunded",
        refundedCharge(partly.held.paymentIntentId, 15000, { amountRefunded: 5000 }),
      ),
    );
    expect(await partial.json()).toMatchObject({ result: "ignored" });
    expect(await bookingLedger(partly.held.bookingId)).toMatchObject({ status: "captured", amount: 15000 });

    const wholly = await paidBooking(15000);
    const event = stripeEvent("charge.refunded", refundedCharge(wholly.held.paymentIntentId, 15000));
    expect(await (await sendWebhook(event)).json()).toMatchObject({ result: "processed" });
    expect(await bookingLedger(wholly.held.bookingId)).toMatchObject({ status: "refunded", amount: 15000 });
    expect(await (await sendWebhook(event)).json()).toMatchObject({ result: "duplicate" });
    // A charge that is not one of ours changes nothing.
    const stranger = stripeEvent("charge.refunded", refundedCharge(null, 100));
    expect(await (await sendWebhook(stranger)).json()).toMatchObject({ result: "ignored" });
  });

  it("says the refund of a session the app cancelled and refunded changed nothing", async () => {
    const { client, held } = await paidBooking(15000);
    expect((await cancel(held.bookingId, client.cookie)).status).toBe(200);
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "refunded" });
    const event = stripeEvent("charge.refunded", refundedCharge(held.paymentIntentId, 15000));
    expect(await (await sendWebhook(event)).json()).toMatchObject({
      result: "ignored",
      note: "ledger line already settled",
    });
  });

  it("never confirms a session whose payment was refunded before its success reached the app", async () => {
    const expert = await newBookableExpert({ sessionPrice: 15000 });
    const client = await newClient();
    const date = freshDate();
    const held = await hold(client, expert.expertId, date);
    const intent = await stripeFake.setStatus(held.paymentIntentId, "succeeded");
    // Stripe does not order its events: the refund's comes first, the success's is retried later.
    const refund = stripeEvent("charge.refunded", refundedCharge(held.paymentIntentId, 15000));
    expect(await (await sendWebhook(refund)).json()).toMatchObject({ result: "processed" });
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "refunded" });
    // The hold is given up at once.
    expect((await getBooking(held.bookingId)).status).toBe("expired");

    await sendWebhook(stripeEvent("payment_intent.succeeded", intent));
    expect((await getBooking(held.bookingId)).status).toBe("expired");
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "refunded" });
    // The browser's return says so, rather than that the payment does not match.
    const returned = await confirm(client, held.bookingId, held.paymentIntentId);
    expect(returned.status).toBe(400);
    expect(await returned.json()).toMatchObject({ error: BOOKING_REFUSALS.refunded });
    expect(await notificationKinds(client.userId)).not.toContain("booking_confirmed");

    // Nothing is confirmed or refunded twice later, and the client may book that time afresh.
    const sweep = await freeExpiredHolds(depsAt(new Date(held.holdExpiresAt + 1000)));
    expect(sweep.confirmed).toBe(0);
    expect(await refundRequests(held.paymentIntentId)).toHaveLength(0);
    expect((await getBooking(held.bookingId)).confirmedAt).toBeNull();
    const again = await hold(client, expert.expertId, date);
    expect(again.bookingId).not.toBe(held.bookingId);
    expect(again.paymentIntentId).not.toBe(held.paymentIntentId);
  });

  it("never revives a lapsed hold whose late payment was refunded before its success arrived", async () => {
    // The slow client's hold ran out and the slot went to another, whose hold ran out too.
    const { held, taken } = await lapsedHoldRetaken();
    await freeExpiredHolds(depsAt(new Date(taken.holdExpiresAt + 1000)));
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "cancelled" });
    // The slow client's card went through after all, and support refunded it.
    const intent = await stripeFake.setStatus(held.paymentIntentId, "succeeded");
    await sendWebhook(stripeEvent("charge.refunded", refundedCharge(held.paymentIntentId, 15000)));
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "refunded" });
    await sendWebhook(stripeEvent("payment_intent.succeeded", intent));
    expect((await getBooking(held.bookingId)).status).toBe("expired");
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "refunded" });
    expect(await refundRequests(held.paymentIntentId)).toHaveLength(0);
  });

  it("never confirms, from the hold sweep, a session refunded while nobody came back to pay", async () => {
    const expert = await newBookableExpert({ sessionPrice: 15000 });
    const client = await newClient();
    const held = await hold(client, expert.expertId, freshDate());
    await stripeFake.setStatus(held.paymentIntentId, "succeeded");
    // The browser never returned and the success event was lost; support refunded the charge.
    await sendWebhook(stripeEvent("charge.refunded", refundedCharge(held.paymentIntentId, 15000)));

    // The sweep finds the PaymentIntent "succeeded" (a refunded one still reads so).
    const sweep = await freeExpiredHolds(depsAt(new Date(held.holdExpiresAt + 1000)));
    expect(sweep.confirmed).toBe(0);
    expect((await getBooking(held.bookingId)).status).toBe("expired");
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "refunded" });
    expect(await refundRequests(held.paymentIntentId)).toHaveLength(0);
    expect(await notificationKinds(client.userId)).not.toContain("booking_confirmed");
  });
});

describe("an expert who deletes their account", () => {
  it("cancels and refunds their upcoming sessions and declines their open questions first", async () => {
    const { expert, client, held } = await paidBooking(15000);
    const question = await pendingQuestion(client.userId, expert.expertId);
    // The profile as cached in KV (a signed-in request skips only the edge cache, which lapses in a minute).
    expect((await get(`/expert/${expert.expertId}`, client.cookie)).status).toBe(200);

    const response = await postForm("/expert/account", { intent: "delete" }, { cookie: expert.cookie });
    expect(response.status).toBe(302);
    expect(await refundRequests(held.paymentIntentId)).toHaveLength(1);
    expect(await getBooking(held.bookingId)).toMatchObject({ status: "cancelled" });
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "refunded" });
    expect((await getQuestion(question.id)).status).toBe("rejected");
    // The client is told why, not that the expert turned them down.
    const notices = await notificationsOf(client.userId);
    const bodyOf = (kind: string) => notices.find((notice) => notice.kind === kind)?.body;
    expect(bodyOf("question_declined")).toBe(
      `${expert.username} Name closed their account, so your question was declined. You were not charged.`,
    );
    expect(bodyOf("booking_cancelled")).toMatch(
      new RegExp(
        `^${expert.username} Name closed their account, so your session on .+ is cancelled\\. The full \\$150\\.00 is refunded to the card that paid\\.$`,
      ),
    );
    expect((await get(`/expert/${expert.expertId}`, client.cookie)).status).toBe(404);
    // The client's list names the session's expert without the account's placeholder username.
    const listed = (await (await get("/api/bookings", client.cookie)).json()) as Array<{
      id: number;
      expert: { name: string };
    }>;
    expect(listed.find((booking) => booking.id === held.bookingId)?.expert.name).toBe("Deleted account");
  });
});

describe("a hold paid for as its expert's sessions are being cancelled", () => {
  it("is cancelled and refunded too, not left confirmed with an expert who is gone", async () => {
    const { expert, held: first } = await paidBooking(15000);
    const late = await hold(await newClient(), expert.expertId, freshDate());
    // Stripe's webhook for the second session's payment lands while the account closing is refunding
    // the first session: after the closing listed the expert's sessions, before the account is gone.
    const realFetch = globalThis.fetch;
    let landed = false;
    globalThis.fetch = async (input, init) => {
      const request = new Request(input, init);
      if (!landed && request.url.endsWith("/v1/refunds")) {
        const body = await request.clone().text();
        if (body.includes(first.paymentIntentId)) {
          landed = true;
          const intent = await stripeFake.setStatus(late.paymentIntentId, "succeeded");
          await sendWebhook(stripeEvent("payment_intent.succeeded", intent));
          expect((await getBooking(late.bookingId)).status).toBe("confirmed");
        }
      }
      return realFetch(request);
    };
    try {
      const response = await postForm("/expert/account", { intent: "delete" }, { cookie: expert.cookie });
      expect(response.status).toBe(302);
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(landed).toBe(true);
    for (const booking of [first, late]) {
      expect(await getBooking(booking.bookingId)).toMatchObject({ status: "cancelled" });
      expect(await bookingLedger(booking.bookingId)).toMatchObject({ status: "refunded" });
      expect(await refundRequests(booking.paymentIntentId)).toHaveLength(1);
    }
  });
});

describe("a hold on an expert who deletes their account", () => {
  it("lapses, and its PaymentIntent is cancelled", async () => {
    const expert = await newBookableExpert();
    const client = await newClient();
    const held = await hold(client, expert.expertId, freshDate());
    await postForm("/expert/account", { intent: "delete" }, { cookie: expert.cookie });
    expect((await getBooking(held.bookingId)).status).toBe("expired");
    expect((await stripeFake.intent(held.paymentIntentId)).status).toBe("canceled");
  });

  it("refunds a payment that was already on its way, and never confirms the session", async () => {
    const { expert, client, held } = await bankPaymentProcessing();

    await postForm("/expert/account", { intent: "delete" }, { cookie: expert.cookie });
    // The bank payment goes through afterwards: Stripe tells the webhook, the browser comes back.
    const intent = await stripeFake.setStatus(held.paymentIntentId, "succeeded");
    await sendWebhook(stripeEvent("payment_intent.succeeded", intent));
    const late = await confirm(client, held.bookingId, held.paymentIntentId);
    expect(late.status).toBe(409);
    expect((await getBooking(held.bookingId)).status).toBe("expired");
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "refunded" });
    expect(await refundRequests(held.paymentIntentId)).toHaveLength(1);
    expect(await notificationKinds(client.userId)).not.toContain("booking_confirmed");
  });
});

describe("a hold paid for while its expert's account is being closed", () => {
  it("lapses at the sweep and the payment is refunded, instead of waiting for ever", async () => {
    const expert = await newBookableExpert({ sessionPrice: 15000 });
    const client = await newClient();
    const held = await hold(client, expert.expertId, freshDate());
    // The window inside closeAccount: the holds were released, then this one was made, then the
    // account was deleted; the client's payment lands after that.
    await deleteUserAccount(db(), expert.userId);
    const intent = await stripeFake.setStatus(held.paymentIntentId, "succeeded");
    await sendWebhook(stripeEvent("payment_intent.succeeded", intent));
    expect((await getBooking(held.bookingId)).status).toBe("awaiting_payment");

    const sweep = await freeExpiredHolds(depsAt(new Date(Date.now() + 16 * 60 * 1000)));
    expect(sweep.failures).toEqual([]);
    expect((await getBooking(held.bookingId)).status).toBe("expired");
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "refunded" });
    expect(await refundRequests(held.paymentIntentId)).toHaveLength(1);
    // Once is enough.
    await freeExpiredHolds(depsAt(new Date(Date.now() + 21 * 60 * 1000)));
    expect(await refundRequests(held.paymentIntentId)).toHaveLength(1);
  });
});

describe("a client who deletes their account", () => {
  it("withdraws their questions uncharged, lets their holds lapse and cancels their sessions as they could", async () => {
    const expert = await newBookableExpert({ sessionPrice: 15000 });
    const client = await newClient();
    // A session in a week (cancellable, refunded), and one tomorrow (too late for the client to cancel).
    const later = await hold(client, expert.expertId, freshDate());
    await stripeFake.setStatus(later.paymentIntentId, "succeeded");
    expect((await confirm(client, later.bookingId, later.paymentIntentId)).status).toBe(200);
    const soon = await hold(client, expert.expertId, freshDate(), "11:00");
    await stripeFake.setStatus(soon.paymentIntentId, "succeeded");
    expect((await confirm(client, soon.bookingId, soon.paymentIntentId)).status).toBe(200);
    const inTwelveHours = new Date(Date.now() + 12 * 3_600_000);
    await db()
      .update(bookings)
      .set({ startsAt: inTwelveHours, endsAt: new Date(inTwelveHours.getTime() + 3_600_000) })
      .where(eq(bookings.id, soon.bookingId));
    // An unpaid hold, an authorised question and an unpaid one.
    const unpaidHold = await hold(client, expert.expertId, freshDate());
    const question = "Which of my two pricing pages should I keep for the launch next month?";
    const ask = async () => {
      const response = await postJson(
        "/api/questions",
        { question, expertId: expert.expertId },
        client.cookie,
      );
      return (await response.json()) as { questionId: number; paymentIntentId: string };
    };
    const paid = await ask();
    await stripeFake.setStatus(paid.paymentIntentId, "requires_capture");
    expect(
      (
        await postJson(
          `/api/questions/${paid.questionId}/payment`,
          { paymentIntentId: paid.paymentIntentId },
          client.cookie,
        )
      ).status,
    ).toBe(200);
    const unpaid = await ask();

    // The session tomorrow can no longer be cancelled: the account stays until it has ended.
    const refused = await postForm("/dashboard/settings", { intent: "delete" }, { cookie: client.cookie });
    expect(refused.status).toBe(302);
    expect(refused.headers.get("Location")).toBe("/dashboard/settings");
    expect(toastFrom(refused)).toMatchObject({
      title: "Account deletion failed.",
      description: expect.stringContaining("You have a session in the next 24 hours"),
    });
    expect(await getQuestion(paid.questionId)).toMatchObject({ status: "pending" });
    expect(await getBooking(later.bookingId)).toMatchObject({ status: "confirmed" });
    const endedAnHourAgo = new Date(Date.now() - 3_600_000);
    await db()
      .update(bookings)
      .set({ startsAt: new Date(endedAnHourAgo.getTime() - 3_600_000), endsAt: endedAnHourAgo })
      .where(eq(bookings.id, soon.bookingId));

    const response = await postForm("/dashboard/settings", { intent: "delete" }, { cookie: client.cookie });
    expect(response.status).toBe(302);

    expect(await getQuestion(paid.questionId)).toMatchObject({ status: "rejected" });
    expect((await stripeFake.intent(paid.paymentIntentId)).status).toBe("canceled");
    expect(await getQuestion(unpaid.questionId)).toMatchObject({ status: "expired" });
    expect((await stripeFake.intent(unpaid.paymentIntentId)).status).toBe("canceled");
    expect(await notificationKinds(expert.userId)).toEqual(
      expect.arrayContaining(["question_withdrawn", "booking_cancelled"]),
    );
    const cancelled = (await notificationsOf(expert.userId)).find(
      (notice) => notice.kind === "booking_cancelled",
    );
    expect(cancelled?.body).toMatch(
      /^.+ closed their account, so the session on .+ is cancelled\. The time is open for booking again\.$/,
    );
    // The expert can no longer answer it, so nobody is charged for it.
    const answer = await postForm(
      `/questions/${paid.questionId}/answer`,
      { answer: "Keep the simpler one.", status: "answered" },
      { cookie: expert.cookie },
    );
    expect(answer.status).toBe(409);
    expect((await stripeFake.requests(paid.paymentIntentId)).some((r) => r.path.endsWith("/capture"))).toBe(
      false,
    );

    expect(await getBooking(later.bookingId)).toMatchObject({ status: "cancelled" });
    expect(await refundRequests(later.paymentIntentId)).toHaveLength(1);
    expect(await getBooking(soon.bookingId)).toMatchObject({ status: "confirmed" });
    expect(await refundRequests(soon.paymentIntentId)).toHaveLength(0);
    expect(await getBooking(unpaidHold.bookingId)).toMatchObject({ status: "expired" });
    expect((await stripeFake.intent(unpaidHold.paymentIntentId)).status).toBe("canceled");
  });

  it("refunds their bank payment that lands afterwards, and never confirms the session", async () => {
    const { expert, client, held } = await bankPaymentProcessing();

    expect(
      (await postForm("/dashboard/settings", { intent: "delete" }, { cookie: client.cookie })).status,
    ).toBe(302);
    const intent = await stripeFake.setStatus(held.paymentIntentId, "succeeded");
    await sendWebhook(stripeEvent("payment_intent.succeeded", intent));
    expect((await getBooking(held.bookingId)).status).toBe("expired");
    // Nobody comes back from the bank's page to a deleted account: the scheduled sweep refunds it.
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "captured" });
    await freeExpiredHolds(depsAt(new Date()));
    expect(await bookingLedger(held.bookingId)).toMatchObject({ status: "refunded" });
    expect(await refundRequests(held.paymentIntentId)).toHaveLength(1);
    expect(await notificationKinds(expert.userId)).not.toContain("booking_confirmed");
  });

  it("succeeds even when someone registered the name a deleted account used to get", async () => {
    const client = await newClient();
    const squatter = await postJson(
      "/api/users",
      { username: `deleted-user-${client.userId}`, email: "squat@example.com", password: "squat-pass-1" },
      "",
    );
    expect(squatter.status).toBe(201);
    const response = await postForm("/dashboard/settings", { intent: "delete" }, { cookie: client.cookie });
    expect(response.status).toBe(302);
    const [gone] = await db().select().from(users).where(eq(users.id, client.userId));
    expect(gone.deletedAt).not.toBeNull();
    // The name a deletion leaves is outside what anyone can register.
    const taken = await postJson(
      "/api/users",
      { username: gone.username, email: "squat2@example.com", password: "squat-pass-1" },
      "",
    );
    expect(taken.status).toBe(400);
  });
});

describe("the instant stored", () => {
  it("is the session's own UTC instant, whatever the client's zone", async () => {
    const expert = await newBookableExpert({ timeZone: "Europe/London" });
    const client = await newClient();
    const date = bookableDate({ n: 30, timeZone: "Europe/London" });
    const held = await hold(client, expert.expertId, date, "14:00");
    expect((await getBooking(held.bookingId)).startsAt.getTime()).toBe(
      localToInstant(date, "14:00", "Europe/London"),
    );
  });
});
