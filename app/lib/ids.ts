/**
 * A positive record id written as digits ("12"), or null ("abc", "-3", "0", "1e3", "0x0a", " 7"):
 * the one reading of an id from a path, a query or a form, never Number()'s, which takes all of those.
 */
export function parseId(text: string | null | undefined): number | null {
  if (!text || !/^\d{1,12}$/.test(text)) return null;
  const id = Number(text);
  return id > 0 ? id : null;
}
