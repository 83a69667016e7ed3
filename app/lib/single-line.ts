/**
 * A name as one line of plain text: line breaks, tabs and other control characters become one
 * space, and bidirectional overrides (which reorder how the text around them reads) are dropped.
 * Names are sent in notifications and e-mails, where a line break would start a paragraph of the
 * sender's own words under the site's name.
 */
export function toSingleLine(text: string): string {
  return text
    .replace(/[\u202A-\u202E\u2066-\u2069]/g, "")
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, " ")
    .replace(/ {2,}/g, " ");
}
