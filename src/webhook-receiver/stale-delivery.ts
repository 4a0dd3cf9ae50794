// A delivery dated before what the receiver remembers could be a captured delivery replayed
// after its key was forgotten, and would be handled again: it is refused. Only a payload that
// carries a date can be checked; the published `scribe` payload carries none (README, "Replays").

/** Payload fields read as the delivery's date; the newest one counts, since an object's creation may be old. */
export const DATE_FIELDS = ['timestamp', 'sent_at', 'updated_at', 'created_at'] as const;

/**
 * This receiver's clock may run behind the sender's by this much: without it, a replay dated
 * just inside the memory could reach a receiver that had stamped the first copy later than the
 * sender dated it, and find its key already gone.
 */
export const CLOCK_SKEW_MS = 15 * 60_000;

export interface Staleness {
  field: string;
  at: number;
}

/** The newest date in the payload when even that is older than the memory allows, else null. */
export function staleDate(payload: Record<string, unknown>, now: number, rememberMs: number): Staleness | null {
  let newest: Staleness | null = null;
  for (const field of DATE_FIELDS) {
    const at = readDate(payload[field]);
    if (at !== null && (newest === null || at > newest.at)) newest = { field, at };
  }
  return newest !== null && newest.at < now - rememberMs + CLOCK_SKEW_MS ? newest : null;
}

/** Milliseconds since 1970 from an ISO 8601 text, or from a number of seconds or milliseconds. */
function readDate(value: unknown): number | null {
  if (typeof value === 'string') {
    if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return null;
    const at = Date.parse(value);
    return Number.isFinite(at) ? at : null;
  }
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
    // Below 1e11 a number is seconds (up to the year 5138), above it milliseconds (from 1973 on).
    return value < 1e11 ? value * 1000 : value;
  }
  return null;
}
