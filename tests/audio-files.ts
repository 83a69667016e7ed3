/**
 * Small audio files built byte by byte, one for each type an answer may be: each holds together as
 * its container does (the upload check walks that structure) and carries a little audio data. Not
 * decodable sound, but shaped as recorders and encoders write them. Shared by the unit tests of the
 * check and the integration tests that upload answers.
 */
type Bytes = Uint8Array<ArrayBuffer>;
type Part = Uint8Array | readonly number[] | string;

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** Bytes, arrays of bytes and ASCII strings, one after the other. */
export function concat(...parts: Part[]): Bytes {
  const arrays = parts.map((part) => (typeof part === "string" ? ascii(part) : Array.from(part)));
  return new Uint8Array(arrays.flat());
}

const u16be = (value: number) => [value >>> 8, value & 0xff];
const u32be = (value: number) => [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
const u16le = (value: number) => u16be(value).reverse();
const u32le = (value: number) => u32be(value).reverse();

/** The same bytes every run (a seeded mulberry32), so a failing test fails again. */
export function randomBytes(length: number, seed = 1): Bytes {
  const bytes = new Uint8Array(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    bytes[i] = (t ^ (t >>> 14)) & 0xff;
  }
  return bytes;
}

/** Stand-in for compressed audio: bytes that look like noise, never a sync word by chance. */
const payload = (length: number, seed = 7) => randomBytes(length, seed).map((byte) => byte & 0x7f);

// WebM: EBML elements, an id (with its length marker) and a variable-length size.
const ebmlSize = (size: number) =>
  size < 0x7f
    ? [0x80 | size]
    : size < 0x3fff
      ? [0x40 | (size >>> 8), size & 0xff]
      : [0x10, ...u32be(size).slice(1)];
const element = (id: readonly number[], ...children: Part[]) => {
  const data = concat(...children);
  return concat(id, ebmlSize(data.length), data);
};
/** The size MediaRecorder writes for a Segment or Cluster it is still writing: all ones. */
const UNKNOWN_SIZE = [0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];

/** A WebM recording as MediaRecorder streams it: Segment and Cluster of unknown size, Opus blocks. */
export function webmFile({ blocks = 3, trackType = 2 } = {}): Bytes {
  const header = element(
    [0x1a, 0x45, 0xdf, 0xa3],
    element([0x42, 0x86], [1]), // EBMLVersion
    element([0x42, 0xf7], [1]), // EBMLReadVersion
    element([0x42, 0xf2], [4]), // EBMLMaxIDLength
    element([0x42, 0xf3], [8]), // EBMLMaxSizeLength
    element([0x42, 0x82], "webm"), // DocType
    element([0x42, 0x87], [4]), // DocTypeVersion
    element([0x42, 0x85], [2]), // DocTypeReadVersion
  );
  const info = element([0x15, 0x49, 0xa9, 0x66], element([0x2a, 0xd7, 0xb1], [0x0f, 0x42, 0x40]));
  const tracks = element(
    [0x16, 0x54, 0xae, 0x6b],
    element(
      [0xae], // TrackEntry
      element([0xd7], [1]), // TrackNumber
      element([0x83], [trackType]), // TrackType: 2 is audio
      element([0x86], "A_OPUS"), // CodecID
      element([0xe1], element([0xb5], [0x47, 0x3b, 0x80, 0x00]), element([0x9f], [1])), // Audio
    ),
  );
  const simpleBlocks = Array.from({ length: blocks }, (_, i) =>
    // Track 1 (as a vint), a 16-bit timecode, keyframe flags, then the Opus frame.
    element([0xa3], [0x81], u16be(i * 20), [0x80], payload(120, i + 1)),
  );
  return concat(
    header,
    [0x18, 0x53, 0x80, 0x67],
    UNKNOWN_SIZE,
    info,
    tracks,
    [0x1f, 0x43, 0xb6, 0x75],
    UNKNOWN_SIZE,
    element([0xe7], [0]), // Timecode
    ...simpleBlocks,
  );
}

// Ogg: pages with a CRC (polynomial 0x04c11db7, unreflected) that players check.
function oggCrc(bytes: Bytes) {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 24;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  return crc >>> 0;
}

function oggPage(flags: number, granule: number, sequence: number, packet: Bytes) {
  const lacing = [...Array(Math.floor(packet.length / 255)).fill(255), packet.length % 255];
  const page = concat(
    "OggS",
    [0, flags],
    u32le(granule),
    [0, 0, 0, 0],
    u32le(0x5eed), // serial number
    u32le(sequence),
    [0, 0, 0, 0], // the CRC, counted as zeros
    [lacing.length],
    lacing,
    packet,
  );
  page.set(u32le(oggCrc(page)), 22);
  return page;
}

/** An Ogg Opus file as Firefox records it: OpusHead, OpusTags, then audio pages. */
export function oggFile({ audioPages = 2 } = {}): Bytes {
  const head = concat("OpusHead", [1, 1], u16le(312), u32le(48000), u16le(0), [0]);
  const tags = concat("OpusTags", u32le(4), "test", u32le(0));
  const audio = Array.from({ length: audioPages }, (_, i) =>
    oggPage(i === audioPages - 1 ? 4 : 0, 960 * (i + 1), i + 2, payload(300, i + 1)),
  );
  return concat(oggPage(2, 0, 0, head), oggPage(0, 0, 1, tags), ...audio);
}

// MP4: boxes of a 32-bit size and a four-character type.
const box = (type: string, ...children: Part[]) => {
  const data = concat(...children);
  return concat(u32be(8 + data.length), type, data);
};
const zeros = (length: number) => new Array<number>(length).fill(0);

/** An M4A file: ftyp, a moov whose track's handler is "soun", and the samples in mdat. */
export function mp4File({ handler = "soun" } = {}): Bytes {
  const hdlr = box("hdlr", zeros(4), zeros(4), handler, zeros(12), "SoundHandler", [0]);
  const trak = box("trak", box("tkhd", zeros(84)), box("mdia", box("mdhd", zeros(24)), hdlr));
  return concat(
    box("ftyp", "M4A ", zeros(4), "M4A isom"),
    box("moov", box("mvhd", zeros(100)), trak),
    box("mdat", payload(600)),
  );
}

/** A FLAC file: STREAMINFO (44.1 kHz, mono, 16-bit), a padding block, then frames. */
export function flacFile(): Bytes {
  const streamInfo = concat(
    u16be(4096), // min and max block size
    u16be(4096),
    [0, 0, 0, 0, 0, 0], // min and max frame size: unknown
    u32be((44100 << 12) | (0 << 9) | (15 << 4)), // sample rate, channels - 1, bits per sample - 1
    u32be(4096), // total samples
    zeros(16), // MD5
  );
  return concat(
    "fLaC",
    [0x00, 0, 0, 34],
    streamInfo,
    [0x81, 0, 0, 200],
    zeros(200),
    [0xff, 0xf8],
    payload(150),
  );
}

/** A WAV file: 8 kHz mono 8-bit PCM, `samples` of silence. */
export function wavFile({ samples = 800 } = {}): Bytes {
  return concat(
    "RIFF",
    u32le(36 + samples),
    "WAVE",
    "fmt ",
    u32le(16),
    u16le(1), // PCM
    u16le(1), // mono
    u32le(8000), // sample rate
    u32le(8000), // bytes a second
    u16le(1), // block align
    u16le(8), // bits per sample
    "data",
    u32le(samples),
    new Array(samples).fill(128),
  );
}

/** An ID3v2.4 tag of `size` bytes (after its header), the size synch-safe: 7 bits a byte. */
export const id3Tag = (size: number) =>
  concat(
    "ID3",
    [4, 0, 0],
    [(size >>> 21) & 0x7f, (size >>> 14) & 0x7f, (size >>> 7) & 0x7f, size & 0x7f],
    zeros(size),
  );

/**
 * An MP3 file: MPEG-1 layer III frames at 128 kbps and 44.1 kHz (417 bytes each), after an ID3v2
 * tag unless `id3` is false.
 */
export function mp3File({ frames = 4, id3 = true } = {}): Bytes {
  const frame = (i: number) => concat([0xff, 0xfb, 0x90, 0x00], payload(413, i + 1));
  return concat(id3 ? id3Tag(32) : [], ...Array.from({ length: frames }, (_, i) => frame(i)));
}

/** An AAC file: ADTS frames (MPEG-4 AAC LC, 44.1 kHz, stereo, no CRC) of 7 + 200 bytes. */
export function aacFile({ frames = 4 } = {}): Bytes {
  const length = 7 + 200;
  const frame = (i: number) =>
    concat(
      [0xff, 0xf1, 0x50, 0x80 | (length >>> 11), (length >>> 3) & 0xff, ((length & 7) << 5) | 0x1f, 0xfc],
      payload(200, i + 1),
    );
  return concat(...Array.from({ length: frames }, (_, i) => frame(i)));
}
