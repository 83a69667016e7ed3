import { getPaths } from "@conform-to/dom";
import { cleanFormValue } from "~/lib/input-text";

/** The most of a form or JSON body the app reads; every text field it takes fits many times over. */
export const BODY_MAX_BYTES = 1024 * 1024;

/**
 * The body's media type from Content-Type, lower-cased, without parameters: "multipart/form-data"
 * for "Multipart/Form-Data; boundary=x". Checked whole, since a header that only mentions a type
 * ("text/plain; x=multipart/form-data") is not that type.
 */
export function mediaTypeOf(request: Pick<Request, "headers">): string {
  return (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
}

/** Whether the body is sent as a form: URL-encoded fields, or multipart (with files). */
export function isFormBody(request: Pick<Request, "headers">): boolean {
  const type = mediaTypeOf(request);
  return type === "application/x-www-form-urlencoded" || type === "multipart/form-data";
}

/**
 * The request's body, read while counting: refused by its declared length before anything is read,
 * and cut off once it passes `limitBytes` when the length was not declared (a chunked body), so an
 * oversized body is never buffered. Null when it is too large.
 */
export async function readBodyWithin(
  request: Pick<Request, "headers" | "body">,
  limitBytes: number,
): Promise<Blob | null> {
  const declared = Number(request.headers.get("Content-Length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limitBytes) return null;
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let seen = 0;
  const reader = request.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += value.byteLength;
    if (seen > limitBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value as Uint8Array<ArrayBuffer>);
  }
  return new Blob(chunks);
}

/**
 * A refused form, thrown. A Response rather than Remix's `data()`: a route without a page (/logout,
 * /reviews) answers a thrown Response as it is, but a thrown `data()` as an unexpected error.
 */
function formRefusal(status: 400 | 413, error: string): Response {
  return Response.json({ error }, { status, headers: { "Cache-Control": "no-store" } });
}

/** The request's form fields; a body that is not a form gets a 400, one over `maxBytes` a 413, never a 500. */
export async function readForm(
  request: Pick<Request, "headers" | "body">,
  maxBytes = BODY_MAX_BYTES,
): Promise<FormData> {
  if (!isFormBody(request)) throw formRefusal(400, "Expected a form submission.");
  const body = await readBodyWithin(request, maxBytes);
  if (!body) throw formRefusal(413, "The form is too large.");
  const form = await parseFormBody(body, request.headers.get("Content-Type") ?? "");
  if (!form) throw formRefusal(400, "The form could not be read.");
  return form;
}

/** Far more fields than any of the app's forms sends (the availability form, the largest, about 25). */
const FIELDS_MAX = 1000;
/** Longer than any field name of the app's forms, many times over. */
const FIELD_NAME_MAX_LENGTH = 200;
/** Higher than any list index the app's forms send (a week's days: 0 to 6). */
const FIELD_INDEX_MAX = 100;
/** The list slots conform may build for one form, all its field names together. */
const LIST_SLOTS_MAX = 1000;

/**
 * Whether conform can read a form with these field names safely. Conform builds an array as long as
 * the index in a name, the schema walks it and a form's reply echoes it: one field named
 * `x[4294967294]`, or thousands named `a1[1000]`, `a2[1000]`..., would take the Worker's memory. Its
 * own reserved names (`__intent__`, `__state__`) are never sent by the app's forms, and conform
 * throws on a malformed name; that would be a 500.
 */
function isReadableByConform(names: string[]): boolean {
  if (names.length > FIELDS_MAX) return false;
  let slots = 0;
  for (const name of names) {
    if (name.length > FIELD_NAME_MAX_LENGTH || name === "__intent__" || name === "__state__") return false;
    let segments: (string | number)[];
    try {
      segments = getPaths(name);
    } catch {
      return false;
    }
    for (const segment of segments) {
      if (typeof segment !== "number") continue;
      if (segment > FIELD_INDEX_MAX) return false;
      slots += segment + 1;
    }
  }
  return slots <= LIST_SLOTS_MAX;
}

/**
 * A read body as form fields, or null when it is not a well-formed form (or one conform could not
 * read safely). A browser sends each line break of a text field as CRLF, though its maxlength and
 * its character counts see one character: text fields get their "\n" back, so the server's limits
 * count what the person saw. Every text field is cleaned as app/lib/input-text.ts says.
 */
export async function parseFormBody(body: Blob, contentType: string): Promise<FormData | null> {
  let parsed: FormData;
  const urlencoded = /^application\/x-www-form-urlencoded/i.test(contentType);
  if (urlencoded && !isUtf8Form(await body.arrayBuffer())) return null;
  try {
    parsed = await new Response(body, { headers: { "Content-Type": contentType } }).formData();
  } catch {
    return null;
  }
  if (!isReadableByConform([...parsed.keys()])) return null;
  if (
    !urlencoded &&
    madeReplacementCharacters(parsed) &&
    !spellsReplacementCharacter(await body.arrayBuffer())
  ) {
    return null;
  }
  const form = new FormData();
  for (const [name, value] of parsed) {
    form.append(
      name,
      cleanFormValue(name, typeof value === "string" ? value.replace(/\r\n?/g, "\n") : value),
    );
  }
  return form;
}

/**
 * Whether a urlencoded body is as a browser's form sends it: UTF-8, with every "%" an escape of
 * UTF-8. The parser swaps anything else for U+FFFD (`%E9`, Latin-1's "é") or drops it (a bare "%"
 * in "100%"): the text would be changed silently.
 */
function isUtf8Form(bytes: ArrayBuffer): boolean {
  const text = strictUtf8(bytes);
  if (text === null) return false;
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** The bytes as text, or null when they are not UTF-8 (a loose decoding would swap them for U+FFFD). */
export function strictUtf8(bytes: ArrayBuffer): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * A multipart form's text parts are decoded loosely too: bytes that are not UTF-8 become U+FFFD.
 * One a person typed arrives as its own three bytes (EF BF BD), so a U+FFFD that the body does not
 * spell anywhere was made by the decoding (a file's bytes may spell it by chance: then it passes).
 */
function madeReplacementCharacters(form: FormData): boolean {
  for (const [name, value] of form) {
    if (name.includes("\uFFFD") || (typeof value === "string" && value.includes("\uFFFD"))) return true;
  }
  return false;
}

function spellsReplacementCharacter(body: ArrayBuffer): boolean {
  const bytes = new Uint8Array(body);
  for (let index = bytes.indexOf(0xef); index !== -1; index = bytes.indexOf(0xef, index + 1)) {
    if (bytes[index + 1] === 0xbf && bytes[index + 2] === 0xbd) return true;
  }
  return false;
}

/** The first message of a refused form's fields ("Unknown expert."), or `fallback` when none names one. */
export function firstFieldError(error: Record<string, string[] | null> | null | undefined, fallback: string) {
  return Object.values(error ?? {}).flat()[0] ?? fallback;
}
