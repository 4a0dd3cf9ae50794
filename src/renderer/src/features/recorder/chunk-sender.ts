// Hands the recorder's one-second chunks to main, in order and one at a time: main appends
// each to the file on disk before it answers, and refuses a chunk that skips ahead. A chunk is
// held only until main has it. A failing call is tried again a few times (a resend of a chunk
// main already wrote is harmless); if it still fails, the recording so far is on disk and the
// caller is told at once, so it can stop and say so. A full disk is different: nothing is lost
// by waiting, so the chunks are held until there is room again.
import type { InvokeInput } from '../../../../shared/ipc.ts';
import { ApiCallError, MAX_CHUNK_BYTES } from '../../../../shared/ipc-client.ts';

export type ChunkInput = InvokeInput<'recording:chunk'>;

export interface ChunkSenderOptions {
  id: string;
  send(chunk: ChunkInput): Promise<unknown>;
  /** Tries per chunk, the first included (default 5). */
  attempts?: number;
  /** Wait before try n + 1 (default 250 ms, doubling). */
  retryDelayMs?(attempt: number): number;
  sleep?(ms: number): Promise<void>;
  /** A try failed and another follows: for a "saving is slow" hint. */
  onRetry?(error: unknown, attempt: number): void;
  /** A chunk could not be saved after every try; nothing after it will be sent. */
  onFatal?(error: ChunkSendError): void;
  /**
   * The disk is full or cannot be written (main's sentence): the chunks wait here, in order,
   * and are tried again every few seconds for as long as it takes; null once one is saved again.
   */
  onDiskProblem?(message: string | null): void;
}

/** A full or read-only disk is waited out, never given up on: the audio is held until there is room. */
const DISK_CODES = new Set(['disk_full', 'read_only']);
const DISK_RETRY_MS = 3_000;

export interface ChunkSender {
  /** Queues a chunk; it is sent after every chunk queued before it. */
  push(data: Blob | Uint8Array<ArrayBuffer>, elapsedMs: number): void;
  /** Settles when everything queued so far is saved; rejects if a chunk failed for good. */
  drain(): Promise<void>;
  /** What main has acknowledged. */
  saved(): { chunks: number; bytes: number; elapsedMs: number };
  failure(): ChunkSendError | null;
}

export class ChunkSendError extends Error {
  readonly seq: number;
  /** Length of the audio that is safely on disk. */
  readonly savedElapsedMs: number;
  constructor(cause: unknown, seq: number, savedElapsedMs: number) {
    super((cause as Error)?.message ?? String(cause), { cause });
    this.name = 'ChunkSendError';
    this.seq = seq;
    this.savedElapsedMs = savedElapsedMs;
  }
}

// Failures of the transport or the disk may pass; a refused input or a finished recording won't.
const TRANSIENT_CODES = new Set(['io', 'internal', 'host_unreachable', 'timeout', 'network']);

export function isRetryable(error: unknown): boolean {
  if (error instanceof ApiCallError) return error.retryable || TRANSIENT_CODES.has(error.code);
  // Not an answer from main at all (a broken IPC channel): worth another try.
  return true;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createChunkSender(options: ChunkSenderOptions): ChunkSender {
  const attempts = Math.max(1, options.attempts ?? 5);
  const delay = options.retryDelayMs ?? ((n: number) => 250 * 2 ** (n - 1));
  const sleep = options.sleep ?? defaultSleep;
  let tail: Promise<void> = Promise.resolve();
  let seq = 0;
  let saved = { chunks: 0, bytes: 0, elapsedMs: 0 };
  let failed: ChunkSendError | null = null;
  let diskProblem = false;

  const sendOne = async (data: Uint8Array<ArrayBuffer>, elapsedMs: number) => {
    const chunk: ChunkInput = { id: options.id, seq, data, elapsedMs };
    for (let attempt = 1; ; attempt++) {
      try {
        await options.send(chunk);
        if (diskProblem) {
          diskProblem = false;
          options.onDiskProblem?.(null);
        }
        break;
      } catch (e) {
        if (e instanceof ApiCallError && DISK_CODES.has(e.code)) {
          diskProblem = true;
          options.onDiskProblem?.(e.message);
          attempt = 0;
          await sleep(DISK_RETRY_MS);
          continue;
        }
        if (attempt >= attempts || !isRetryable(e)) throw new ChunkSendError(e, chunk.seq, saved.elapsedMs);
        options.onRetry?.(e, attempt);
        await sleep(delay(attempt));
      }
    }
    seq++;
    saved = { chunks: saved.chunks + 1, bytes: saved.bytes + data.byteLength, elapsedMs };
  };

  const run = async (data: Blob | Uint8Array<ArrayBuffer>, elapsedMs: number) => {
    if (failed) return;
    try {
      const bytes = data instanceof Uint8Array ? data : new Uint8Array(await data.arrayBuffer());
      if (bytes.byteLength === 0) return;
      if (bytes.byteLength <= MAX_CHUNK_BYTES) {
        await sendOne(bytes, elapsedMs);
      } else {
        // Copies, not views: a view would carry its whole buffer across IPC.
        for (let at = 0; at < bytes.byteLength; at += MAX_CHUNK_BYTES)
          await sendOne(bytes.slice(at, at + MAX_CHUNK_BYTES), elapsedMs);
      }
    } catch (e) {
      failed = e instanceof ChunkSendError ? e : new ChunkSendError(e, seq, saved.elapsedMs);
      options.onFatal?.(failed);
    }
  };

  return {
    push(data, elapsedMs) {
      tail = tail.then(() => run(data, elapsedMs));
    },
    async drain() {
      await tail;
      if (failed) throw failed;
    },
    saved: () => saved,
    failure: () => failed,
  };
}
