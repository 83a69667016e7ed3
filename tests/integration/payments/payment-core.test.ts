/**
 * The shared payment core on its own, as bookings (automatic capture, refunds) and subscriptions
 * will use it: against the Stripe fake, inside workerd.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import {
  capturePayment,
  createPaymentIntent,
  getLedgerLine,
  idempotencyKey,
  ledgerUpdateStatement,
  ledgerUpsertStatement,
  type PaymentSubject,
  refundPayment,
  verifyPaymentIntent,
} from "~/models/payments.server";
import { eventKind } from "~/models/stripe-webhooks.server";
import { createStripeClient, type StripeEvent } from "~/services/stripe.server";
import { db } from "../support/accounts";
import { stripeFake } from "../support/stripe";

const stripe = () => createStripeClient(parseConfig(env as unknown as Record<string, unknown>).stripe);
// Bookings are made up here (no rows); a random start keeps their idempotency keys apart between runs.
let nextBooking = Math.floor(Math.random() * 1_000_000_000);
const booking = (): PaymentSubject => ({ kind: "booking", bookingId: ++nextBooking });

describe("the payment core", () => {
  it("creates one PaymentIntent per row and action, whatever the retries", async () => {
    const subject = booking();
    const input = { subject, amount: 10_000, userId: 7, captureMethod: "automatic" as const };
    const first = await createPaymentIntent(stripe(), input);
    const second = await createPaymentIntent(stripe(), input);
    expect(second.id).toBe(first.id);
    expect(first).toMatchObject({
      amount: 10_000,
      currency: "usd",
      capture_method: "automatic",
      metadata: {
        kind: "booking",
        bookingId: String(subject.kind === "booking" && subject.bookingId),
        userId: "7",
      },
    });
    const requests = await stripeFake.requests(first.id);
    expect(requests.map((request) => [request.idempotencyKey, request.replayed])).toEqual([
      [idempotencyKey(subject, "create"), false],
      [idempotencyKey(subject, "create"), true],
    ]);
  });

  it("refuses to create a PaymentIntent for nothing or a fraction of a cent", async () => {
    for (const amount of [0, -500, 12.5]) {
      await expect(
        createPaymentIntent(stripe(), { subject: booking(), amount, userId: 1, captureMethod: "automatic" }),
      ).rejects.toThrow(/Refusing/);
    }
  });

  it("verifies a paid booking's PaymentIntent and refuses one for another row", async () => {
    const subject = booking();
    const intent = await createPaymentIntent(stripe(), {
      subject,
      amount: 5_000,
      userId: 3,
      captureMethod: "automatic",
    });
    const expected = {
      subject,
      amount: 5_000,
      currency: "usd",
      userId: 3,
      captureMethod: "automatic" as const,
      paymentIntentId: intent.id,
    };
    const unpaid = await verifyPaymentIntent(stripe(), db(), intent.id, expected, {
      paidStatuses: ["succeeded"],
    });
    expect(unpaid).toMatchObject({ ok: false, reason: "not_paid" });
    await stripeFake.setStatus(intent.id, "succeeded");
    expect(
      await verifyPaymentIntent(stripe(), db(), intent.id, expected, { paidStatuses: ["succeeded"] }),
    ).toMatchObject({
      ok: true,
    });
    const other = booking();
    expect(
      await verifyPaymentIntent(
        stripe(),
        db(),
        intent.id,
        { ...expected, subject: other, paymentIntentId: null },
        {
          paidStatuses: ["succeeded"],
        },
      ),
    ).toMatchObject({ ok: false, reason: "mismatch" });
    expect(
      await verifyPaymentIntent(
        stripe(),
        db(),
        "pi_unknown",
        { ...expected, paymentIntentId: null },
        {
          paidStatuses: ["succeeded"],
        },
      ),
    ).toMatchObject({ ok: false, reason: "mismatch" });
  });

  it("refunds in full with an idempotency key, once", async () => {
    const subject = booking();
    const intent = await createPaymentIntent(stripe(), {
      subject,
      amount: 8_000,
      userId: 2,
      captureMethod: "automatic",
    });
    await stripeFake.setStatus(intent.id, "succeeded");
    const first = await refundPayment(stripe(), {
      subject,
      paymentIntentId: intent.id,
      reason: "requested_by_customer",
    });
    expect(first).toMatchObject({ ok: true, result: { amount: 8_000 } });
    const again = await refundPayment(stripe(), {
      subject,
      paymentIntentId: intent.id,
      reason: "requested_by_customer",
    });
    expect(again.ok).toBe(true);
    const refunds = (await stripeFake.requests(intent.id)).filter(
      (request) => request.path === "/v1/refunds",
    );
    expect(refunds.map((request) => [request.idempotencyKey, request.replayed])).toEqual([
      [idempotencyKey(subject, "refund"), false],
      [idempotencyKey(subject, "refund"), true],
    ]);
    expect(refunds[0].params).toMatchObject({ payment_intent: intent.id, reason: "requested_by_customer" });
    // A deliberate second refund (a new key) finds the charge already refunded: done, not an error.
    const later = await refundPayment(stripe(), {
      subject,
      paymentIntentId: intent.id,
      retryStamp: Date.now(),
    });
    expect(later).toMatchObject({ ok: true, alreadyDone: true });
  });

  it("counts capturing an already captured PaymentIntent as done", async () => {
    const subject = booking();
    const intent = await createPaymentIntent(stripe(), {
      subject,
      amount: 2_000,
      userId: 2,
      captureMethod: "manual",
    });
    await stripeFake.setStatus(intent.id, "requires_capture");
    expect(await capturePayment(stripe(), { subject, paymentIntentId: intent.id })).toMatchObject({
      ok: true,
      alreadyDone: false,
    });
    expect(
      await capturePayment(stripe(), { subject, paymentIntentId: intent.id, retryStamp: 1 }),
    ).toMatchObject({
      ok: true,
      alreadyDone: true,
    });
  });

  it("moves a ledger line forward only, never back", async () => {
    const now = new Date();
    const ref = { stripeInvoiceId: `in_test_${Date.now()}` };
    const line = { kind: "subscription" as const, ref, amount: 2_000, userId: null, expertId: null };
    await ledgerUpsertStatement(
      db(),
      { ...line, status: "captured", settledAt: now },
      { now, replaceFrom: ["pending"] },
    );
    await ledgerUpsertStatement(db(), { ...line, status: "pending" }, { now, replaceFrom: ["pending"] });
    expect(await getLedgerLine(db(), ref)).toMatchObject({ status: "captured" });
    await ledgerUpdateStatement(db(), ref, { status: "refunded" }, { now, from: ["captured"] });
    expect(await getLedgerLine(db(), ref)).toMatchObject({ status: "refunded" });
  });

  it("dispatches webhook events by metadata.kind, subscription lifecycle events by type", () => {
    const event = (type: string, object: unknown) => ({ type, data: { object } }) as unknown as StripeEvent;
    expect(eventKind(event("payment_intent.succeeded", { metadata: { kind: "booking" } }))).toBe("booking");
    expect(eventKind(event("invoice.paid", { metadata: {} }))).toBe("subscription");
    expect(eventKind(event("customer.subscription.deleted", {}))).toBe("subscription");
    expect(eventKind(event("payment_intent.succeeded", { metadata: {} }))).toBeNull();
  });
});
