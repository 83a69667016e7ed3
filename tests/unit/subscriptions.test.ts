import { parseWithZod } from "@conform-to/zod/v4";
import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import {
  invoicePeriodEnd,
  invoiceSubscriptionId,
  isSubscriptionActive,
  periodEndOf,
  statusFromStripe,
} from "~/models/subscriptions.server";
import { SubscribeAccountSchema, subscribeSchemaFor } from "~/schemas/subscription";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
};

const errorsOf = (fields: Record<string, string>, signedIn = false) => {
  const submission = parseWithZod(form(fields), { schema: subscribeSchemaFor(signedIn) });
  return submission.status === "success" ? {} : submission.error;
};

describe("the subscription form (SPEC.md section 5)", () => {
  it("accepts a valid account and trims the e-mail and username", () => {
    expect(
      SubscribeAccountSchema.parse({ email: " ada@example.com ", username: " ada ", password: "secret1" }),
    ).toEqual({ email: "ada@example.com", username: "ada", password: "secret1" });
  });

  it("says SPEC.md's messages for a bad e-mail, a short username and a short password", () => {
    expect(errorsOf({ email: "ada@", username: "ab", password: "12345" })).toEqual({
      email: ["Please enter a valid email address"],
      username: ["Username must be at least 3 characters"],
      password: ["Password must be at least 6 characters"],
    });
    expect(errorsOf({})).toEqual({
      email: ["Please enter a valid email address"],
      username: ["Username is required"],
      password: ["Password is required"],
    });
  });

  it("asks a signed-in visitor for nothing", () => {
    expect(errorsOf({}, true)).toEqual({});
  });
});

describe("reading Stripe's subscription objects", () => {
  it("maps Stripe's statuses to ours, and refuses to guess an unknown one", () => {
    expect(
      [
        "active",
        "trialing",
        "past_due",
        "unpaid",
        "paused",
        "canceled",
        "incomplete_expired",
        "incomplete",
      ].map(statusFromStripe),
    ).toEqual(["active", "active", "past_due", "unpaid", "unpaid", "canceled", "canceled", "incomplete"]);
    expect(statusFromStripe("something_new")).toBeNull();
  });

  it("reads the period end from the items (API 2025-03-31 and later), or the old top-level field", () => {
    const current = {
      items: { data: [{ current_period_end: 1_800_000_000 }] },
    } as unknown as Stripe.Subscription;
    expect(periodEndOf(current)).toEqual(new Date(1_800_000_000_000));
    const legacy = {
      items: { data: [{}] },
      current_period_end: 1_700_000_000,
    } as unknown as Stripe.Subscription;
    expect(periodEndOf(legacy)).toEqual(new Date(1_700_000_000_000));
    expect(periodEndOf({ items: { data: [] } } as unknown as Stripe.Subscription)).toBeNull();
  });

  it("finds an invoice's subscription in parent.subscription_details, or the old field", () => {
    const current = {
      parent: { type: "subscription_details", subscription_details: { subscription: "sub_new" } },
    } as unknown as Stripe.Invoice;
    expect(invoiceSubscriptionId(current)).toBe("sub_new");
    const legacy = { parent: null, subscription: "sub_old" } as unknown as Stripe.Invoice;
    expect(invoiceSubscriptionId(legacy)).toBe("sub_old");
    expect(invoiceSubscriptionId({ parent: null } as unknown as Stripe.Invoice)).toBeNull();
  });

  it("takes the paid period's end from the invoice's lines", () => {
    const invoice = {
      lines: { data: [{ period: { start: 1, end: 1_800_000_000 } }] },
    } as unknown as Stripe.Invoice;
    expect(invoicePeriodEnd(invoice)).toEqual(new Date(1_800_000_000_000));
  });

  it("counts a subscription active only while its end date is ahead", () => {
    const now = new Date("2026-01-15T12:00:00Z");
    const future = new Date("2026-02-15T12:00:00Z");
    expect(isSubscriptionActive({ status: "active", endDate: future }, now)).toBe(true);
    expect(isSubscriptionActive({ status: "active", endDate: now }, now)).toBe(false);
    expect(isSubscriptionActive({ status: "past_due", endDate: future }, now)).toBe(false);
    expect(isSubscriptionActive({ status: "active", endDate: null }, now)).toBe(false);
    expect(isSubscriptionActive(null, now)).toBe(false);
  });
});
