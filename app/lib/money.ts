/**
 * All amounts are integer cents; this is the one place they become text ("$1,234.50"), exactly as
 * `Intl.NumberFormat("en-US", { style: "currency", currency: "USD" })` writes them
 * (tests/unit/money.test.ts compares the two), but without Intl: a page's first Intl formatter makes
 * Chrome load ICU's locale data, about 25 ms of main thread in one task (four times that on a phone),
 * and every public page shows a price. See ~/lib/utc-dates for the same reason with dates.
 */
export function formatCents(cents: number): string {
  // `|| 0`: NaN reads as zero.
  const text = (Math.abs(cents) / 100 || 0).toFixed(2);
  // No sign on an amount that reads as zero (Intl would write "-$0.00").
  return `${cents < 0 && +text ? "-" : ""}$${text.replace(/\B(?=(\d{3})+\.)/g, ",")}`;
}

/**
 * The refusal when the price a person saw is no longer the price: an expert changed it while the
 * page was open. They are never charged an amount they were not shown.
 */
export function priceChangedMessage(what: "question" | "session", cents: number): string {
  return `The price of this ${what} has changed to ${formatCents(cents)}. Please check it and try again.`;
}
