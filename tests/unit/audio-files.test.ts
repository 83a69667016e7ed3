import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isReadableAudio } from "~/services/audio-files.server";
import { type AudioType, sniffAudioType } from "~/services/media.server";
import {
  aacFile,
  concat,
  flacFile,
  id3Tag,
  mp3File,
  mp4File,
  oggFile,
  randomBytes,
  wavFile,
  webmFile,
} from "../audio-files";

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../fixtures/${name}`, import.meta.url)));

/**
 * Each type: a file that holds together, what it starts with (all the sniffer looks at), and where
 * cutting it leaves no audio that plays. A WAV cut in its samples still plays what is there, so it
 * is cut in its header.
 */
const FORMATS: Array<{ type: AudioType; file: Uint8Array; magic: Uint8Array; cutAt?: number }> = [
  { type: "audio/webm", file: webmFile({ blocks: 1 }), magic: concat([0x1a, 0x45, 0xdf, 0xa3]) },
  { type: "audio/ogg", file: oggFile({ audioPages: 1 }), magic: concat("OggS", [0]) },
  { type: "audio/mp4", file: mp4File(), magic: concat([0, 0, 0, 0x20], "ftypM4A ") },
  { type: "audio/mpeg", file: mp3File({ frames: 3 }), magic: id3Tag(0) },
  { type: "audio/wav", file: wavFile(), magic: concat("RIFF", [0, 0, 0, 0], "WAVE"), cutAt: 40 },
  { type: "audio/flac", file: flacFile(), magic: concat("fLaC") },
  { type: "audio/aac", file: aacFile({ frames: 3 }), magic: concat([0xff, 0xf1, 0x50, 0x80]) },
];

describe("the structure of an uploaded recording", () => {
  for (const { type, file, magic, cutAt } of FORMATS) {
    describe(type, () => {
      it("accepts a file that holds together", () => {
        expect(sniffAudioType(file)).toBe(type);
        expect(isReadableAudio(file, type)).toBe(true);
      });

      it("refuses the magic bytes alone", () => {
        expect(sniffAudioType(magic)).toBe(type);
        expect(isReadableAudio(magic, type)).toBe(false);
      });

      it("refuses the file cut short", () => {
        expect(isReadableAudio(file.subarray(0, cutAt ?? Math.floor(file.length / 2)), type)).toBe(false);
      });

      it("refuses the magic bytes followed by noise", () => {
        for (const seed of [1, 2, 3]) {
          const noisy = concat(magic, randomBytes(2000, seed));
          expect(sniffAudioType(noisy)).toBe(type);
          expect(isReadableAudio(noisy, type)).toBe(false);
        }
      });
    });
  }

  it("accepts Chromium's MediaRecorder recordings: WebM in one piece or in timeslices, and MP4", () => {
    for (const [name, type] of [
      ["recording.webm", "audio/webm"],
      ["recording-timeslice.webm", "audio/webm"],
      ["recording.mp4", "audio/mp4"],
    ] as const) {
      const recording = fixture(name);
      expect(sniffAudioType(recording), name).toBe(type);
      expect(isReadableAudio(recording, type), name).toBe(true);
    }
  });

  it("accepts a WebM recording cut off after some audio, and refuses one cut before any", () => {
    const recording = fixture("recording.webm");
    expect(isReadableAudio(recording.subarray(0, recording.length - 100), "audio/webm")).toBe(true);
    expect(isReadableAudio(recording.subarray(0, 300), "audio/webm")).toBe(false);
  });

  it("refuses a WebM or MP4 file with no audio track, and a WebM with no blocks", () => {
    expect(isReadableAudio(webmFile({ trackType: 1 }), "audio/webm")).toBe(false);
    expect(isReadableAudio(mp4File({ handler: "vide" }), "audio/mp4")).toBe(false);
    expect(isReadableAudio(webmFile({ blocks: 0 }), "audio/webm")).toBe(false);
  });

  it("accepts a short MP3 or AAC file whose frames end the file, and an MP3 with an ID3v1 tag", () => {
    expect(isReadableAudio(mp3File({ frames: 1 }), "audio/mpeg")).toBe(true);
    expect(isReadableAudio(mp3File({ frames: 2, id3: false }), "audio/mpeg")).toBe(true);
    expect(isReadableAudio(concat(mp3File({ frames: 2 }), "TAG", new Array(125).fill(0)), "audio/mpeg")).toBe(
      true,
    );
    expect(isReadableAudio(aacFile({ frames: 1 }), "audio/aac")).toBe(true);
    // Two frames, then one cut short: not an ending, not three in a row.
    expect(isReadableAudio(mp3File({ frames: 3 }).subarray(0, -10), "audio/mpeg")).toBe(false);
  });

  it("reads a FLAC or AAC file behind an ID3 tag as what it is, and accepts it", () => {
    for (const [type, file] of [
      ["audio/flac", flacFile()],
      ["audio/aac", aacFile({ frames: 3 })],
    ] as const) {
      const tagged = concat(id3Tag(100), file);
      expect(sniffAudioType(tagged), type).toBe(type);
      expect(isReadableAudio(tagged, type), type).toBe(true);
      expect(isReadableAudio(concat(id3Tag(100), file.subarray(0, 8)), type), type).toBe(false);
    }
  });

  it("refuses an Ogg file with only its headers, and a WAV with no samples", () => {
    expect(isReadableAudio(oggFile({ audioPages: 0 }), "audio/ogg")).toBe(false);
    expect(isReadableAudio(wavFile({ samples: 0 }), "audio/wav")).toBe(false);
  });
});
