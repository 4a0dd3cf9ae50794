// The input level as a vet reads it: 0 is silence, 100 is full scale. Loudness is on a
// decibel scale from -60 dBFS, so speech across the room moves the meter, not just shouting.

const FLOOR_DB = -60;

/** Below this level the microphone counts as silent (about -54 dBFS). */
export const SILENCE_LEVEL = 10;

/** How long the input may stay silent while recording before the vet is warned. */
export const SILENCE_WARNING_MS = 5000;

export function levelFromSamples(samples: ArrayLike<number>): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) {
    const v = samples[i] ?? 0;
    sum += v * v;
  }
  const rms = Math.sqrt(sum / samples.length);
  if (rms === 0) return 0;
  const db = 20 * Math.log10(rms);
  return Math.round(Math.min(100, Math.max(0, ((db - FLOOR_DB) / -FLOOR_DB) * 100)));
}

/** Rises at once, falls slowly: a meter the eye can follow. */
export function smoothLevel(previous: number, next: number): number {
  return next >= previous ? next : Math.round(Math.max(next, previous * 0.8));
}

/** Watches for a stretch of silence; `update` answers whether to warn. */
export function createSilenceWatch(thresholdMs = SILENCE_WARNING_MS) {
  let quietSince: number | null = null;
  return {
    update(level: number, now: number): boolean {
      if (level >= SILENCE_LEVEL) {
        quietSince = null;
        return false;
      }
      quietSince ??= now;
      return now - quietSince >= thresholdMs;
    },
    /** Paused time is not silence: start counting again. */
    reset() {
      quietSince = null;
    },
  };
}
