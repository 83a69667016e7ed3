import { cutText } from "./input-text";

/**
 * Turns what a visitor typed into an FTS5 query: each word becomes a quoted prefix term ("mark"*)
 * and all must match. Quoting makes every character literal, so nothing typed can change the query's
 * structure (operators, column filters, NEAR, quotes); the value is also bound as a parameter, never
 * spliced into SQL. Returns null when there is nothing searchable (only punctuation, say).
 */
const MAX_TERMS = 8;
const MAX_TERM_LENGTH = 40;

export function toFtsQuery(search: string): string | null {
  const words =
    search
      .normalize("NFKC")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  const terms = [...new Set(words.map((word) => cutText(word, MAX_TERM_LENGTH)))].slice(0, MAX_TERMS);
  if (terms.length === 0) return null;
  return terms.map((term) => `"${term}"*`).join(" ");
}
