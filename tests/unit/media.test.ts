import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { hasTooManyPixels, imageDimensions, isImageWhole } from "~/services/image-dimensions.server";
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

describe("an image cut short", () => {
  const file = (path: string) => new Uint8Array(readFileSync(path));
  const jpeg = file("tests/fixtures/avatar.jpg");
  const png = file("tests/fixtures/header.png");
  const webps = readdirSync("public/images/categories")
    .filter((name) => name.endsWith(".webp"))
    .map((name) => file(`public/images/categories/${name}`));
  // The smallest GIF there is: one white pixel, with its trailer (0x3B) last.
  const gif = bytes(
    "GIF89a",
    1,
    0,
    1,
    0,
    0x80,
    0,
    0,
    0xff,
    0xff,
    0xff,
    0,
    0,
    0,
    0x21,
    0xf9,
    4,
    1,
    0,
    0,
    0,
    0,
    0x2c,
    0,
    0,
    0,
    0,
    1,
    0,
    1,
    0,
    0,
    2,
    2,
    0x44,
    1,
    0,
    0x3b,
  );
  const cuts = (whole: Uint8Array) =>
    [1, 2, 12, Math.floor(whole.length / 2), whole.length - 24].map((keep) =>
      whole.subarray(0, whole.length - keep),
    );

  it("takes whole JPEG, PNG, WebP and GIF files", () => {
    expect(isImageWhole(jpeg, "image/jpeg")).toBe(true);
    expect(isImageWhole(png, "image/png")).toBe(true);
    expect(webps.length).toBeGreaterThan(0);
    for (const webp of webps) expect(isImageWhole(webp, "image/webp")).toBe(true);
    expect(imageDimensions(gif, "image/gif")).toEqual({ width: 1, height: 1 });
    expect(isImageWhole(gif, "image/gif")).toBe(true);
  });

  it("refuses each of them cut anywhere after the header", () => {
    for (const cut of cuts(jpeg))
      expect(isImageWhole(cut, "image/jpeg"), `JPEG of ${cut.length} B`).toBe(false);
    for (const cut of cuts(png)) expect(isImageWhole(cut, "image/png"), `PNG of ${cut.length} B`).toBe(false);
    for (const cut of cuts(webps[0]))
      expect(isImageWhole(cut, "image/webp"), `WebP of ${cut.length} B`).toBe(false);
    expect(isImageWhole(gif.subarray(0, gif.length - 1), "image/gif")).toBe(false);
    expect(isImageWhole(gif.subarray(0, 30), "image/gif")).toBe(false);
  });

  it("reads a JPEG's end after its scan: an Exif thumbnail's end does not count, a maker's trailer is allowed", () => {
    const scan = jpeg.findIndex((byte, at) => byte === 0xff && jpeg[at + 1] === 0xda);
    // An APP1 segment that carries a thumbnail, end marker included, before the first frame.
    const thumbnail = bytes(0xff, 0xe1, 0, 12, "Exif", 0, 0, 0xff, 0xd8, 0xff, 0xd9);
    const withThumbnail = new Uint8Array([...jpeg.subarray(0, 2), ...thumbnail, ...jpeg.subarray(2)]);
    expect(isImageWhole(withThumbnail, "image/jpeg")).toBe(true);
    expect(isImageWhole(withThumbnail.subarray(0, thumbnail.length + scan + 100), "image/jpeg")).toBe(false);
    expect(
      isImageWhole(new Uint8Array([...jpeg, ...bytes("SAMSUNG trailer", 0xff, 0x00)]), "image/jpeg"),
    ).toBe(true);
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
