/**
 * True when D1 refused a write because of a UNIQUE constraint. Drizzle wraps the driver's error
 * ("Failed query: ..."), so the whole cause chain is searched.
 */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (String((current as Error).message ?? current).includes("UNIQUE constraint failed")) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
