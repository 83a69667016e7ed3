import { describe, expect, it } from "vitest";
import { formatTimer } from "~/components/questions/audio-recorder";
import { nextDailyQuestionText } from "~/lib/dates";
import { formatDateTime, formatDay, paymentOutcomeText } from "~/lib/questions";
import {
  checkPaymentIntent,
  type ExpectedPayment,
  idempotencyKey,
  subjectMetadata,
} from "~/models/payments.server";
import { AskQuestionSchema, answerSchema, TestAskSchema } from "~/schemas/questions";
import type { PaymentIntent } from "~/services/stripe.server";

const issues = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : result.error!.issues.map((issue) => issue.message);

describe("the ask schema", () => {
  it("takes 10 to 5,000 characters after trimming, with SPEC.md's message", () => {
    expect(issues(AskQuestionSchema.safeParse({ question: "123456789" }))).toEqual([
      "Your question must be at least 10 characters long",
    ]);
    expect(issues(AskQuestionSchema.safeParse({ question: "   123456789   " }))).toEqual([
      "Your question must be at least 10 characters long",
    ]);
    expect(AskQuestionSchema.safeParse({ question: "1234567890" }).success).toBe(true);
    expect(issues(AskQuestionSchema.safeParse({ question: "x".repeat(5001) }))).toEqual([
      "Your question must be at most 5,000 characters long",
    ]);
    expect(AskQuestionSchema.parse({ question: "A real question here" })).toEqual({
      question: "A real question here",
      requestAudioResponse: false,
      showOnProfile: false,
    });
  });

  it("gives /test-audio its own messages", () => {
    expect(issues(TestAskSchema.safeParse({ question: "short" }))).toEqual([
      "Question must be at least 10 characters",
      "Please select an expert",
    ]);
  });
});

describe("the answer schema", () => {
  it("asks the expert for 10 characters and the admin for text or audio", () => {
    expect(issues(answerSchema("expert").safeParse({}))).toEqual([
      "Your answer must be at least 10 characters long",
    ]);
    expect(issues(answerSchema("admin").safeParse({}))).toEqual([
      "Please provide either a text answer or an audio response.",
    ]);
    expect(issues(answerSchema("admin").safeParse({ answer: "too short" }))).toEqual([
      "Your answer must be at least 10 characters long",
    ]);
  });

  it("accepts audio alone, defaults to answered, and refuses an audio draft", () => {
    expect(answerSchema("expert").parse({ hasAudio: true })).toMatchObject({ status: "answered" });
    expect(issues(answerSchema("expert").safeParse({ hasAudio: true, status: "pending" }))).toEqual([
      "An audio response is sent as an answer: choose Answered.",
    ]);
    expect(
      issues(answerSchema("expert").safeParse({ answer: "A fine answer.", status: "in_progress" })),
    ).toHaveLength(1);
  });
});

describe("question display", () => {
  it("formats dates as SPEC.md's table does, and times the same everywhere (UTC)", () => {
    expect(formatDay(new Date("2025-04-22T23:30:00Z"))).toBe("2025-04-22");
    expect(formatDay(null)).toBe("N/A");
    expect(formatDay("not a date")).toBe("N/A");
    expect(formatDateTime(new Date("2025-04-22T09:05:00Z"))).toBe("2025-04-22 09:05 UTC");
  });

  it("dates a question on the viewer's clock when given their zone", () => {
    const asked = formatDateTime(new Date("2025-04-22T23:30:00Z"), "Asia/Tokyo");
    expect(asked).toMatch(/^Wed, Apr 23, 2025, 8:30\sAM GMT\+9$/);
    expect(formatDateTime(null, "Asia/Tokyo")).toBe("N/A");
  });

  it("says when a subscriber's next daily question opens, on their clock once it is known", () => {
    const midnight = Date.parse("2025-04-23T00:00:00Z");
    expect(nextDailyQuestionText(midnight, "UTC")).toBe("tomorrow (from midnight UTC)");
    expect(nextDailyQuestionText(null, "America/Los_Angeles")).toBe("tomorrow (from midnight UTC)");
    expect(nextDailyQuestionText(midnight, "America/Los_Angeles")).toMatch(
      /^from Tue, Apr 22, 2025, 5:00\sPM PDT \(midnight UTC\)$/,
    );
  });

  it("tells the asker what happened to their money", () => {
    expect(paymentOutcomeText("captured", "$15.00")).toBe("Your card was charged $15.00 for this answer.");
    expect(paymentOutcomeText("cancelled", "$15.00")).toContain("you were not charged");
    expect(paymentOutcomeText("none", "$15.00")).toBeNull();
  });

  it("shows the recorder's timer as minutes:seconds", () => {
    expect(formatTimer(0)).toBe("00:00");
    expect(formatTimer(75)).toBe("01:15");
    expect(formatTimer(600)).toBe("10:00");
  });
});

describe("checking a PaymentIntent against its question", () => {
  const subject = { kind: "question" as const, questionId: 42 };
  const expected: ExpectedPayment = {
    subject,
    amount: 1500,
    currency: "usd",
    userId: 7,
    captureMethod: "manual",
    paymentIntentId: "pi_42",
  };
  const intent = (overrides: Partial<PaymentIntent> = {}) =>
    ({
      id: "pi_42",
      amount: 1500,
      currency: "usd",
      capture_method: "manual",
      status: "requires_capture",
      metadata: { kind: "question", questionId: "42", userId: "7" },
      last_payment_error: null,
      ...overrides,
    }) as PaymentIntent;
  const check = (overrides: Partial<PaymentIntent>) =>
    checkPaymentIntent(intent(overrides), expected, { paidStatuses: ["requires_capture"] });

  it("accepts this question's authorised PaymentIntent", () => {
    expect(check({})).toMatchObject({ ok: true });
  });

  it("refuses any other id, amount, currency, capture method or metadata", () => {
    const cases: Partial<PaymentIntent>[] = [
      { id: "pi_other" },
      { amount: 100 },
      { currency: "eur" },
      { capture_method: "automatic" as const },
      { metadata: { kind: "question", questionId: "43", userId: "7" } },
      { metadata: { kind: "booking", questionId: "42", userId: "7" } },
      { metadata: { kind: "question", questionId: "42", userId: "8" } },
      { metadata: {} },
    ];
    for (const overrides of cases) {
      expect(check(overrides), JSON.stringify(overrides)).toMatchObject({ ok: false, reason: "mismatch" });
    }
  });

  it("tells unpaid from failed, with Stripe's message", () => {
    expect(check({ status: "requires_payment_method" })).toMatchObject({ ok: false, reason: "not_paid" });
    expect(
      check({
        status: "requires_payment_method",
        last_payment_error: { message: "Your card was declined." } as PaymentIntent["last_payment_error"],
      }),
    ).toMatchObject({ ok: false, reason: "failed", message: "Your card was declined." });
    expect(check({ status: "canceled" })).toMatchObject({ ok: false, reason: "failed" });
  });

  it("derives metadata and idempotency keys from the row", () => {
    expect(subjectMetadata(subject, 7)).toEqual({ kind: "question", questionId: "42", userId: "7" });
    expect(subjectMetadata({ kind: "booking", bookingId: 3 }, null)).toEqual({
      kind: "booking",
      bookingId: "3",
    });
    expect(idempotencyKey(subject, "capture")).toBe("question-42-capture");
    expect(idempotencyKey(subject, "capture", 1700000000000)).toBe("question-42-capture-retry-1700000000000");
  });
});
