// A chunk of audio onto the end of audio.webm: the checks a chunk must pass, and the write that
// answers only once every byte is on disk and cuts the file back when it fails.
//
// Chunks must arrive in order: the renderer sends chunk n+1 only after chunk n was answered.
// A resend of a chunk already written is ignored (its answer may have been lost); a chunk that
// skips ahead is refused with the seq that was expected, so the caller resends the missing one.
import { open, stat } from 'node:fs/promises';
import { MAX_CHUNK_BYTES } from '../../../shared/ipc.ts';
import { diskErrorCode, diskErrorMessage, Refusal } from '../platform/index.ts';
import { continuesEbml } from './webm-duration.ts';
import { isWebm, type RecordingMeta } from './meta.ts';

/**
 * The empty audio file of a new recording, on disk before its meta: a crash before the first
 * chunk still leaves a folder that recovery recognises.
 */
export async function createAudio(path: string): Promise<void> {
  const audio = await open(path, 'wx', 0o600);
  try {
    await audio.sync();
  } finally {
    await audio.close();
  }
}

/** Refuses a chunk whose number, bytes or elapsed time make no sense, before any disk work. */
export function checkChunk(seq: number, data: Uint8Array, elapsedMs: number | undefined): void {
  if (!Number.isSafeInteger(seq) || seq < 0)
    throw new Refusal('bad_chunk', `Chunk number ${String(seq)} is not a whole number from 0.`);
  if (!(data instanceof Uint8Array)) throw new Refusal('bad_chunk', 'A chunk must be bytes.');
  if (data.byteLength > MAX_CHUNK_BYTES) {
    throw new Refusal(
      'bad_chunk',
      `Chunk ${seq} is ${data.byteLength} bytes; a chunk may be at most ${MAX_CHUNK_BYTES} bytes.`,
    );
  }
  if (elapsedMs !== undefined && !(Number.isFinite(elapsedMs) && elapsedMs >= 0)) {
    throw new Refusal('bad_chunk', `Elapsed time ${String(elapsedMs)} is not a length of time.`);
  }
}

/**
 * Whether chunk `seq` is the one the recording waits for: false for a resend of one already
 * written; refused when the recording has ended, when it skips ahead, or when the first audio
 * of a WebM recording is not a WebM header (which may come over more than one chunk).
 */
export function isNextChunk(meta: RecordingMeta, seq: number, data: Uint8Array): boolean {
  if (meta.state === 'finished' || meta.state === 'recovered') {
    throw new Refusal('bad_state', `This recording is ${meta.state}; no more audio can be added to it.`);
  }
  if (seq < meta.chunks) return false;
  if (seq > meta.chunks) {
    throw new Refusal(
      'chunk_gap',
      `Chunk ${seq} arrived before chunk ${meta.chunks}; send chunk ${meta.chunks} first.`,
      {
        expectedSeq: meta.chunks,
      },
    );
  }
  if (isWebm(meta.mimeType) && !continuesEbml(meta.bytes, data)) {
    throw new Refusal('bad_chunk', 'The first audio of this recording does not start with a WebM header.');
  }
  return true;
}

/**
 * A chunk that was not confirmed, told to the vet: the audio stays as it was at the last
 * confirmed chunk (a retry drops whatever part of this one reached the disk). A full or
 * read-only disk gets its own code; anything else is thrown as it came.
 */
export function chunkFailure(e: unknown): unknown {
  const kind = e instanceof Refusal ? null : diskErrorCode(e);
  if (!kind) return e;
  return new Refusal(
    kind,
    diskErrorMessage(kind, 'The recording so far is kept, and saving goes on once there is room.'),
    { cause: e },
  );
}

/**
 * Appends `data` at `at` (the confirmed length) and returns the new length, only once every
 * byte is on disk. A write may take fewer bytes than it was given (a disk nearly full, a file
 * size limit): it is called again for the rest, and a file that does not end up exactly
 * `at + data.byteLength` long is cut back to `at` and refused.
 */
export async function appendBytes(path: string, at: number, data: Uint8Array): Promise<number> {
  const handle = await open(path, 'r+', 0o600).catch(async (e: unknown) => {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return open(path, 'w+', 0o600);
    throw e;
  });
  try {
    // Bytes past the last acknowledged chunk belong to a write that failed and is being
    // sent again: drop them, or the file would hold that chunk twice.
    if ((await handle.stat()).size !== at) await handle.truncate(at);
    let written = 0;
    try {
      while (written < data.byteLength) {
        const { bytesWritten } = await handle.write(data, written, data.byteLength - written, at + written);
        if (bytesWritten <= 0)
          throw Object.assign(new Error('the disk took no more bytes'), { code: 'ENOSPC', syscall: 'write' });
        written += bytesWritten;
      }
      await handle.datasync();
      const size = (await handle.stat()).size;
      if (size !== at + data.byteLength)
        throw Object.assign(new Error(`the file is ${size} bytes, not ${at + data.byteLength}`), {
          code: 'EIO',
          syscall: 'write',
        });
      return size;
    } catch (e) {
      await handle.truncate(at).catch(() => undefined);
      throw e;
    }
  } finally {
    await handle.close();
  }
}

/** The audio file's length on disk; 0 when there is none. */
export async function audioSize(path: string): Promise<number> {
  return (await stat(path).catch(() => null))?.size ?? 0;
}
