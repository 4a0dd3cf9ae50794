// POST /recording-sessions/create as the jobs send it (the `recorded` step, and the recording session made
// while recording): noted before it leaves and once it is made (recording-session-asks.ts), and, when its
// answer was lost, looked for in GET /recording-sessions/all before anything is asked again.
import { randomUUID } from 'node:crypto';

import { readAllPages, ServiceError } from '../service/index.ts';
import { diskErrorCode, diskErrorMessage } from '../platform/index.ts';
import type { JobsContext } from './context.ts';
import { withToken } from './sender.ts';
import {
  matchAsk,
  sameFields,
  type RecordingSessionAsk,
  type RecordingSessionFields,
} from './recording-session-asks.ts';

/** An answer saying the service did not carry the request out (a 408 may come from a proxy that timed out waiting). */
function refused(e: unknown): boolean {
  return (
    e instanceof ServiceError &&
    e.kind === 'http' &&
    e.status !== undefined &&
    e.status >= 400 &&
    e.status < 500 &&
    e.status !== 408
  );
}

const NOT_NOTED = 'Nothing was sent, and the recording is kept on this computer; Retry sends it.';

/** Pages of GET /recording-sessions/all read for one lost answer: the list is newest first. */
const LOOKUP_PAGES = 4;

/**
 * The recording session that a create asked before for this consult, with these details, made: one whose
 * answer came (made while recording, and not taken then: the app was restarted meanwhile), else
 * one whose answer was lost, looked up in GET /recording-sessions/all with the consult's owner's
 * sign-in. Every recording session found there for an ask of this consult is noted as this computer's,
 * used or not. Null when the service has none (the request never got there, or was refused).
 */
export async function askedBefore(
  context: JobsContext,
  recordingId: string,
  fields: RecordingSessionFields,
  signal: AbortSignal,
): Promise<string | null> {
  const { client, recordingSessions, serviceKey, sender } = context.options;
  const { recordingSessionIds, asks } = await recordingSessions.known();
  // Asked for this consult, of this service, with its owner's sign-in (not a vet's before a claim).
  const owner = sender(recordingId);
  const mine = asks.filter((a) => a.recordingId === recordingId && a.service === serviceKey() && a.userId === owner);
  // Recording sessions other consults of this computer use.
  const taken = new Set<string>();
  for (const { record } of context.store.allLive())
    if (record.recordingSessionId !== null && record.recordingId !== recordingId) taken.add(record.recordingSessionId);
  const made = mine.find(
    (a) => a.recordingSessionId !== null && !taken.has(a.recordingSessionId) && sameFields(a, fields),
  );
  if (made?.recordingSessionId) return made.recordingSessionId;
  const lost = mine.filter((a) => a.recordingSessionId === null);
  if (lost.length === 0) return null;
  const list = await readAllPages(
    (page, limit) =>
      withToken(context, { recordingId, actor: null }, signal, (t, s) =>
        client.recordingSessionList(t, page, limit, s),
      ),
    { maxPages: LOOKUP_PAGES },
  );
  const known = new Set([...recordingSessionIds, ...taken]);
  let found: string | null = null;
  for (const ask of lost) {
    const match = matchAsk(ask, list.items, known);
    if (!match) continue;
    known.add(match.id);
    await recordingSessions.made(ask.id, match.id);
    if (found === null && sameFields(ask, fields)) found = match.id;
  }
  return found;
}

/**
 * POST /recording-sessions/create with the consult owner's sign-in, noted first (`sent` is told
 * the ask too, before the request leaves) and, once answered, noted as made.
 */
export async function createNoted(
  context: JobsContext,
  recordingId: string,
  fields: RecordingSessionFields,
  owner: { userId: string | null; organizationId: string | null },
  signal: AbortSignal,
  sent?: (ask: RecordingSessionAsk) => void,
): Promise<string> {
  const { options } = context;
  let askId: string | null = null;
  const recordingSession = await withToken(context, { recordingId, actor: null }, signal, async (t, s) => {
    // Noted with a token in hand, just before the request leaves: one that never left (signed
    // out) is not taken for one whose answer was lost.
    const ask: RecordingSessionAsk = {
      id: randomUUID(),
      recordingId,
      ...fields,
      askedAt: options.now(),
      ...owner,
      service: options.serviceKey(),
    };
    await options.recordingSessions.asked(ask).catch((e: unknown) => {
      const code = diskErrorCode(e);
      throw code ? new Error(diskErrorMessage(code, NOT_NOTED), { cause: e }) : e;
    });
    sent?.(ask);
    askId = ask.id;
    try {
      return await options.client.createRecordingSession(t, fields, s);
    } catch (e) {
      // Refused outright (a 401 before a refresh, a name refused): nothing was made.
      if (refused(e)) await options.recordingSessions.refused(ask.id).catch(() => undefined);
      throw e;
    }
  });
  await options.recordingSessions.made(askId, recordingSession.id);
  return recordingSession.id;
}
