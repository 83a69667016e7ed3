/**
 * Whether an uploaded answer's container holds together and carries audio. Sending an audio answer
 * captures the asker's payment, so a file no player can open (a WebM's four magic bytes, an ID3 tag
 * before noise) must be refused before anything is stored; the magic numbers only say what a file
 * claims to be. Nothing is decoded: each container's structure is walked within the file's bytes.
 * Written here rather than with a library: seven formats' framing, and the Worker has little room.
 */
import type { AudioType } from "./media.server";

const text = (bytes: Uint8Array, at: number, length: number) =>
  String.fromCharCode(...bytes.subarray(at, at + length));

/** A DataView's reads throw past the end of the file, which refuses it (see isReadableAudio). */
type Check = (view: DataView, bytes: Uint8Array) => boolean;

/**
 * Frames chained by their own lengths (MP3, ADTS): three in a row, or fewer that end the file (an
 * ID3v1 tag of 128 bytes may follow). `frameLength` is 0 for a header that is not valid.
 */
function chainedFrames(bytes: Uint8Array, at: number, frameLength: (at: number) => number) {
  for (let count = 0; count < 3; count++) {
    if (count && (at === bytes.length || (text(bytes, at, 3) === "TAG" && at + 128 === bytes.length))) break;
    const length = at + 6 <= bytes.length ? frameLength(at) : 0;
    if (!length || at + length > bytes.length) return false;
    at += length;
  }
  return true;
}

/**
 * Bitrates in kilobits per second, by bitrate index 1-14, one row of 14 for each of MPEG-1 layers I,
 * II and III, MPEG-2/2.5 layer I, and MPEG-2/2.5 layers II and III; each character is 35 + kbps / 8:
 *   32 64 96 128 160 192 224 256 288 320 352 384 416 448
 *   32 48 56  64  80  96 112 128 160 192 224 256 320 384
 *   32 40 48  56  64  80  96 112 128 160 192 224 256 320
 *   32 48 56  64  80  96 112 128 144 160 176 192 224 256
 *    8 16 24  32  40  48  56  64  80  96 112 128 144 160
 */
const MPEG_KBPS = "'+/37;?CGKOSW[')*+-/137;?CKS'()*+-/137;?CK')*+-/13579;?C$%&'()*+-/1357";

/**
 * Where the ID3v2 tags a file starts with end (0 without any). Taggers put them before MP3 frames,
 * and some before FLAC or ADTS AAC too: a 10-byte header, a synch-safe size (7 bits a byte), and a
 * footer when flagged.
 */
export function id3TagsEnd(bytes: Uint8Array): number {
  let at = 0;
  while (text(bytes, at, 3) === "ID3" && at + 10 <= bytes.length) {
    const size = [6, 7, 8, 9].reduce((sum, i) => sum * 128 + (bytes[at + i] & 0x7f), 0);
    at += 10 + size + (bytes[at + 5] & 0x10 ? 10 : 0);
  }
  return at;
}

const mpeg: Check = (view, bytes) => {
  let at = 0;
  const frameLength = (at: number) => {
    const header = view.getUint32(at);
    const version = (header >>> 19) & 3; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
    const layer = (header >>> 17) & 3; // 3: I, 2: II, 1: III
    const bitrate = (header >>> 12) & 15;
    const rate = (header >>> 10) & 3;
    if (header >>> 21 !== 0x7ff || version === 1 || !layer || !bitrate || bitrate === 15 || rate === 3)
      return 0;
    const row = version === 3 ? 3 - layer : layer === 3 ? 3 : 4;
    const kbps = (MPEG_KBPS.charCodeAt(row * 14 + bitrate - 1) - 35) * 8;
    const hz = [44100, 48000, 32000][rate] / [4, 0, 2, 1][version];
    const padding = (header >>> 9) & 1;
    if (layer === 3) return (Math.floor((12000 * kbps) / hz) + padding) * 4;
    return Math.floor(((layer === 1 && version !== 3 ? 72000 : 144000) * kbps) / hz) + padding;
  };
  // Some taggers leave padding or junk after the tag; players look for the first frame, so do we.
  for (const end = Math.min(at + 4096, bytes.length); at < end; at++) {
    if (chainedFrames(bytes, at, frameLength)) return true;
  }
  return false;
};

const aac: Check = (view, bytes) =>
  chainedFrames(bytes, 0, (at) => {
    const header = view.getUint32(at);
    // 12 sync bits and layer 0, a sampling frequency index of 0-12, then a 13-bit frame length.
    if (((header >>> 16) & 0xfff6) !== 0xfff0 || ((header >>> 10) & 15) > 12) return 0;
    const length = ((header & 3) << 11) | (view.getUint16(at + 4) >>> 5);
    return length > 7 ? length : 0;
  });

const wav: Check = (view, bytes) => {
  let blockAlign = 0;
  for (let at = 12; ; ) {
    const id = text(bytes, at, 4);
    const size = view.getUint32(at + 4, true);
    const data = at + 8;
    if (id === "fmt ") {
      if (size < 16) return false;
      // Channels, sample rate and block align: any of them 0 and there is nothing to play.
      blockAlign =
        view.getUint16(data + 2, true) && view.getUint32(data + 4, true) && view.getUint16(data + 12, true);
    } else if (id === "data") {
      // A recorder that streams may leave the size 0 or too large: count the bytes that are there.
      return blockAlign > 0 && Math.min(size || bytes.length, bytes.length - data) >= blockAlign;
    }
    at = data + size + (size & 1);
  }
};

const flac: Check = (view) => {
  let at = 4;
  for (let last = 0, first = true; !last; first = false) {
    const header = view.getUint32(at);
    last = header >>> 31;
    const size = header & 0xffffff;
    // STREAMINFO comes first, 34 bytes; its sample rate (20 bits at offset 10) is never 0.
    if (first && ((header >>> 24) & 0x7f || size !== 34 || !(view.getUint32(at + 14) >>> 12))) return false;
    at += 4 + size;
  }
  return (view.getUint16(at) & 0xfffe) === 0xfff8;
};

const ogg: Check = (view, bytes) => {
  let pages = 0;
  for (let at = 0; at < bytes.length; pages++) {
    if (text(bytes, at, 4) !== "OggS" || bytes[at + 4] !== 0) return false;
    const segments = view.getUint8(at + 26);
    const payload = at + 27 + segments;
    let end = payload;
    for (let i = at + 27; i < payload; i++) end += view.getUint8(i);
    if (end > bytes.length) return false;
    if (
      !pages &&
      !["OpusHead", "\x01vorbis", "\x7fFLAC"].some((head) => text(bytes, payload, 8).startsWith(head))
    )
      return false;
    at = end;
  }
  // The codec's headers end their pages (Opus: head, tags; Vorbis: id, then comment and setup), so
  // audio needs a third page at least.
  return pages > 2;
};

/** Walks the boxes in [at, end): each must fit, and they must chain to `end` exactly. */
function boxes(
  bytes: Uint8Array,
  view: DataView,
  at: number,
  end: number,
  visit: (type: string, from: number, to: number) => void,
) {
  while (at < end) {
    let size = view.getUint32(at);
    let from = at + 8;
    if (size === 1) {
      size = view.getUint32(from) * 2 ** 32 + view.getUint32(from + 4);
      from += 8;
    } else if (size === 0) size = end - at;
    if (from > end || size < from - at || at + size > end) return false;
    visit(text(bytes, at + 4, 4), from, at + size);
    at += size;
  }
  return true;
}

const mp4: Check = (view, bytes) => {
  let sound = false;
  let media = false;
  const find = (from: number, to: number, path: string[]) =>
    boxes(bytes, view, from, to, (type, start, end) => {
      if (type !== path[0]) return;
      if (path.length > 1) find(start, end, path.slice(1));
      // hdlr: version and flags, pre_defined, then the handler type.
      else if (text(bytes, start + 8, 4) === "soun") sound = true;
    });
  const chained = boxes(bytes, view, 0, bytes.length, (type, start, end) => {
    if (type === "moov") find(start, end, ["trak", "mdia", "hdlr"]);
    if (type === "mdat" && end > start) media = true;
  });
  return chained && sound && media;
};

// EBML ids, with their length marker: the masters walked into, and the elements looked at.
const EBML = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const WEBM_MASTERS = new Set([EBML, SEGMENT, 0x1654ae6b, 0xae, 0x1f43b675, 0xa0]); // Tracks, TrackEntry, Cluster, BlockGroup
const DOC_TYPE = 0x4282;
const TRACK_TYPE = 0x83;
const BLOCKS = new Set([0xa3, 0xa1]); // SimpleBlock, Block

const webm: Check = (view, bytes) => {
  let docType = "";
  let segment = false;
  let audio = false;
  let blocks = 0;
  /** An EBML variable-length integer at `at`: its length, and value (-1 for "unknown", all ones). */
  const vint = (at: number, keepMarker: boolean): [number, number] => {
    const first = view.getUint8(at);
    const length = Math.clz32(first) - 23;
    if (length > (keepMarker ? 4 : 8)) throw new RangeError();
    let value = keepMarker ? first : first & (0xff >> length);
    let ones = value === 0xff >> length;
    for (let i = 1; i < length; i++) {
      const byte = view.getUint8(at + i);
      value = value * 256 + byte;
      ones &&= byte === 0xff;
    }
    return [length, ones && !keepMarker ? -1 : value];
  };
  try {
    for (let at = 0; at < bytes.length; ) {
      const [idLength, id] = vint(at, true);
      const [sizeLength, size] = vint(at + idLength, false);
      const data = at + idLength + sizeLength;
      // Walk into masters, whatever their size: MediaRecorder leaves Segment and Cluster's unknown.
      if (WEBM_MASTERS.has(id)) {
        segment ||= id === SEGMENT;
        at = data;
        continue;
      }
      const end = data + size;
      if (size < 0 || end > bytes.length) break;
      if (id === DOC_TYPE) docType = text(bytes, data, size);
      if (id === TRACK_TYPE && size === 1 && bytes[data] === 2) audio = true;
      // A block: track number, timecode and flags (4 bytes at least), then the frames.
      if (BLOCKS.has(id) && size > 4) blocks++;
      at = end;
    }
  } catch {
    // The end of a live recording cut short: what came before still plays, if it holds audio.
  }
  return (docType === "webm" || docType === "matroska") && segment && audio && blocks > 0;
};

const CHECKS: Record<AudioType, Check> = {
  "audio/webm": webm,
  "audio/ogg": ogg,
  "audio/mp4": mp4,
  "audio/mpeg": mpeg,
  "audio/wav": wav,
  "audio/flac": flac,
  "audio/aac": aac,
};

/**
 * True when `bytes`, already sniffed as `type`, hold together as that container and carry audio
 * data: a file a player can open. A read past the end of the file refuses it.
 */
export function isReadableAudio(file: Uint8Array, type: AudioType): boolean {
  const bytes = file.subarray(id3TagsEnd(file));
  try {
    return CHECKS[type](new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), bytes);
  } catch {
    return false;
  }
}
