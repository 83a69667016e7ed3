import { env } from "cloudflare:test";
import { insertDemoCategories } from "../../factories";
import { db, postRaw } from "./accounts";

/**
 * Whole files in outline (the server judges uploads by their magic numbers, reads the pixel size they
 * declare and wants them whole, but decodes no pixels): `width` × `height` pixels.
 */
export function pngHeader(width: number, height: number) {
  const bytes = new Uint8Array([
    ...[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    // IHDR: length 13, type, width, height, depth 8, RGBA, then compression, filter, interlace; CRC.
    ...[0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 0, 0, 0, 0, 0, 8, 6, 0, 0, 0, 0, 0, 0, 0],
    // IEND: length 0, type, CRC.
    ...[0, 0, 0, 0, 73, 69, 78, 68, 0xae, 0x42, 0x60, 0x82],
  ]);
  new DataView(bytes.buffer).setUint32(16, width);
  new DataView(bytes.buffer).setUint32(20, height);
  return bytes;
}
export const PNG_BYTES = pngHeader(1, 1);
/** The same PNG cut off before its end, as an upload that broke off leaves it. */
export const CUT_PNG_BYTES = PNG_BYTES.slice(0, PNG_BYTES.length - 12);
/** A JFIF segment, a baseline frame of 1 × 1, its scan, and the end-of-image marker. */
export const JPEG_BYTES = new Uint8Array([
  ...[0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0],
  ...[0xff, 0xc0, 0, 11, 8, 0, 1, 0, 1, 1, 1, 0x11, 0],
  ...[0xff, 0xda, 0, 8, 1, 1, 0, 0, 63, 0, 0x7f, 0xff, 0xd9],
]);
export const SVG_TEXT =
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>';
export const HTML_TEXT = "<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>";

/** A PNG-looking file whose bytes differ from every other one (content-addressed keys differ too). */
export function uniquePng(name = "image.png") {
  const data = new Uint8Array(PNG_BYTES.length + 16);
  data.set(PNG_BYTES);
  data.set(crypto.getRandomValues(new Uint8Array(16)), PNG_BYTES.length);
  return file(data, name, "image/png");
}

export function file(content: Uint8Array<ArrayBuffer> | string, name: string, type: string) {
  return new File([content], name, { type });
}

/** A file of `bytes` bytes that starts like a PNG (a real upload that is only too large). */
export function bigPng(bytes: number) {
  const data = new Uint8Array(bytes);
  data.set(PNG_BYTES);
  return file(data, "big.png", "image/png");
}

/** A multipart body; arrays become repeated fields (expertise). */
export function multipart(fields: Record<string, string | string[] | File | undefined>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) form.append(name, item);
    else form.append(name, value);
  }
  return form;
}

export function postMultipart(path: string, form: FormData, cookie = "") {
  return postRaw(path, form, { cookie });
}

/** The ten demo categories; returns them by name. */
export async function categoriesByName() {
  const rows = await insertDemoCategories(db());
  return new Map(rows.map((row) => [row.name, row]));
}

/** Every key in the R2 bucket under images/. */
export async function storedImageKeys(): Promise<string[]> {
  const listed = await env.MEDIA.list({ prefix: "images/" });
  return listed.objects.map((object) => object.key);
}

/** The key an /media/images/... URL points at. */
export const keyOf = (url: string) => url.replace(/^\/media\//, "");
