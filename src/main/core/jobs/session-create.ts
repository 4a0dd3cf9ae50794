// POST /recording-sessions/create as the jobs send it (the `recorded` step, and the session made
// while recording): noted before it leaves and once it is made (session-asks.ts), and, when its
// answer was lost, looked for in GET /recording-sessions/all before anything is asked again.
import { randomUUID } from 'node:crypto';

import { readAllPages, ServiceError } from '../service/index.ts';
import { diskErrorCode, diskErrorMessage } from '../platform/index.ts';
import type { JobsContext } from './context.ts';
import { withToken } from './sender.ts';
import { matchAsk, sameFields, type SessionAsk, type SessionFields } from './session-asks.ts';

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
 * The session that a create asked before for this consult, with these details, made: one whose
 * answer came (made while recording, and not taken then: the app was restarted meanwhile), else
 * one whose answer was lost, looked up in GET /recording-sessions/all with the consult's owner's
 * sign-in. Every session found there for an ask of this consult is noted as this computer's,
 * used or not. Null when the service has none (the request never got there, or was refused).
 */
export async function askedBefore(
  context: JobsContext,
  recordingId: string,
  fields: SessionFields,
  signal: AbortSignal,
): Promise<string | null> {
  const { client, sessions, serviceKey, sender } = context.options;
  const { sessionIds, asks } = await sessions.known();
  // Asked for this consult, of this service, with its owner's sign-in (not a vet's before a claim).
  const owner = sender(recordingId);
  const mine = asks.filter((a) => a.recordingId === recordingId && a.service === serviceKey() && a.userId === owner);
  // Sessions other consults of this computer use.
  const taken = new Set<string>();
  for (const { record } of context.store.allLive())
    if (record.sessionId !== null && record.recordingId !== recordingId) taken.add(record.sessionId);
  const made = mine.find((a) => a.sessionId !== null && !taken.has(a.sessionId) && sameFields(a, fields));
  if (made?.sessionId) return made.sessionId;
  const lost = mine.filter((a) => a.sessionId === null);
  if (lost.length === 0) return null;
  const list = await readAllPages(
    (page, limit) =>
      withToken(context, { recordingId, actor: null }, signal, (t, s) => client.sessionList(t, page, limit, s)),
    { maxPages: LOOKUP_PAGES },
  );
  const known = new Set([...sessionIds, ...taken]);
  let found: string | null = null;
  for (const ask of lost) {
    const match = matchAsk(ask, list.items, known);
    if (!match) continue;
    known.add(match.id);
    await sessions.made(ask.id, match.id);
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
  fields: SessionFields,
  owner: { userId: string | null; organizationId: string | null },
  signal: AbortSignal,
  sent?: (ask: SessionAsk) => void,
): Promise<string> {
  const { options } = context;
  let askId: string | null = null;
  const session = await withToken(context, { recordingId, actor: null }, signal, async (t, s) => {
    // Noted with a token in hand, just before the request leaves: one that never left (signed
    // out) is not taken for one whose answer was lost.
    const ask: SessionAsk = {
      id: randomUUID(),
      recordingId,
      ...fields,
      askedAt: options.now(),
      ...owner,
      service: options.serviceKey(),
    };
    await options.sessions.asked(ask).catch((e: unknown) => {
      const code = diskErrorCode(e);
      throw code ? new Error(diskErrorMessage(code, NOT_NOTED), { cause: e }) : e;
    });
    sent?.(ask);
    askId = ask.id;
    try {
      return await options.client.createSession(t, fields, s);
    } catch (e) {
      // Refused outright (a 401 before a refresh, a name refused): nothing was made.
      if (refused(e)) await options.sessions.refused(ask.id).catch(() => undefined);
      throw e;
    }
  });
  await options.sessions.made(askId, session.id);
  return session.id;
}
