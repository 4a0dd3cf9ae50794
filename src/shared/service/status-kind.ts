// What a scribe status word means to the app. No zod here: the window imports it.
export type ScribeStatusKind = 'queued' | 'processing' | 'completed' | 'failed' | 'unknown';

const STATUS_KINDS: Record<string, Exclude<ScribeStatusKind, 'unknown'>> = {};
for (const [kind, words] of [
  // The published words (`GET /scribe/get/{id}`, docs/service.md) are requested, scribing and scribed.
  ['queued', ['requested', 'queued', 'pending', 'waiting', 'created', 'submitted', 'accepted', 'new']],
  ['processing', ['scribing', 'processing', 'in_progress', 'running', 'started', 'transcribing']],
  ['completed', ['scribed', 'completed', 'complete', 'done', 'success', 'succeeded', 'finished']],
  // A cancelled job will never finish either: for the app it is a failure to show.
  ['failed', ['failed', 'failure', 'error', 'errored', 'cancelled', 'canceled', 'rejected']],
] as const) {
  for (const word of words) STATUS_KINDS[word] = kind;
}

/**
 * What a scribe status means to the app, case- and separator-insensitively ("In Progress",
 * "in-progress", "IN_PROGRESS"). 'unknown' is any other word: the app shows it verbatim and
 * keeps polling, as for a job still running.
 */
export function scribeStatusKind(status: string): ScribeStatusKind {
  const word = status
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return STATUS_KINDS[word] ?? 'unknown';
}
