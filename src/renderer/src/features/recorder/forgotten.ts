// A recording left running (the vet walked out, the patient went home): after three minutes in
// which nothing was heard the recorder asks "Still recording?", and at the maximum length from
// Settings it stops by itself, keeping what it has, with a warning five minutes before.

/** Nothing heard for this long asks "Still recording?". */
export const STILL_RECORDING_AFTER_MS = 3 * 60_000;
/** The warning before the maximum length. */
export const MAX_LENGTH_WARNING_MS = 5 * 60_000;
export const DEFAULT_MAX_RECORDING_MINUTES = 90;

export interface LengthCheck {
  /** Whole minutes left before the recording stops by itself, once inside the warning; else null. */
  minutesLeft: number | null;
  /** The maximum length is reached: stop now. */
  reached: boolean;
}

export function checkLength(elapsedMs: number, maxMinutes: number): LengthCheck {
  const maxMs = maxMinutes * 60_000;
  if (elapsedMs >= maxMs) return { minutesLeft: 0, reached: true };
  const left = maxMs - elapsedMs;
  return { minutesLeft: left <= MAX_LENGTH_WARNING_MS ? Math.max(1, Math.ceil(left / 60_000)) : null, reached: false };
}

export function maxLengthReachedText(maxMinutes: number): string {
  return `The recording stopped by itself at the maximum length of ${maxMinutes} minutes (Settings). Everything recorded is kept.`;
}
