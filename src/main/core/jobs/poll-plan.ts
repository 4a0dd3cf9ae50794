// When to look at a scribe job again. The app learns how long the service takes to write a note
// per minute of audio, per template and per service, and polls sparsely while the note cannot be
// ready yet, densely around the moment it is expected, and less and less often after that, so a
// note that is far later than expected still reaches the vet without spending the service's
// request budget. What it learned is kept on disk (one small JSON file, written atomically), so
// the first consult of the morning is polled as well as the last of the day before.
import { readJson, writeJsonAtomic } from '../platform/index.ts';

/** Recordings shorter than this count as this long: a short note costs the service a fixed time. */
export const MIN_AUDIO_MINUTES = 1;
/**
 * Before anything is learned: notes of about 20 s a minute, and anything from at once to twice
 * that, so the first note of a service is looked for every few seconds from the start.
 */
export const FIRST_GUESS_MS_PER_MINUTE = 20_000;
/** How many of the latest notes each template keeps: the median of few adapts within a few consults. */
export const KEPT_SAMPLES = 5;

const DENSE_MIN_MS = 1500;
const DENSE_MAX_MS = 4000;
const SPARSE_MIN_MS = 5000;
const SPARSE_MAX_MS = 30_000;
const LATE_MIN_MS = 2000;
/** The slowest look at a late note: it still reaches the vet within this of being written. */
const LATE_MAX_MS = 15_000;
const MIN_SPREAD_MS = 2000;

/** When a note is expected, from the scribe request leaving: around `expectedMs`, give or take `spreadMs`. */
export interface Expectation {
  expectedMs: number;
  spreadMs: number;
  /** Whether this comes from notes this service wrote (false: the first guess). */
  learned: boolean;
}

interface PlanFile {
  version: 1;
  /** service -> template -> the latest milliseconds per audio minute, oldest first. */
  services: Record<string, Record<string, number[]>>;
}

/**
 * The next wait, from how long the job has been at the service: sparse before the window around
 * the expected finish (two thirds of the way there each time, so a note that comes early is not
 * missed by much), dense inside it, and after it a wait as long as the note is already late
 * (so a note twice as late as expected costs no more looks a minute than one on time), capped.
 */
export function nextPollDelay(elapsedMs: number, e: Expectation): number {
  const start = e.expectedMs - e.spreadMs;
  const end = e.expectedMs + e.spreadMs;
  if (elapsedMs < start) {
    const left = start - elapsedMs;
    return Math.round(left <= SPARSE_MIN_MS ? left : clamp((left * 2) / 3, SPARSE_MIN_MS, SPARSE_MAX_MS));
  }
  if (elapsedMs < end) return Math.round(clamp(e.spreadMs / 2, DENSE_MIN_MS, DENSE_MAX_MS));
  return Math.round(clamp(elapsedMs - end, LATE_MIN_MS, LATE_MAX_MS));
}

/** Whether a look now could find the note: not before the window opens, for the first look. */
export function worthALook(elapsedMs: number, e: Expectation): boolean {
  return elapsedMs >= e.expectedMs - e.spreadMs;
}

export class PollPlan {
  private readonly file: string | null;
  private services: PlanFile['services'] = {};
  private loaded: Promise<void> | null = null;
  private writes: Promise<void> = Promise.resolve();

  /** `file` null: learned for this run only. */
  constructor(file: string | null) {
    this.file = file;
  }

  /** Reads what was learned before; a missing or unreadable file starts from the first guess. */
  load(): Promise<void> {
    this.loaded ??= (async () => {
      if (this.file === null) return;
      try {
        this.services = sanitize(await readJson(this.file));
      } catch {
        this.services = {};
      }
    })();
    return this.loaded;
  }

  /** When a note of this length and template is expected from this service. */
  expect(service: string, templateId: string, audioMinutes: number): Expectation {
    const minutes = Math.max(MIN_AUDIO_MINUTES, audioMinutes);
    const templates = this.services[service] ?? {};
    // A template the service has not written yet is guessed from its other templates.
    const own = templates[templateId] ?? [];
    const samples = own.length > 0 ? own : Object.values(templates).flat();
    if (samples.length === 0) {
      const expectedMs = FIRST_GUESS_MS_PER_MINUTE * minutes;
      return { expectedMs, spreadMs: expectedMs, learned: false };
    }
    const perMinute = estimate(samples);
    const deviations = samples.map((s) => Math.abs(s - perMinute));
    const expectedMs = perMinute * minutes;
    const spreadMs = Math.max(MIN_SPREAD_MS, expectedMs * 0.05, 1.5 * median(deviations) * minutes);
    return { expectedMs, spreadMs: Math.min(spreadMs, expectedMs / 2 + MIN_SPREAD_MS), learned: true };
  }

  /** A note came: `tookMs` from the scribe request to the note being ready. Saved before it resolves. */
  async learn(service: string, templateId: string, audioMinutes: number, tookMs: number): Promise<void> {
    if (!Number.isFinite(tookMs) || tookMs < 0) return;
    await this.load();
    const perMinute = tookMs / Math.max(MIN_AUDIO_MINUTES, audioMinutes);
    const templates = (this.services[service] ??= {});
    const kept = [...(templates[templateId] ?? []), Math.round(perMinute)].slice(-KEPT_SAMPLES);
    templates[templateId] = kept;
    if (this.file === null) return;
    const file = this.file;
    const doc: PlanFile = { version: 1, services: structuredClone(this.services) };
    // One write after another: the last to finish holds the latest samples.
    const write = this.writes.then(() => writeJsonAtomic(file, doc));
    this.writes = write.catch(() => {});
    await write;
  }
}

/**
 * Milliseconds per audio minute from the latest samples: their median, so one note that took
 * ten times as long (a service hiccup, a computer asleep) moves nothing; but when the two latest
 * both lie well beyond it on the same side (the service slowed down or sped up), theirs.
 */
function estimate(samples: readonly number[]): number {
  const mid = median(samples);
  const last = samples.slice(-2);
  if (last.length === 2) {
    const [a, b] = last as [number, number];
    if ((a > mid * 1.3 && b > mid * 1.3) || (a < mid / 1.3 && b < mid / 1.3)) return (a + b) / 2;
  }
  return mid;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return 0;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** Only what makes sense is kept from the file: positive finite numbers, the latest few per template. */
function sanitize(raw: unknown): PlanFile['services'] {
  const out: PlanFile['services'] = {};
  if (typeof raw !== 'object' || raw === null) return out;
  const services = (raw as { services?: unknown }).services;
  if (typeof services !== 'object' || services === null) return out;
  for (const [service, templates] of Object.entries(services)) {
    if (typeof templates !== 'object' || templates === null) continue;
    for (const [template, samples] of Object.entries(templates)) {
      if (!Array.isArray(samples)) continue;
      const good = samples.filter((s): s is number => typeof s === 'number' && Number.isFinite(s) && s >= 0);
      if (good.length > 0) (out[service] ??= {})[template] = good.slice(-KEPT_SAMPLES);
    }
  }
  return out;
}
