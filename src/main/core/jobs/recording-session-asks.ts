// Every POST /recording-sessions/create this computer sends is noted before it leaves, with what
// it sends. The published API has no way to delete a recording session, and the clinic's other
// computers list every recording session of the organization: a recording session made here whose answer never came
// (the connection dropped after sending, a time-out, a request cut short by a delete or a quit)
// would otherwise be listed here as a visit recorded elsewhere, and a job that made it again
// would leave it behind. The note lets this computer find it in GET /recording-sessions/all and
// take it as its own: by the job that asked (which then uses it rather than making another,
// recording-session-create.ts), and by the clinic's list at each refresh (clinic-consults.ts, which keeps
// the notes).
import { z } from 'zod';

import type { RecordingSessionListItem } from '../../../shared/service/lists.ts';

export const recordingSessionAskSchema = z.object({
  /** This computer's name for the request (a random UUID). */
  id: z.string(),
  /** The consult it was asked for. */
  recordingId: z.string(),
  patientName: z.string(),
  description: z.string(),
  /** The `session_date` sent: the recording's local day. */
  recordingSessionDate: z.string(),
  /** When it was sent, by this computer's clock (ms since the epoch). */
  askedAt: z.number(),
  /** The account it was sent with, and its organization: only that organization's list can hold it. */
  userId: z.string().nullable(),
  organizationId: z.string().nullable(),
  service: z.string(),
});
export type RecordingSessionAsk = z.infer<typeof recordingSessionAskSchema>;

/** What the create sends, as the job and the recording session made while recording compare it. */
export type RecordingSessionFields = Pick<RecordingSessionAsk, 'patientName' | 'description' | 'recordingSessionDate'>;

/** An ask as kept, with the recording session it made once that is known (its answer, or found in the list). */
export type KeptAsk = RecordingSessionAsk & { recordingSessionId: string | null };

/**
 * Where the asks and the recording sessions made here are kept (the clinic's `recorded-here.json`): given
 * to the pipeline as an option, so that the jobs need not know the clinic's list.
 */
export interface RecordingSessionLedger {
  /** Noted before the request leaves; a note that cannot be written keeps the request from being sent. */
  asked(ask: RecordingSessionAsk): Promise<void>;
  /** The recording session an ask made (from its answer, or found in the list): this computer's for good. */
  made(askId: string | null, recordingSessionId: string): Promise<void>;
  /** The service refused the ask (a 4xx answer): it made nothing, and nothing is looked for. */
  refused(askId: string): Promise<void>;
  /** The recording sessions made or taken here, and every ask kept. */
  known(): Promise<{ recordingSessionIds: ReadonlySet<string>; asks: readonly KeptAsk[] }>;
}

/**
 * How far apart the ask and the recording session's `updated_at` may be: the service's clock is not this
 * computer's, and a request may reach the service a deadline after it left.
 */
export const ASK_WINDOW_MS = 10 * 60_000;

/** A ledger that forgets at exit: the pipeline's when it is given none (tools and tests of the pipeline alone). */
export function memoryLedger(): RecordingSessionLedger {
  const recordingSessionIds = new Set<string>();
  const asks = new Map<string, KeptAsk>();
  return {
    asked: (ask) => {
      asks.set(ask.id, { ...ask, recordingSessionId: null });
      return Promise.resolve();
    },
    made: (askId, recordingSessionId) => {
      recordingSessionIds.add(recordingSessionId);
      const ask = askId === null ? undefined : asks.get(askId);
      if (ask) ask.recordingSessionId = recordingSessionId;
      return Promise.resolve();
    },
    refused: (askId) => {
      asks.delete(askId);
      return Promise.resolve();
    },
    known: () => Promise.resolve({ recordingSessionIds, asks: [...asks.values()] }),
  };
}

export function sameFields(a: RecordingSessionFields, b: RecordingSessionFields): boolean {
  return (
    a.patientName === b.patientName &&
    a.description === b.description &&
    a.recordingSessionDate === b.recordingSessionDate
  );
}

/**
 * The recording session of the list that an ask made: the same patient's name and description, changed
 * within the window around the ask, and not one this computer already knows; of several, the one
 * nearest the ask. The list gives no `session_date` and no author, so nothing else can be told.
 */
export function matchAsk(
  ask: RecordingSessionAsk,
  items: readonly RecordingSessionListItem[],
  known: ReadonlySet<string>,
): RecordingSessionListItem | null {
  let best: RecordingSessionListItem | null = null;
  let bestGap = Infinity;
  for (const item of items) {
    if (known.has(item.id) || item.patientName?.trim() !== ask.patientName) continue;
    // The list gives a blank description as none.
    if ((item.description ?? '') !== (ask.description.trim() === '' ? '' : ask.description)) continue;
    const at = item.updatedAt === null ? NaN : Date.parse(item.updatedAt);
    const gap = Math.abs(at - ask.askedAt);
    if (!(gap <= ASK_WINDOW_MS) || gap >= bestGap) continue;
    best = item;
    bestGap = gap;
  }
  return best;
}
