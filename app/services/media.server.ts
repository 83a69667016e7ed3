/**
 * Uploads to R2 (DESIGN.md "Media"): size limits, and the file's type decided from its bytes (magic
 * numbers), never from the name or the declared type. Images are public under content-addressed keys;
 * audio answers are private and served only through a route that checks who is asking.
 */
import { toHex } from "~/lib/bytes";
import { isFormBody, parseFormBody, readBodyWithin } from "~/lib/form-data.server";
import { AUDIO_UPLOAD_MAX_BYTES } from "~/schemas/questions";
import { id3TagsEnd } from "./audio-files.server";

export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const AUDIO_MAX_BYTES = AUDIO_UPLOAD_MAX_BYTES;
/** Room for the multipart boundaries and the other fields of an upload form. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export const IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];
export const AUDIO_TYPES = [
  "audio/webm",
  "audio/ogg",
  "audio/mp4",
  "audio/mpeg",
  "audio/wav",
  "audio/flac",
  "audio/aac",
] as const;
export type AudioType = (typeof AUDIO_TYPES)[number];

const EXTENSIONS: Record<ImageType | AudioType, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
  "audio/webm": "webm",
  "audio/ogg": "ogg",
  "audio/mp4": "m4a",
  "audio/mpeg": "mp3",
  "audio/wav": "wav",
  "audio/flac": "flac",
  "audio/aac": "aac",
};

/** ISO base media brands of still images (an iPhone's HEIC photo, AVIF): the same box, not sound. */
const IMAGE_BRANDS = new Set([
  "heic",
  "heix",
  "hevc",
  "hevx",
  "heim",
  "heis",
  "mif1",
  "msf1",
  "avif",
  "avis",
]);

/** An upload refused for a reason the person can fix; `status` is the HTTP status to answer with. */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 413 | 415,
  ) {
    super(message);
  }
}

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length &&
  signature.every((byte, index) => bytes[offset + index] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

export function sniffImageType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  return null;
}

export function sniffAudioType(bytes: Uint8Array): AudioType | null {
  // EBML header: WebM (what Chrome and Firefox's MediaRecorder produce) and Matroska.
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return "audio/webm";
  if (startsWith(bytes, ascii("OggS"))) return "audio/ogg";
  // ISO base media: Safari records audio/mp4; the "ftyp" box sits at offset 4, its brand after it.
  if (startsWith(bytes, ascii("ftyp"), 4)) {
    const brand = String.fromCharCode(...bytes.subarray(8, 12));
    return IMAGE_BRANDS.has(brand) ? null : "audio/mp4";
  }
  if (startsWith(bytes, ascii("fLaC"))) return "audio/flac";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WAVE"), 8)) return "audio/wav";
  if (startsWith(bytes, ascii("ID3"))) {
    // Tags come before MP3 frames mostly, but before FLAC or ADTS AAC too: the audio after them decides.
    const end = id3TagsEnd(bytes);
    const tagged = end > 0 ? sniffAudioType(bytes.subarray(end)) : null;
    return tagged === "audio/flac" || tagged === "audio/aac" ? tagged : "audio/mpeg";
  }
  if (bytes.length >= 2 && bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0) {
    // A bare MPEG audio frame: 11 sync bits set, and a valid layer. Layer 0 with 12 sync bits is an
    // AAC stream's ADTS header instead (.aac files).
    if ((bytes[1] & 0x06) !== 0) return "audio/mpeg";
    if ((bytes[1] & 0xf0) === 0xf0) return "audio/aac";
  }
  return null;
}

const formatMegabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * Reads a form that carries uploads of at most `maxBytes` in all: refused (413) by its declared
 * length before anything is read, and cut off while streaming when no length was declared, so a huge
 * body is never buffered. A body that is not a form is a 400.
 */
export async function readUploadForm(request: Request, maxBytes: number): Promise<FormData> {
  if (!isFormBody(request)) throw new UploadError("Expected a form submission.", 400);
  const body = await readBodyWithin(request, maxBytes + MULTIPART_OVERHEAD_BYTES);
  if (!body) throw new UploadError(`The file is too large (at most ${formatMegabytes(maxBytes)}).`, 413);
  const form = await parseFormBody(body, request.headers.get("Content-Type") ?? "");
  if (!form) throw new UploadError("The form could not be read.", 400);
  return form;
}

type Sniffer<T> = (bytes: Uint8Array) => T | null;

/**
 * Reads one uploaded file: present, within `maxBytes`, and of an allowed type judged by its bytes.
 * Returns the bytes and their true content type.
 */
export async function readUploadedFile<T extends string>(
  value: FormDataEntryValue | null,
  { maxBytes, sniff, wrongTypeMessage }: { maxBytes: number; sniff: Sniffer<T>; wrongTypeMessage: string },
): Promise<{ bytes: Uint8Array<ArrayBuffer>; contentType: T }> {
  if (!value || typeof value === "string" || value.size === 0) {
    throw new UploadError("Please choose a file to upload.", 400);
  }
  if (value.size > maxBytes) {
    throw new UploadError(`The file is too large (at most ${formatMegabytes(maxBytes)}).`, 413);
  }
  const bytes = new Uint8Array(await value.arrayBuffer());
  const contentType = sniff(bytes);
  if (!contentType) throw new UploadError(wrongTypeMessage, 415);
  return { bytes, contentType };
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return toHex(digest);
}

/** Public images live under a key made from their content, so a URL never changes meaning. */
export async function storeImage(media: R2Bucket, bytes: Uint8Array<ArrayBuffer>, contentType: ImageType) {
  const key = `images/${await sha256Hex(bytes)}.${EXTENSIONS[contentType]}`;
  await media.put(key, bytes, {
    httpMetadata: { contentType, cacheControl: "public, max-age=31536000, immutable" },
  });
  return { key, url: mediaUrl(key) };
}

/** Private audio answers; the key is never guessable and is served only through an access check. */
export async function storeAudio(
  media: R2Bucket,
  bytes: Uint8Array,
  contentType: AudioType,
  { questionId }: { questionId: number },
) {
  const key = `audio/questions/${questionId}/${crypto.randomUUID()}.${EXTENSIONS[contentType]}`;
  await media.put(key, bytes, { httpMetadata: { contentType } });
  return { key };
}

export const MEDIA_URL_PREFIX = "/media/";

/** The public URL of a stored image key. */
export const mediaUrl = (key: string) => `${MEDIA_URL_PREFIX}${key}`;

/** The R2 key behind a URL this app made, or null for anything else (seeded files in public/, links). */
export function mediaKeyFromUrl(url: string | null | undefined): string | null {
  if (!url?.startsWith(`${MEDIA_URL_PREFIX}images/`)) return null;
  return url.slice(MEDIA_URL_PREFIX.length);
}

/** Removes an image this app stored, when it is replaced; other URLs are left alone. */
export async function deleteStoredImage(media: R2Bucket, url: string | null | undefined) {
  const key = mediaKeyFromUrl(url);
  if (key) await media.delete(key);
}

/**
 * Answers a GET for an R2 object, honouring a single HTTP Range (players seek with these).
 * `cacheControl` decides who may keep a copy: immutable for public images, no-store for audio.
 */
export async function serveObject(
  media: R2Bucket,
  key: string,
  request: Request,
  { cacheControl }: { cacheControl: string },
): Promise<Response> {
  const head = await media.head(key);
  if (!head) return new Response("Not Found", { status: 404, headers: { "Cache-Control": "no-store" } });
  const size = head.size;
  const headers = new Headers({
    "Content-Type": head.httpMetadata?.contentType ?? "application/octet-stream",
    "Cache-Control": cacheControl,
    "Accept-Ranges": "bytes",
    ETag: head.httpEtag,
    "X-Content-Type-Options": "nosniff",
  });
  if (request.headers.get("If-None-Match") === head.httpEtag) {
    return new Response(null, { status: 304, headers });
  }
  // If-Range: a range of a copy that has changed since is no use; the whole new one is sent instead.
  const ifRange = request.headers.get("If-Range");
  const range =
    ifRange === null || ifRange === head.httpEtag ? parseRange(request.headers.get("Range"), size) : null;
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  const object = await media.get(
    key,
    range ? { range: { offset: range.start, length: range.end - range.start + 1 } } : {},
  );
  if (!object) return new Response("Not Found", { status: 404, headers: { "Cache-Control": "no-store" } });
  if (range) {
    headers.set("Content-Range", `bytes ${range.start}-${range.end}/${size}`);
    headers.set("Content-Length", String(range.end - range.start + 1));
    return new Response(object.body, { status: 206, headers });
  }
  headers.set("Content-Length", String(size));
  return new Response(object.body, { status: 200, headers });
}

/** One "bytes=a-b", "bytes=a-" or "bytes=-n" range; anything else is served whole. */
export function parseRange(
  header: string | null,
  size: number,
): { start: number; end: number } | "unsatisfiable" | null {
  const match = header?.match(/^bytes=(\d*)-(\d*)$/);
  if (!match || (match[1] === "" && match[2] === "")) return null;
  let start: number;
  let end: number;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return "unsatisfiable";
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return "unsatisfiable";
  return { start, end };
}
