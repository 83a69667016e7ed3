/** How questions are priced, and how they read in the asker's, the expert's and the admin's views. */

import { formatLocalDateTime } from "./dates";

/** A question with no expert chosen costs this; an expert's own rate is never below it. */
export const DEFAULT_QUESTION_PRICE = 500;
/**
 * What a subscriber's daily question earns its expert at most: the standard question fee, never the
 * expert's own rate (up to $10,000 a day, farmed by an expert subscribing a second account and asking
 * themselves), and no more than a month's price over any 30 days of one subscriber's questions
 * (`subscriptionCreditStatement`).
 */
export const SUBSCRIPTION_QUESTION_CREDIT = DEFAULT_QUESTION_PRICE;

export type QuestionStatus =
  | "awaiting_payment"
  | "pending"
  | "in_progress"
  | "answered"
  | "rejected"
  | "expired";

/**
 * SPEC.md section 4's status texts, and ours for the states it does not name: what the asker reads,
 * on their dashboard and on the question's own page alike.
 */
export const QUESTION_STATUS_LABELS: Record<QuestionStatus, string> = {
  awaiting_payment: "Awaiting payment",
  pending: "Awaiting expert answer",
  in_progress: "Expert is working on your answer",
  answered: "Answered",
  rejected: "Declined",
  expired: "No answer in time",
};

/** The short status shown in the expert's and the admin's tables. */
export const QUESTION_STATUS_SHORT: Record<QuestionStatus, string> = {
  awaiting_payment: "awaiting payment",
  pending: "pending",
  in_progress: "in progress",
  answered: "answered",
  rejected: "rejected",
  expired: "expired",
};

/** The admin list's filters (SPEC.md: all, pending, answered). */
export const ADMIN_FILTERS = ["all", "pending", "answered"] as const;
export type AdminFilter = (typeof ADMIN_FILTERS)[number];

/** Open questions the expert still has to answer. */
export const OPEN_QUESTION_STATUSES = ["pending", "in_progress"] as const;

/** Whether a question is still waiting for its expert's answer. */
export const isOpenQuestion = (status: string) =>
  (OPEN_QUESTION_STATUSES as readonly string[]).includes(status);

/**
 * How often a screen waiting on a question (SPEC.md section 9: the expert's list refreshes every 30
 * seconds) or on an answer (the asker's) reloads it.
 */
export const WAITING_REFRESH_MS = 30_000;

/** Answered and All on the expert's question desk show this many at a time, newest first. */
export const DESK_PAGE_SIZE = 50;

const toDate = (value: Date | string | number | null | undefined) =>
  value === null || value === undefined ? null : new Date(value);

/** yyyy-MM-dd in UTC, or N/A (SPEC.md's table date). */
export function formatDay(value: Date | string | number | null | undefined): string {
  const date = toDate(value);
  if (!date || Number.isNaN(date.getTime())) return "N/A";
  return date.toISOString().slice(0, 10);
}

/**
 * yyyy-MM-dd HH:mm UTC, the same on the server and in every browser (no hydration mismatch); in
 * another zone (the viewer's, once the page is live: useViewerTimeZone) "Fri, Nov 27, 2026, 2:55 PM PST".
 */
export function formatDateTime(value: Date | string | number | null | undefined, timeZone = "UTC"): string {
  const date = toDate(value);
  if (!date || Number.isNaN(date.getTime())) return "N/A";
  if (timeZone !== "UTC") return formatLocalDateTime(date.getTime(), timeZone);
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** What the asker is told about their money, by the question's payment state. */
export function paymentOutcomeText(paymentState: string, amountText: string): string | null {
  switch (paymentState) {
    case "authorized":
      return `${amountText} is authorised on your card and charged only when the expert answers.`;
    case "captured":
      return `Your card was charged ${amountText} for this answer.`;
    case "capture_failed":
      return `The charge of ${amountText} for this answer is being processed.`;
    case "cancelled":
      return "The authorisation on your card was cancelled: you were not charged.";
    case "subscription":
      return "Included in your subscription.";
    case "test_mode":
      return "Submitted in test mode: no payment was taken.";
    default:
      return null;
  }
}
