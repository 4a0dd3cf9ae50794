// MediaRecorder writes a live WebM: the Segment and every Cluster have unknown sizes, and Info
// has no Duration and there are no Cues, so players (and the scribing service) cannot tell how
// long the audio is. This module reads such a file once, streaming, and rewrites its head with
// a Duration, a SeekHead and Cues (ts-ebml's makeMetadataSeekable); every byte after the
// original head is copied unchanged.
//
// Memory stays bounded: ts-ebml's Decoder keeps only the bytes of the element it is reading,
// the Reader keeps the elements of the current Cluster (about one timeslice of audio) and one
// cue per Cluster, and the file is read and copied in 64 KiB pieces.
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
// ts-ebml is CommonJS. Node's CJS lexer and bundlers both find its named exports, but they
// disagree on its default export (it sets __esModule), so it is imported by name only.
import { Decoder, Reader, tools } from 'ts-ebml';
import type { EBMLElementDetail } from 'ts-ebml';

const READ_BYTES = 64 * 1024;
// The decoder is fed in slices. If a damaged tail makes it throw, the elements of the slice it
// was reading are lost with it, so the file is read a second time with that slice fed a byte
// at a time: everything before the damaged byte then counts.
const FEED_BYTES = 16 * 1024;
// No element of recorded audio comes near this (a chunk is at most 1 MiB); bytes the decoder
// would keep buffering past it are a damaged tail whose "element" claims a size not there.
const MAX_PENDING_BYTES = 2 * 1024 * 1024;
const EBML_MAGIC = [0x1a, 0x45, 0xdf, 0xa3];
// MediaRecorder writes a block every 20-60 ms and leaves paused time out of its timestamps, so
// consecutive blocks of a track are never this far apart; a block that goes back in time or
// jumps further ahead is damaged bytes that happen to parse, and ends the audio.
const MAX_BLOCK_GAP_MS = 2000;
// ts-ebml's Encoder grows its output array one element at a time (Array#concat), so building
// the head is quadratic in its element count: an hour's 3,750 cues took 29 s, 256 take about
// 0.3 s. A cue every few clusters (every ~15 s at worst) is plenty for seeking in speech.
const MAX_CUES = 256;

export interface WebmScan {
  /** Length of the audio up to the end of its last complete block; null when it has none. */
  durationMs: number | null;
  codecId: string | null;
  /** Bytes of the head (EBML header, Segment start, Info, Tracks) before the first Cluster. */
  metadataSize: number;
  /** Why the head cannot be rewritten; null when it can. */
  problem: string | null;
  /** The scan stopped before the end of the file (truncated or corrupt tail). */
  incompleteTail: boolean;
  reader: Reader;
}

export interface DurationFix {
  fixed: boolean;
  durationMs: number | null;
  /** The Matroska codec of the first track (`A_OPUS`), when the head was readable. */
  codecId: string | null;
  /** Why the Duration was not written; null when it was. */
  reason: string | null;
}

/** Duration of one Opus packet from its TOC byte (RFC 6716, 3.1). */
function opusPacketMs(packet: Uint8Array): number | null {
  const toc = packet[0];
  if (toc === undefined) return null;
  const config = toc >> 3;
  const frameMs =
    config < 12 ? [10, 20, 40, 60][config % 4] : config < 16 ? [10, 20][config % 2] : [2.5, 5, 10, 20][config % 4];
  const code = toc & 3;
  const frames = code === 0 ? 1 : code === 3 ? (packet[1] ?? 0) & 0x3f : 2;
  return frameMs === undefined ? null : frameMs * frames;
}

/** Decoder.decode is typed for an ArrayBuffer (it copies what it is given into its own buffer). */
function arrayBufferOf(bytes: Buffer): ArrayBuffer {
  return new Uint8Array(bytes).buffer;
}

/** Whether a whole head starts with the EBML magic. */
function isEbml(head: Uint8Array): boolean {
  return head.length >= EBML_MAGIC.length && continuesEbml(0, head);
}

/**
 * Whether `data`, written at byte `at` of a file, keeps the file's first four bytes the EBML
 * magic: a recording's header may come split over its first chunks (Chromium's MediaRecorder
 * can hand over the first byte alone), so each chunk is checked for its part of it.
 */
export function continuesEbml(at: number, data: Uint8Array): boolean {
  for (let i = 0; at + i < EBML_MAGIC.length && i < data.length; i++) if (data[i] !== EBML_MAGIC[at + i]) return false;
  return true;
}

/** Reads the whole file through ts-ebml, keeping only what the head rewrite needs. */
export async function scanWebm(path: string, readBytes = READ_BYTES): Promise<WebmScan> {
  const first = await scanPass(path, readBytes, null);
  if (first.threwAt === null) return first.scan;
  return (await scanPass(path, readBytes, first.threwAt)).scan;
}

/**
 * One read of the file. From `fineFrom` on (the start of the slice a first pass threw in) the
 * decoder is fed one byte at a time, and a throw ends the read with every element before it.
 */
async function scanPass(
  path: string,
  readBytes: number,
  fineFrom: number | null,
): Promise<{ scan: WebmScan; threwAt: number | null }> {
  const decoder = new Decoder();
  const reader = new Reader();
  reader.drop_default_duration = false;
  reader.use_segment_info = false;
  let timestampScale = 1_000_000;
  let clusterTicks = 0;
  let codecId: string | null = null;
  let endMs: number | null = null;
  const lastBlockTicks = new Map<number, number>();
  const tracks = new Set<number>();
  let segment: EBMLElementDetail | null = null;
  let headerEnd = -1;
  let sawCluster = false;
  let fed = 0;
  let consumed = 0;
  let incompleteTail = false;

  // Set at the first sign of a damaged tail: nothing after it counts as audio.
  let damaged = false;
  const take = (el: EBMLElementDetail): void => {
    consumed = Math.max(consumed, el.dataEnd > 0 ? el.dataEnd : el.dataStart);
    if (damaged) return;
    if (el.name === 'unknown') {
      // MediaRecorder writes only known elements; past the head, one it does not know is damage.
      if (sawCluster) damaged = true;
      return;
    }
    if (el.type === 'm' && el.name === 'EBML' && el.isEnd) headerEnd = el.dataEnd;
    if (el.type === 'm' && el.name === 'Segment' && !el.isEnd) segment ??= el;
    if (el.type === 'm' && el.name === 'Cluster' && !el.isEnd) sawCluster = true;
    if (el.type === 'u' && el.name === 'TrackNumber') tracks.add(el.value);
    if (el.type === 'u' && el.name === 'TimestampScale') timestampScale = el.value;
    if (el.type === 'u' && el.name === 'Timestamp') clusterTicks = el.value;
    if (el.type === 's' && el.name === 'CodecID') codecId ??= el.value;
    if (el.type === 'b' && el.name === 'SimpleBlock') {
      const block = tools.ebmlBlock(el.data);
      // Bytes of a damaged tail can look like a block; a real one belongs to a declared track.
      if (!tracks.has(block.trackNumber)) return;
      const ticks = clusterTicks + block.timecode;
      const startMs = (ticks * timestampScale) / 1e6;
      let lengthMs: number | null = null;
      if (codecId === 'A_OPUS') {
        lengthMs = block.frames.reduce<number | null>((sum, f) => {
          const ms = opusPacketMs(f);
          return sum === null || ms === null ? null : sum + ms;
        }, 0);
      }
      const previous = lastBlockTicks.get(block.trackNumber);
      if (
        previous !== undefined &&
        (ticks < previous || ((ticks - previous) * timestampScale) / 1e6 > MAX_BLOCK_GAP_MS)
      ) {
        damaged = true;
        return;
      }
      if (lengthMs === null && previous !== undefined) {
        lengthMs = Math.min(1000, Math.max(0, ((ticks - previous) * timestampScale) / 1e6));
      }
      lastBlockTicks.set(block.trackNumber, ticks);
      endMs = Math.max(endMs ?? 0, startMs + (lengthMs ?? 0));
    }
    reader.read(el);
  };

  let threwAt: number | null = null;
  const stream = createReadStream(path, { highWaterMark: readBytes });
  try {
    reading: for await (const piece of stream as AsyncIterable<Buffer>) {
      for (let at = 0; at < piece.length;) {
        const fine = fineFrom !== null && fed >= fineFrom && fed < fineFrom + FEED_BYTES;
        const size = fine ? 1 : fineFrom !== null && fed < fineFrom ? Math.min(FEED_BYTES, fineFrom - fed) : FEED_BYTES;
        const slice = piece.subarray(at, at + size);
        at += slice.length;
        threwAt = fed;
        fed += slice.length;
        for (const el of decoder.decode(arrayBufferOf(slice))) take(el);
        threwAt = null;
        if (fed - consumed > MAX_PENDING_BYTES) {
          incompleteTail = true;
          break reading;
        }
      }
    }
  } catch {
    // A tail that does not parse: everything read before it still counts.
    incompleteTail = true;
  } finally {
    stream.destroy();
  }
  if (consumed < fed || damaged) incompleteTail = true;
  reader.stop();

  const seg = segment as EBMLElementDetail | null;
  let problem: string | null = null;
  if (headerEnd < 0 || !seg) problem = 'no EBML header and Segment';
  else if (!sawCluster) problem = 'no audio cluster';
  else if (endMs === null) problem = 'no complete audio block';
  // makeMetadataSeekable writes the Segment start as 12 bytes right after the header, as
  // MediaRecorder does; a head laid out otherwise would get wrong seek positions.
  else if (seg.tagStart !== headerEnd || seg.dataStart - seg.tagStart !== 12) problem = 'unexpected Segment layout';
  else if (reader.metadatas.length === 0 || reader.metadataSize <= seg.dataStart)
    problem = 'no Info and Tracks before the first cluster';
  return {
    scan: {
      durationMs: endMs === null ? null : Math.round(endMs),
      codecId,
      metadataSize: reader.metadataSize,
      problem,
      incompleteTail,
      reader,
    },
    threwAt,
  };
}

/** The new head: EBML header, Segment start, SeekHead, Info with Duration, Tracks, Cues. */
function buildHead(reader: Reader, durationTicks: number): Buffer {
  // ts-ebml's Encoder answers `Buffer.concat(...).buffer`; under Node a result smaller than half
  // of Buffer.poolSize is a slice of the shared pool, so that ArrayBuffer is the whole pool, not
  // the head (legokichi/ts-ebml#55). With pooling off for this one synchronous call the
  // ArrayBuffer is exactly the head.
  const poolSize = Buffer.poolSize;
  Buffer.poolSize = 0;
  let head: Buffer;
  try {
    const step = Math.ceil(reader.cues.length / MAX_CUES);
    const cues = reader.cues.filter((_, i) => i % step === 0);
    head = Buffer.from(tools.makeMetadataSeekable(reader.metadatas, durationTicks, cues));
  } finally {
    Buffer.poolSize = poolSize;
  }
  // Never write a head that does not read back as exactly itself, with its Duration.
  const elements = new Decoder().decode(arrayBufferOf(head));
  const end = elements.reduce((max, el) => Math.max(max, el.dataEnd), 0);
  if (!isEbml(head) || end !== head.length || !elements.some((el) => el.name === 'Duration')) {
    throw new Error(`the rebuilt head does not read back (${head.length} bytes, elements end at ${end})`);
  }
  return head;
}

/**
 * Writes the Duration (and SeekHead, Cues) into a MediaRecorder WebM in place: new head, then
 * the rest of the file unchanged, into a temp file beside it, fsync'd and renamed over the
 * original. On any failure the original file is left exactly as it was.
 */
export async function fixWebmDuration(path: string, readBytes = READ_BYTES): Promise<DurationFix> {
  let scan: WebmScan;
  try {
    scan = await scanWebm(path, readBytes);
  } catch (e) {
    return { fixed: false, durationMs: null, codecId: null, reason: `unreadable: ${(e as Error).message}` };
  }
  const { durationMs, codecId, problem, reader, metadataSize } = scan;
  if (problem !== null || durationMs === null)
    return { fixed: false, durationMs, codecId, reason: problem ?? 'no duration' };

  let head: Buffer;
  try {
    head = buildHead(reader, (durationMs * 1e6) / reader.timestampScale);
  } catch (e) {
    return { fixed: false, durationMs, codecId, reason: `head not rebuilt: ${(e as Error).message}` };
  }

  const tmp = `${path}.${randomUUID()}.tmp`;
  try {
    const out = await open(tmp, 'wx', 0o600);
    try {
      await out.write(head);
      const rest = createReadStream(path, { start: metadataSize, highWaterMark: readBytes });
      for await (const piece of rest as AsyncIterable<Buffer>) await out.write(piece);
      await out.sync();
    } finally {
      await out.close();
    }
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    return { fixed: false, durationMs, codecId, reason: `not rewritten: ${(e as Error).message}` };
  }
  await syncDir(dirname(path));
  return { fixed: true, durationMs, codecId, reason: null };
}

export async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Windows cannot open a folder for sync; a rename is still atomic there.
  }
}
