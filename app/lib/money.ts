/** All amounts are integer cents; this is the one place they become text. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  return `${sign}$${(Math.abs(cents) / 100).toFixed(2)}`;
}

/** A dollars value typed by a person ("12.5", "abc") as cents; non-numeric becomes 0 (SPEC.md). */
export function dollarsToCents(input: string | number): number {
  const dollars = typeof input === "number" ? input : Number.parseFloat(input);
  if (!Number.isFinite(dollars)) return 0;
  return Math.round(dollars * 100);
}
