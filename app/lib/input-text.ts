/**
 * Text as it arrives in a form or a JSON body, before any schema sees it: what can't be shown or
 * stored is taken out, so "required" and "at least 10 characters" count what a person would read.
 *
 * - a lone surrogate half (only JSON can send one) becomes U+FFFD: D1 would otherwise store bytes
 *   that are not UTF-8 and give back garbage;
 * - control characters other than tab and line breaks (NUL and the like) are dropped;
 * - characters that are invisible and mean nothing in plain text (zero-width space, word joiner,
 *   byte-order mark) are dropped;
 * - the two bidirectional overrides (U+202D, U+202E) are dropped: they draw the letters after them
 *   in reverse, so "evil" can read "live". Marks, embeddings and isolates stay, since right-to-left
 *   writing uses them and none of them reorders the letters of a word;
 * - the ends lose whitespace and every invisible format character (joiners and direction marks
 *   only mean something between letters), so eleven zero-width joiners are an empty question; but
 *   the tag characters that spell a flag such as Wales' (U+E0020 to U+E007F right after 🏴) stay
 *   at the end. Anywhere else at the ends they are invisible padding, and go.
 *
 * Passwords are left exactly as typed: they are compared, never shown.
 */
export function cleanInputText(text: string): string {
  return text
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD")
    .replace(/(?![\t\n\r])\p{Cc}/gu, "")
    .replace(/[\u200B\u2060\uFEFF\u202D\u202E]/g, "")
    .replace(
      /^[\s\p{Cf}]+|(?:(?!(?<=\u{1F3F4}[\u{E0020}-\u{E007E}]*)[\u{E0020}-\u{E007F}])[\s\p{Cf}])+$/gu,
      "",
    );
}

/**
 * `text` cut to at most `maxUnits` UTF-16 units (what `.length` and the schemas' limits count),
 * one unit shorter where the cut would split a character such as an emoji in half: the half
 * would be shown or stored as U+FFFD.
 */
export function cutText(text: string, maxUnits: number): string {
  const cut = text.slice(0, maxUnits);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

const isPasswordField = (name: string) => /password/i.test(name);

/** A form field's value cleaned by `cleanInputText`, unless it is a password or a file. */
export function cleanFormValue<Value extends string | File>(name: string, value: Value): Value {
  return (typeof value === "string" && !isPasswordField(name) ? cleanInputText(value) : value) as Value;
}

/** How deep a JSON body may nest: ours go three levels; deeper is refused, not recursed into. */
export const MAX_JSON_DEPTH = 32;

export class JsonTooDeepError extends Error {}

/**
 * Every string in a parsed JSON body cleaned by `cleanInputText`, except passwords' values. Throws
 * JsonTooDeepError past MAX_JSON_DEPTH (JSON.parse takes thousands of levels; a recursion would not).
 */
export function cleanJsonValue(value: unknown, name = "", depth = 0): unknown {
  if (typeof value === "string") return isPasswordField(name) ? value : cleanInputText(value);
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_JSON_DEPTH) throw new JsonTooDeepError("The body is nested too deeply");
  if (Array.isArray(value)) return value.map((item) => cleanJsonValue(item, name, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, cleanJsonValue(item, key, depth + 1)]),
  );
}
