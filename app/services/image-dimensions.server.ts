/**
 * The pixel size an image declares in its header, for the four types we take, and whether the file
 * is whole. A few kilobytes can declare 20,000 × 20,000 pixels, which every visitor's browser would
 * then decode into gigabytes of memory; the byte limit alone does not stop that. Written here rather
 * than with a library: it needs four formats' structure, not their pixels, and the Worker bundle has
 * little room left.
 */
import type { ImageType } from "./media.server";

export type Dimensions = { width: number; height: number };

/** The largest picture we keep: wider than any screen, and every phone camera's photo fits. */
export const IMAGE_MAX_SIDE_PIXELS = 8192;
export const IMAGE_MAX_PIXELS = 24_000_000;
export const IMAGE_TOO_MANY_PIXELS_MESSAGE =
  "The image has too many pixels (at most 8192 on a side and 24 megapixels). Please choose a smaller picture.";

const u16be = (bytes: Uint8Array, at: number) => (bytes[at] << 8) | bytes[at + 1];
const u16le = (bytes: Uint8Array, at: number) => bytes[at] | (bytes[at + 1] << 8);
const u24le = (bytes: Uint8Array, at: number) => bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);
const u32be = (bytes: Uint8Array, at: number) =>
  ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
const text = (bytes: Uint8Array, at: number, length: number) =>
  String.fromCharCode(...bytes.subarray(at, at + length));

function png(bytes: Uint8Array): Dimensions | null {
  // The signature, then the IHDR chunk first of all: length, "IHDR", width, height.
  if (bytes.length < 24 || text(bytes, 12, 4) !== "IHDR") return null;
  return { width: u32be(bytes, 16), height: u32be(bytes, 20) };
}

/** The bytes a colour table of the given packed field takes (none when its flag is off). */
const colorTableBytes = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);

/** Skips a run of data sub-blocks (a length byte, that many bytes, ... a zero); the offset after it. */
function skipSubBlocks(bytes: Uint8Array, at: number): number {
  let next = at;
  while (next < bytes.length && bytes[next] !== 0) next += 1 + bytes[next];
  return next + 1;
}

function gif(bytes: Uint8Array): Dimensions | null {
  if (bytes.length < 13) return null;
  // The logical screen; but browsers grow it to hold any frame that is larger, so every frame's
  // extent counts too (a 1 × 1 screen can carry a 20,000 × 20,000 frame).
  let width = u16le(bytes, 6);
  let height = u16le(bytes, 8);
  let at = 13 + colorTableBytes(bytes[10]);
  while (at < bytes.length) {
    const block = bytes[at];
    if (block === 0x3b) break; // trailer
    if (block === 0x21) {
      at = skipSubBlocks(bytes, at + 2); // extension: introducer, label, sub-blocks
    } else if (block === 0x2c) {
      if (at + 10 > bytes.length) return null;
      width = Math.max(width, u16le(bytes, at + 1) + u16le(bytes, at + 5));
      height = Math.max(height, u16le(bytes, at + 3) + u16le(bytes, at + 7));
      // Descriptor, local colour table, LZW code size, image data.
      at = skipSubBlocks(bytes, at + 10 + colorTableBytes(bytes[at + 9]) + 1);
    } else {
      return null; // not a GIF block: a damaged file
    }
  }
  return { width, height };
}

function webp(bytes: Uint8Array): Dimensions | null {
  if (bytes.length < 30) return null;
  switch (text(bytes, 12, 4)) {
    case "VP8 ": // Lossy: the key frame's start code, then 14-bit width and height.
      if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return null;
      return { width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
    case "VP8L": {
      // Lossless: a signature byte, then width - 1 and height - 1 in 14 bits each.
      if (bytes[20] !== 0x2f) return null;
      const bits = (bytes[21] | (bytes[22] << 8) | (bytes[23] << 16) | (bytes[24] << 24)) >>> 0;
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case "VP8X": // Extended (alpha, animation): the canvas's width - 1 and height - 1.
      return { width: u24le(bytes, 24) + 1, height: u24le(bytes, 27) + 1 };
    default:
      return null;
  }
}

/** Start-of-frame markers (baseline, progressive, lossless...): all but DHT, JPG and DAC. */
const isStartOfFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpeg(bytes: Uint8Array): Dimensions | null {
  let at = 2;
  while (at + 9 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // Markers that stand alone, without a length: TEM and RSTn.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (isStartOfFrame(marker)) return { width: u16be(bytes, at + 7), height: u16be(bytes, at + 5) };
    if (marker === 0xd9 || marker === 0xda) return null; // the end, or the data, before any frame
    at += 2 + u16be(bytes, at + 2);
  }
  return null;
}

const READERS: Record<ImageType, (bytes: Uint8Array) => Dimensions | null> = {
  "image/png": png,
  "image/gif": gif,
  "image/webp": webp,
  "image/jpeg": jpeg,
};

/** The declared size, or null when the header cannot be read (a damaged or cut file). */
export function imageDimensions(bytes: Uint8Array, type: ImageType): Dimensions | null {
  const dimensions = READERS[type](bytes);
  return dimensions && dimensions.width > 0 && dimensions.height > 0 ? dimensions : null;
}

/** A PNG is whole when its chunks, each within the file, lead to the IEND chunk. */
function pngIsWhole(bytes: Uint8Array): boolean {
  let at = 8;
  while (at + 12 <= bytes.length) {
    if (text(bytes, at + 4, 4) === "IEND") return true;
    at += 12 + u32be(bytes, at);
  }
  return false;
}

/** A GIF is whole when its blocks, each within the file, lead to the trailer (0x3B). */
function gifIsWhole(bytes: Uint8Array): boolean {
  let at = 13 + colorTableBytes(bytes[10]);
  while (at < bytes.length) {
    const block = bytes[at];
    if (block === 0x3b) return true;
    if (block === 0x21) at = skipSubBlocks(bytes, at + 2);
    else if (block === 0x2c) at = skipSubBlocks(bytes, at + 10 + colorTableBytes(bytes[at + 9]) + 1);
    else return false;
  }
  return false;
}

/** A WebP is whole when the file holds every byte its RIFF header counts. */
const webpIsWhole = (bytes: Uint8Array) =>
  bytes.length >= 12 &&
  bytes.length >= 8 + ((bytes[4] | (bytes[5] << 8) | (bytes[6] << 16) | (bytes[7] << 24)) >>> 0);

/**
 * A JPEG is whole when an end-of-image marker (FF D9) follows its first scan. Searched from the scan
 * on, since an Exif thumbnail before it carries an end marker of its own; camera makers' data after
 * the end marker is allowed.
 */
function jpegIsWhole(bytes: Uint8Array): boolean {
  let at = 2;
  while (at + 4 <= bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1];
    if (marker === 0xda) break;
    if (marker === 0xff) at += 1;
    else if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) at += 2;
    else at += 2 + u16be(bytes, at + 2);
  }
  if (at + 4 > bytes.length || bytes[at + 1] !== 0xda) return false;
  for (let next = bytes.indexOf(0xff, at + 2); next !== -1; next = bytes.indexOf(0xff, next + 1)) {
    if (bytes[next + 1] === 0xd9) return true;
  }
  return false;
}

const WHOLE_CHECKS: Record<ImageType, (bytes: Uint8Array) => boolean> = {
  "image/png": pngIsWhole,
  "image/gif": gifIsWhole,
  "image/webp": webpIsWhole,
  "image/jpeg": jpegIsWhole,
};

/**
 * False for a file cut short (an upload that broke off, a copy that did not finish): browsers show
 * such a picture half grey or not at all, on the profile and in every link preview that uses it.
 */
export function isImageWhole(bytes: Uint8Array, type: ImageType): boolean {
  return WHOLE_CHECKS[type](bytes);
}

export function hasTooManyPixels({ width, height }: Dimensions): boolean {
  return width > IMAGE_MAX_SIDE_PIXELS || height > IMAGE_MAX_SIDE_PIXELS || width * height > IMAGE_MAX_PIXELS;
}
