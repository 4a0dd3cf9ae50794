// The one error for what the engine refuses to do, with a code the window can act on and one
// sentence for the vet: bad input, a consult not found, a recording in the wrong state, a note
// not there yet, a disk that cannot be written. What the service refuses is a ServiceError
// (service/errors.ts); what a disk refuses while a consult's history is written, a TrailError.
export type RefusalCode =
  // The input given was wrong (a form, a setting, an agent's question).
  | 'invalid_input'
  | 'bad_input'
  | 'bad_id'
  | 'bad_chunk'
  // What the call names is not there (or not the vet's).
  | 'not_found'
  | 'no_recording'
  // The consult is not in a state that allows it.
  | 'bad_state'
  | 'not_failed'
  | 'busy'
  | 'conflict'
  | 'patient_name_required'
  // A chunk that does not follow the last one kept (`expectedSeq` says which is awaited).
  | 'chunk_gap'
  // The disk.
  | 'io'
  | 'disk_full'
  | 'read_only';

export class Refusal extends Error {
  readonly code: RefusalCode;
  /** For `chunk_gap`: the seq the recording store is waiting for. */
  readonly expectedSeq: number | null;
  constructor(code: RefusalCode, message: string, options?: { cause?: unknown; expectedSeq?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'Refusal';
    this.code = code;
    this.expectedSeq = options?.expectedSeq ?? null;
  }
}
