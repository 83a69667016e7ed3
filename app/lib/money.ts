const DOLLARS = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** All amounts are integer cents; this is the one place they become text ("$1,234.50"). */
export function formatCents(cents: number): string {
  // `|| 0`: a negative zero would read "-$0.00".
  return DOLLARS.format(cents / 100 || 0);
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
