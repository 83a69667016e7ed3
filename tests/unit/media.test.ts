import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { hasTooManyPixels, imageDimensions } from "~/services/image-dimensions.server";
import { mediaKeyFromUrl, parseRange, sniffAudioType, sniffImageType } from "~/services/media.server";

const bytes = (...values: Array<number | string>) =>
  new Uint8Array(
    values.flatMap((value) => (typeof value === "string" ? [...value].map((c) => c.charCodeAt(0)) : [value])),
  );

describe("sniffing uploads by their bytes", () => {
  it("recognises the four image types and nothing else", () => {
    expect(sniffImageType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe("image/jpeg");
    expect(sniffImageType(bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a))).toBe("image/png");
    expect(sniffImageType(bytes("GIF89a"))).toBe("image/gif");
    expect(sniffImageType(bytes("RIFF", 0, 0, 0, 0, "WEBP"))).toBe("image/webp");
    expect(sniffImageType(bytes("<svg xmlns"))).toBeNull();
    expect(sniffImageType(bytes("<!DOCTYPE html><script>"))).toBeNull();
    expect(sniffImageType(bytes("RIFF", 0, 0, 0, 0, "WAVE"))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });

  it("recognises recorded and uploaded audio, and refuses an image renamed .mp3", () => {
    expect(sniffAudioType(bytes(0x1a, 0x45, 0xdf, 0xa3, 0x9f))).toBe("audio/webm");
    expect(sniffAudioType(bytes("OggS", 0))).toBe("audio/ogg");
    expect(sniffAudioType(bytes(0, 0, 0, 0x20, "ftypM4A "))).toBe("audio/mp4");
    expect(sniffAudioType(bytes("ID3", 4, 0))).toBe("audio/mpeg");
    expect(sniffAudioType(bytes(0xff, 0xfb, 0x90, 0x64))).toBe("audio/mpeg");
    expect(sniffAudioType(bytes("RIFF", 0, 0, 0, 0, "WAVE"))).toBe("audio/wav");
    expect(sniffAudioType(bytes("fLaC", 0, 0, 0, 0x22))).toBe("audio/flac");
    expect(sniffAudioType(bytes(0xff, 0xf1, 0x50, 0x80))).toBe("audio/aac");
    expect(sniffAudioType(bytes(0, 0, 0, 0x18, "ftypiso5"))).toBe("audio/mp4");
    // An iPhone's photo and an AVIF image share the box, not the sound.
    expect(sniffAudioType(bytes(0, 0, 0, 0x18, "ftypheic"))).toBeNull();
    expect(sniffAudioType(bytes(0, 0, 0, 0x1c, "ftypavif"))).toBeNull();
    expect(sniffAudioType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBeNull();
    expect(sniffAudioType(bytes(0x89, "PNG"))).toBeNull();
  });
});

describe("the pixel size an image declares", () => {
  const file = (path: string) => new Uint8Array(readFileSync(path));
  const u16le = (value: number) => [value & 0xff, value >> 8];
  const u24le = (value: number) => [value & 0xff, (value >> 8) & 0xff, value >> 16];
  const u32le = (value: number) => [value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, value >>> 24];
  const webp = (chunk: string, ...payload: number[]) =>
    bytes("RIFF", 0, 0, 0, 0, "WEBP", chunk, 0, 0, 0, 0, ...payload, ...new Array(16).fill(0));

  it("reads real JPEG, PNG and lossy WebP files", () => {
    expect(imageDimensions(file("tests/fixtures/avatar.jpg"), "image/jpeg")).toEqual({
      width: 160,
      height: 160,
    });
    expect(imageDimensions(file("tests/fixtures/header.png"), "image/png")).toEqual({
      width: 240,
      height: 60,
    });
    expect(imageDimensions(file("public/images/categories/sales.webp"), "image/webp")).toEqual({
      width: 800,
      height: 480,
    });
  });

  it("reads GIF, lossless and extended WebP, and a progressive JPEG after its other segments", () => {
    expect(imageDimensions(bytes("GIF89a", ...u16le(300), ...u16le(200), 0, 0, 0), "image/gif")).toEqual({
      width: 300,
      height: 200,
    });
    // A 1 × 1 screen whose one frame is 20,000 × 20,000: browsers grow the screen to the frame.
    const frame = (left: number, top: number, width: number, height: number) => [
      0x2c,
      ...u16le(left),
      ...u16le(top),
      ...u16le(width),
      ...u16le(height),
      0,
      2,
      2,
      0x4c,
      0x01,
      0,
    ];
    const comment = [0x21, 0xfe, 3, 0x61, 0x62, 0x63, 0];
    const screen = (width: number, height: number) => ["GIF89a", ...u16le(width), ...u16le(height), 0, 0, 0];
    expect(
      imageDimensions(bytes(...screen(1, 1), ...comment, ...frame(0, 0, 20000, 20000), 0x3b), "image/gif"),
    ).toEqual({
      width: 20000,
      height: 20000,
    });
    // A later frame, placed off the screen's corner, counts too.
    expect(
      imageDimensions(
        bytes(...screen(10, 10), ...frame(0, 0, 10, 10), ...frame(9000, 5, 10, 10), 0x3b),
        "image/gif",
      ),
    ).toEqual({ width: 9010, height: 15 });
    // VP8L: a signature byte, then width - 1 and height - 1 in 14 bits each.
    expect(imageDimensions(webp("VP8L", 0x2f, ...u32le(320 | (122 << 14))), "image/webp")).toEqual({
      width: 321,
      height: 123,
    });
    // VP8X: flags and reserved bytes, then the canvas's width - 1 and height - 1 in 24 bits each.
    expect(
      imageDimensions(webp("VP8X", 0x10, 0, 0, 0, ...u24le(19999), ...u24le(19999)), "image/webp"),
    ).toEqual({
      width: 20000,
      height: 20000,
    });
    const app0 = [
      0xff,
      0xe0,
      0,
      16,
      ..."JFIF".split("").map((c) => c.charCodeAt(0)),
      0,
      1,
      1,
      0,
      0,
      1,
      0,
      1,
      0,
      0,
    ];
    const sof2 = [0xff, 0xc2, 0, 17, 8, 0x4e, 0x20, 0x4e, 0x20, 3];
    expect(
      imageDimensions(bytes(0xff, 0xd8, ...app0, 0xff, ...sof2, ...new Array(16).fill(0)), "image/jpeg"),
    ).toEqual({
      width: 20000,
      height: 20000,
    });
  });

  it("gives no size for a header that is cut off or damaged", () => {
    expect(imageDimensions(bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a), "image/png")).toBeNull();
    expect(imageDimensions(bytes(0xff, 0xd8, 0xff, 0xda, 0, 8), "image/jpeg")).toBeNull();
    expect(imageDimensions(webp("VP8 ", 0, 0, 0, 0x12, 0x34, 0x56), "image/webp")).toBeNull();
    expect(imageDimensions(bytes("GIF89a", 0, 0, 0, 0), "image/gif")).toBeNull();
  });

  it("takes any phone camera's photo and refuses what would take gigabytes to show", () => {
    expect(hasTooManyPixels({ width: 4032, height: 3024 })).toBe(false);
    expect(hasTooManyPixels({ width: 8192, height: 1024 })).toBe(false);
    expect(hasTooManyPixels({ width: 8193, height: 10 })).toBe(true);
    expect(hasTooManyPixels({ width: 6000, height: 6000 })).toBe(true);
    expect(hasTooManyPixels({ width: 20000, height: 20000 })).toBe(true);
  });
});

describe("HTTP ranges", () => {
  it("reads the three forms of a single range", () => {
    expect(parseRange("bytes=0-99", 1000)).toEqual({ start: 0, end: 99 });
    expect(parseRange("bytes=900-", 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange("bytes=-100", 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange("bytes=990-5000", 1000)).toEqual({ start: 990, end: 999 });
  });

  it("serves the whole file for no or malformed ranges, and refuses impossible ones", () => {
    expect(parseRange(null, 1000)).toBeNull();
    expect(parseRange("bytes=0-1,5-6", 1000)).toBeNull();
    expect(parseRange("items=0-1", 1000)).toBeNull();
    expect(parseRange("bytes=1000-", 1000)).toBe("unsatisfiable");
    expect(parseRange("bytes=50-10", 1000)).toBe("unsatisfiable");
    expect(parseRange("bytes=-0", 1000)).toBe("unsatisfiable");
  });
});

describe("media URLs", () => {
  it("maps only this app's image URLs back to R2 keys", () => {
    expect(mediaKeyFromUrl("/media/images/abc.png")).toBe("images/abc.png");
    expect(mediaKeyFromUrl("/images/experts/sarah-mitchell.svg")).toBeNull();
    expect(mediaKeyFromUrl("https://evil.example/media/images/abc.png")).toBeNull();
    expect(mediaKeyFromUrl(null)).toBeNull();
  });
});
