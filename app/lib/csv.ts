/**
 * CSV (RFC 4180) for spreadsheet exports. Text that a spreadsheet would run as a formula (starting
 * with = + - @, or a tab or carriage return that some programs skip first) gets a leading apostrophe,
 * so a client's name like "=HYPERLINK(...)" stays text (OWASP "CSV injection").
 */

export type CsvValue = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  // Numbers we format ourselves are data, never formulas (a negative amount stays a number).
  let text = typeof value === "number" ? String(value) : value;
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows of cells as CSV text with CRLF line ends (what spreadsheets expect). */
export function toCsv(rows: ReadonlyArray<ReadonlyArray<CsvValue>>): string {
  return rows
    .map((row) => row.map(csvCell).join(","))
    .join("\r\n")
    .concat("\r\n");
}
