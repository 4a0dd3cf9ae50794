// What the recording store refuses, as a code the window can act on and a sentence for the vet.
export type RecordingErrorCode =
  'bad_id' | 'bad_input' | 'not_found' | 'bad_state' | 'bad_chunk' | 'chunk_gap' | 'io' | 'disk_full' | 'read_only';

export class RecordingError extends Error {
  readonly code: RecordingErrorCode;
  /** For `chunk_gap`: the seq the store is waiting for. */
  readonly expectedSeq: number | null;
  constructor(code: RecordingErrorCode, message: string, options?: { cause?: unknown; expectedSeq?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RecordingError';
    this.code = code;
    this.expectedSeq = options?.expectedSeq ?? null;
  }
}

/** File-system failures reach callers as RecordingError 'io', with the cause attached. */
export async function guard<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (e) {
    if (e instanceof RecordingError) throw e;
    throw new RecordingError('io', `The recording could not be read or written on disk: ${(e as Error).message}`, {
      cause: e,
    });
  }
}
