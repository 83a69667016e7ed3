/**
 * All amounts are integer cents; this is the one place they become text ("$1,234.50"), exactly as
 * `Intl.NumberFormat("en-US", { style: "currency", currency: "USD" })` writes them
 * (tests/unit/money.test.ts compares the two), but without Intl: a page's first Intl formatter makes
 * Chrome load ICU's locale data, about 25 ms of main thread in one task (four times that on a phone),
 * and every public page shows a price. See ~/lib/utc-dates for the same reason with dates.
 */
export function formatCents(cents: number): string {
  const whole = Number.isFinite(cents) ? Math.round(Math.abs(cents)) : 0;
  // No sign on an amount that reads as zero (Intl would write "-$0.00").
  const sign = cents < 0 && whole > 0 ? "-" : "";
  const dollars = String(Math.floor(whole / 100)).replace(/\B(?=(\d{3})+$)/g, ",");
  return `${sign}$${dollars}.${String(whole % 100).padStart(2, "0")}`;
}

/**
 * The refusal when the price a person saw is no longer the price: an expert changed it while the
 * page was open. They are never charged an amount they were not shown.
 */
export function priceChangedMessage(what: "question" | "session", cents: number): string {
  return `The price of this ${what} has changed to ${formatCents(cents)}. Please check it and try again.`;
}

/** Digits with an optional decimal point: nothing else is a price ("49,99" is not 49 dollars). */
const PLAIN_DOLLARS = /^(\d+\.?\d*|\.\d+)$/;

/**
 * A dollars value typed by a person ("12.5", "abc") as cents; non-numeric becomes 0 (SPEC.md), and
 * so does anything that is not a plain decimal number: a comma, a currency sign, trailing text.
 */
export function dollarsToCents(input: string | number): number {
  const text = typeof input === "string" ? input.trim() : "";
  const dollars = typeof input === "number" ? input : PLAIN_DOLLARS.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(dollars)) return 0;
  return Math.round(dollars * 100);
}
