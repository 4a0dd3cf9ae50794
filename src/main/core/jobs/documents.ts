// A consult may give more documents than its note (discharge instructions after the SOAP note):
// each is one more POST /scribe/request for the consult's recording session, a job of its own
// that starts at `uploaded` (<recording>/documents/<id>.json). It waits its turn (until the note
// and every document asked for before it are done), then is sent exactly as the first, with its
// own key.
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';

import type { Actor } from '../sign-in/index.ts';
import type { JobsContext } from './context.ts';
import { cancel, newLive, type Live } from './live.ts';
import { newScribeRequest, TERMINAL, unsent, type DocumentInfo, type JobRecord } from './record.ts';
import type { JobStore } from './store.ts';
import { Refusal } from '../platform/index.ts';

/** More documents one consult may have besides its note. */
export const MAX_DOCUMENTS = 8;

/**
 * Who asks for a new scribe request on a consult (one more document, a document asked for again,
 * Ask again), and what is noted before it is made.
 */
export interface Asked {
  /** The vet who asks: the request goes with their sign-in only. Null: the consult's owner's, as before. */
  actor?: Actor | null;
  /**
   * Written once the request is sure to be made, before anything of it is saved (the consult's
   * trail): when it throws, nothing is made. Given the document's id (null for the note itself).
   */
  noted?: (documentId: string | null) => Promise<void>;
}

/**
 * "Another document…": one more scribe request for the consult's recording session, with a
 * template of its own (one the consult has not already been, or is being, written with). It
 * waits its turn: it leaves once the note and every document asked before it are done. Asked
 * twice at once (a double click, two windows), it is made once. With `again` (a document of
 * the same template, written from the recording before the vet edited another), the same
 * template is asked once more and the document written before is kept.
 */
export function addDocument(
  context: JobsContext,
  recordingId: string,
  templateId: string,
  name: string | null,
  again: string | null = null,
  asked: Asked = {},
): Promise<DocumentInfo> {
  return context.turns.run(recordingId, () => createDocument(context, recordingId, templateId, name, again, asked));
}

async function createDocument(
  context: JobsContext,
  recordingId: string,
  templateId: string,
  name: string | null,
  again: string | null,
  asked: Asked,
): Promise<DocumentInfo> {
  const { store } = context;
  const consult = store.jobs.get(recordingId);
  if (!consult)
    throw new Refusal(
      'not_found',
      'That consult has not been sent to be scribed; send it first, then ask for another document.',
    );
  const docs = store.documents.get(recordingId) ?? [];
  if (again !== null) {
    const before = docs.find((l) => l.record.documentId === again);
    if (before?.record.templateId !== templateId)
      throw new Refusal('not_found', 'That document is not one of this consult’s; open the consult again.');
    // Asked again while a copy is still on its way: that one is the answer, not one more.
    const pending = docs.find((l) => l.record.templateId === templateId && !TERMINAL.has(l.record.state));
    if (pending) return store.documentSnapshot(pending);
  }
  const same = [consult, ...(again === null ? docs : [])].find(
    (l) => l.record.templateId === templateId && l.record.state !== 'failed',
  );
  if (same) {
    if (same === consult)
      throw new Refusal('conflict', 'The note of this consult is already written with that template; choose another.');
    throw new Refusal('conflict', 'This consult already has a document from that template.');
  }
  if (docs.length >= MAX_DOCUMENTS)
    throw new Refusal('conflict', `A consult can have at most ${MAX_DOCUMENTS} more documents.`);
  const now = new Date(context.options.now()).toISOString();
  const record: JobRecord = {
    ...consult.record,
    templateId,
    state: 'uploaded',
    ...unsent(now),
    documentId: randomUUID().slice(0, 8),
    documentName: name,
    // The vet who asks: it goes with their sign-in, whoever recorded the consult.
    actor: asked.actor ?? null,
  };
  await asked.noted?.(record.documentId);
  await mkdir(store.documentsFolder(recordingId), { recursive: true });
  const live = newLive(record);
  store.documents.set(recordingId, [...docs, live]);
  await store.save(live, {});
  context.runner.kickLive(live);
  return store.documentSnapshot(live);
}

/**
 * A document that failed, or whose note is late, is asked for again: a new request (a new
 * key) for the same recording session, which waits its turn as the first did. The new request
 * is the work of the vet who asks for it now, and goes with their sign-in.
 */
export async function retryDocument(
  context: JobsContext,
  recordingId: string,
  documentId: string,
  asked: Asked = {},
): Promise<DocumentInfo> {
  const { store } = context;
  const live = store.find(recordingId, documentId);
  const r = live.record;
  if (r.state === 'completed') throw new Refusal('conflict', 'This document is already written.');
  if (r.state !== 'failed' && store.msUntilOverdue(r) !== 0) {
    context.waits.wake(live);
    return store.documentSnapshot(live);
  }
  await asked.noted?.(documentId);
  await cancel(live);
  live.overdueAnnounced = false;
  await store.save(live, {
    state: 'uploaded',
    failedAt: null,
    error: null,
    ...newScribeRequest(),
    recordingSessionId: null,
    actor: asked.actor ?? null,
  });
  context.runner.kickLive(live);
  return store.documentSnapshot(live);
}

/** Whether a document may leave now: the consult's note and every document before it are done. */
export function itsTurn(store: JobStore, live: Live): boolean {
  const consult = store.jobs.get(live.record.recordingId);
  if (!consult || consult.record.state !== 'completed') return false;
  const docs = store.documents.get(live.record.recordingId) ?? [];
  return docs.slice(0, docs.indexOf(live)).every((d) => TERMINAL.has(d.record.state));
}

/** The text of every further document of a consult (the vet's edit when there is one), for search. */
export function documentTexts(store: JobStore, recordingId: string): string[] {
  return (store.documents.get(recordingId) ?? []).map((d) => d.record.editedNote ?? d.record.note ?? '');
}
