import { describe, expect, it } from "vitest";
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
    expect(sniffAudioType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBeNull();
    expect(sniffAudioType(bytes(0x89, "PNG"))).toBeNull();
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
