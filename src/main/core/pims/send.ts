// Sending a consult's note into the PIMS so that it is never written twice and never to the
// wrong patient, whatever PIMS is behind the port. For one consult and its appointment, each
// patient gets one note in the visit's consultation. What happened is kept in a small file per
// consult, written whole BEFORE a write ('sending') and AFTER it (the note's id, then 'sent'),
// so a lost answer or a process killed between the write and its confirmation is settled at the
// next try: a kept note id is read back; without one, the consultation's notes are searched for
// this app's earlier write (the marker line, on the same patient) before anything is sent again.
// No PIMS documents an idempotency key, so reading back is the only safe way.
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { KeyedQueue, readJson, writeJsonAtomic } from '../platform/index.ts';
import { noteWithMarker, PimsError, type Pims, type PimsConsultation, type PimsNote, type WriteNote } from './port.ts';

export type PatientSendState = 'sending' | 'sent' | 'waiting-check-in' | 'failed';

const patientRecord = z.object({
  noteId: z.string().nullable(),
  /** SHA-256 of the vet's text last sent (or waiting), so an edit is seen. */
  textHash: z.string().nullable(),
  state: z.enum(['sending', 'sent', 'waiting-check-in', 'failed']),
  sentAt: z.string().nullable(),
  sentBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type PatientSendRecord = z.infer<typeof patientRecord>;

const sendRecord = z.object({
  version: z.literal(1),
  consultId: z.string(),
  appointmentId: z.string(),
  consultationId: z.string().nullable(),
  patients: z.record(z.string(), patientRecord),
});
export type SendRecord = z.infer<typeof sendRecord>;

export interface SendNote {
  consultId: string;
  appointmentId: string;
  /** Each pet of the visit with the note the vet read for it. */
  patients: { id: string; text: string }[];
  /** The actor the note is sent for (their app user id and name). */
  by: { id: string; name: string };
}

export interface NoteSenderOptions {
  pims: Pims;
  /** The folder of the per-consult files. */
  dir: string;
  now?: () => number;
  /** Waits a 429 asks for; the clock is the platform's, given so that a test need not wait a minute. */
  sleep?: (ms: number) => Promise<void>;
  /** A 429 asking for longer than this is not waited here: the caller tries later. */
  maxWaitMs?: number;
  /** 429s waited in one send, over every call it makes. */
  maxWaits?: number;
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;
const MAX_TEXT = 100_000;

/** The line the app ends its note with: readable to a vet, and unique enough to find it again. */
export function noteMarker(consultId: string): string {
  return `Written by Vet Scribe · ${consultId.replace(/-/g, '').slice(0, 8)}`;
}

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');
// A PIMS may store line ends as CRLF or drop trailing blanks; the words are what must match.
const same = (a: string, b: string) => a.replace(/\r\n/g, '\n').trimEnd() === b.replace(/\r\n/g, '\n').trimEnd();
const lastLine = (text: string) => text.replace(/\r\n/g, '\n').trimEnd().split('\n').pop()?.trim() ?? '';

// Outcomes of a write that may have reached the PIMS: the next try must look before writing.
const UNKNOWN_OUTCOME = new Set(['unreachable', 'invalid_answer']);
// Failures of the visit or the sign-in as a whole: the other patients would fail alike.
const WHOLE_SEND = new Set(['signed_out', 'rate_limited', 'unreachable', 'not_checked_in', 'finalized']);

function blank(): PatientSendRecord {
  return { noteId: null, textHash: null, state: 'failed', sentAt: null, sentBy: null, error: null };
}

function checkInput(input: SendNote): void {
  const bad = (why: string) => new PimsError('bad_input', why);
  if (!SAFE_ID.test(input.consultId)) throw bad('The consult id is not one the app makes.');
  if (!SAFE_ID.test(input.appointmentId)) throw bad('The appointment id is not one the practice system gives.');
  if (input.patients.length === 0) throw bad('The visit has no patient to send a note for.');
  const ids = input.patients.map((p) => p.id);
  if (new Set(ids).size !== ids.length) throw bad('A patient is named twice for one visit.');
  for (const p of input.patients) {
    if (!SAFE_ID.test(p.id)) throw bad('A patient id is not one the practice system gives.');
    if (p.text.trim() === '') throw bad('A note is empty: there is nothing to send.');
    if (p.text.length > MAX_TEXT) throw bad(`A note is longer than ${MAX_TEXT} characters: it is not sent.`);
  }
  if (input.by.id.trim() === '' || input.by.name.trim() === '') throw bad('The vet sending the note is not named.');
}

export class NoteSender {
  private readonly options: NoteSenderOptions;
  private readonly queue = new KeyedQueue();
  private made: Promise<void> | null = null;
  constructor(options: NoteSenderOptions) {
    this.options = options;
  }

  private file(consultId: string): string {
    if (!SAFE_ID.test(consultId)) throw new PimsError('bad_input', 'The consult id is not one the app makes.');
    return join(this.options.dir, `${consultId}.pims-note.json`);
  }

  /** What was sent for a consult, or null when nothing was (or its file cannot be read). */
  async record(consultId: string): Promise<SendRecord | null> {
    const { record } = await this.load(consultId);
    return record;
  }

  private async load(consultId: string): Promise<{ record: SendRecord | null; unreadable: boolean }> {
    let raw: unknown;
    try {
      raw = await readJson(this.file(consultId));
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
      raw = undefined;
    }
    if (raw === null) return { record: null, unreadable: false };
    const parsed = sendRecord.safeParse(raw);
    if (parsed.success && parsed.data.consultId === consultId) return { record: parsed.data, unreadable: false };
    return { record: null, unreadable: true };
  }

  private async save(record: SendRecord): Promise<void> {
    // Made on the first save: a vet who never sends to a PIMS gets no folder for it.
    this.made ??= mkdir(this.options.dir, { recursive: true, mode: 0o700 }).then(() => undefined);
    await this.made;
    await writeJsonAtomic(this.file(record.consultId), record);
  }

  /**
   * Sends (or updates) each patient's note; one send per consult at a time. Resolves to what is
   * kept: each patient 'sent' or 'waiting-check-in'. Rejects with the first PimsError once every
   * patient's state is kept ('failed', or 'sending' when the outcome is not known).
   */
  send(input: SendNote): Promise<SendRecord> {
    checkInput(input);
    return this.queue.run(input.consultId, () => this.sendNow(input));
  }

  private async sendNow(input: SendNote): Promise<SendRecord> {
    const { record: kept, unreadable } = await this.load(input.consultId);
    const record: SendRecord = kept ?? this.fresh(input, unreadable);
    // A note written, or perhaps written, for this consult is never followed by one elsewhere.
    const wrote = Object.values(record.patients).some((p) => p.noteId !== null || p.state === 'sending');
    if (record.appointmentId !== input.appointmentId) {
      if (wrote)
        throw new PimsError(
          'bad_input',
          'This consult was sent to another appointment in the practice system: it is not sent again elsewhere.',
        );
      record.appointmentId = input.appointmentId;
    }
    const waits = { used: 0 };
    let consultation: PimsConsultation | null;
    try {
      consultation = await this.patiently(() => this.options.pims.findConsultation(input.appointmentId), waits);
    } catch (e) {
      // Kept, so the consult can say why its note is not in yet (sign in again, try later).
      if (e instanceof PimsError) await this.failAll(record, input.patients, e);
      throw e;
    }
    if (consultation === null) {
      for (const p of input.patients) {
        const r = record.patients[p.id] ?? blank();
        if (r.state !== 'sent' && r.state !== 'sending')
          record.patients[p.id] = { ...r, state: 'waiting-check-in', textHash: hashOf(p.text), error: null };
      }
      await this.save(record);
      return record;
    }
    if (wrote && record.consultationId !== null && record.consultationId !== consultation.id)
      throw new PimsError(
        'bad_input',
        'The visit is now another consultation in the practice system than the one the note was sent to.',
      );
    record.consultationId = consultation.id;
    let first: PimsError | null = null;
    for (const [i, p] of input.patients.entries()) {
      try {
        await this.sendOne(record, consultation, p, input.by, waits);
      } catch (e) {
        if (!(e instanceof PimsError)) throw e;
        const r = record.patients[p.id] ?? blank();
        record.patients[p.id] = {
          ...r,
          // 'sending' stays while a write may have happened; a write refused outright set 'failed'.
          state: UNKNOWN_OUTCOME.has(e.code) || r.state === 'sending' ? 'sending' : 'failed',
          textHash: hashOf(p.text),
          error: { code: e.code, message: e.message },
        };
        await this.save(record);
        first ??= e;
        if (WHOLE_SEND.has(e.code)) {
          // The others would fail alike: each keeps why, and none is tried now.
          await this.failAll(record, input.patients.slice(i + 1), e);
          break;
        }
      }
    }
    if (first) throw first;
    return record;
  }

  private async failAll(record: SendRecord, patients: SendNote['patients'], e: PimsError): Promise<void> {
    for (const p of patients) {
      const r = record.patients[p.id] ?? blank();
      if (r.state === 'sent' && r.textHash === hashOf(p.text)) continue;
      record.patients[p.id] = {
        ...r,
        state: r.state === 'sending' ? 'sending' : 'failed',
        textHash: hashOf(p.text),
        error: { code: e.code, message: e.message },
      };
    }
    await this.save(record);
  }

  private fresh(input: SendNote, unreadable: boolean): SendRecord {
    const patients: Record<string, PatientSendRecord> = {};
    // An unreadable file may hide a write: each patient is looked for before writing.
    if (unreadable) for (const p of input.patients) patients[p.id] = { ...blank(), state: 'sending' };
    return {
      version: 1,
      consultId: input.consultId,
      appointmentId: input.appointmentId,
      consultationId: null,
      patients,
    };
  }

  private async sendOne(
    record: SendRecord,
    consultation: PimsConsultation,
    patient: { id: string; text: string },
    by: { id: string; name: string },
    waits: { used: number },
  ): Promise<void> {
    const { pims } = this.options;
    if (!consultation.patientIds.includes(patient.id))
      throw new PimsError(
        'bad_input',
        'This patient is not a patient of the visit in the practice system: the note is not sent, so it cannot land on another pet.',
      );
    const hash = hashOf(patient.text);
    const r: PatientSendRecord = record.patients[patient.id] ?? blank();
    // Sent and unchanged since: nothing to do, even in a visit finalized meanwhile.
    if (r.state === 'sent' && r.textHash === hash && r.noteId !== null) return;
    if (consultation.finalized)
      throw new PimsError(
        'finalized',
        'The visit is finalized in the practice system: ask its administrator for the permission to edit notes of finalized visits, or have the visit reopened.',
      );
    const cid = consultation.id;
    const marker = noteMarker(record.consultId);
    const expected = noteWithMarker(patient.text, marker);
    let found: PimsNote | null = null;
    // A kept id not yet confirmed is read back; it may be gone (removed in the PIMS).
    if (r.noteId !== null && r.state !== 'sent') {
      found = await this.patiently(() => pims.readNote(cid, r.noteId as string), waits);
      if (found && found.patientId !== patient.id) found = null;
      if (!found) r.noteId = null;
    }
    // A write that may have happened without its answer: looked for before writing again.
    if (r.noteId === null && r.state === 'sending') found = await this.lookup(cid, patient.id, marker, waits);
    if (found) r.noteId = found.id;
    if (found && same(found.text, expected)) return this.confirmed(record, patient.id, r, hash, by);
    record.patients[patient.id] = { ...r, state: 'sending', textHash: hash, error: null };
    await this.save(record);
    const note = { consultationId: cid, patientId: patient.id, text: patient.text, marker };
    let written: PimsNote;
    try {
      written = await this.write(note, r.noteId, waits);
    } catch (e) {
      if (e instanceof PimsError && !UNKNOWN_OUTCOME.has(e.code))
        record.patients[patient.id] = { ...(record.patients[patient.id] ?? r), state: 'failed' };
      throw e;
    }
    record.patients[patient.id] = { ...r, state: 'sending', noteId: written.id, textHash: hash, error: null };
    await this.save(record);
    const back = await this.patiently(() => pims.readNote(cid, written.id), waits);
    if (!back || back.patientId !== patient.id || !same(back.text, expected))
      throw new PimsError(
        'invalid_answer',
        'The practice system does not hold the note as it was sent: it is checked again at the next try.',
      );
    return this.confirmed(record, patient.id, { ...r, noteId: written.id }, hash, by);
  }

  /** The write itself: a change of the kept note, or a new one. */
  private async write(note: WriteNote, noteId: string | null, waits: { used: number }): Promise<PimsNote> {
    const { pims } = this.options;
    if (noteId !== null) return this.patiently(() => pims.updateNote({ ...note, noteId }), waits);
    try {
      return await this.patiently(() => pims.writeNote(note), waits);
    } catch (e) {
      // One note per patient: a refusal naming the patient may mean this app's note is there
      // already (its kept state lost); it is then changed, not written again.
      const earlier =
        e instanceof PimsError && e.code === 'refused' && e.fieldErrors['patient']
          ? await this.lookup(note.consultationId, note.patientId, note.marker, waits)
          : null;
      if (!earlier) throw e;
      return this.patiently(() => pims.updateNote({ ...note, noteId: earlier.id }), waits);
    }
  }

  private async lookup(cid: string, patientId: string, marker: string, waits: { used: number }) {
    const notes = await this.patiently(() => this.options.pims.readNotes(cid), waits);
    return notes.find((n) => n.patientId === patientId && lastLine(n.text) === marker) ?? null;
  }

  private async confirmed(
    record: SendRecord,
    patientId: string,
    r: PatientSendRecord,
    hash: string,
    by: { id: string; name: string },
  ): Promise<void> {
    const at = new Date((this.options.now ?? Date.now)()).toISOString();
    record.patients[patientId] = { ...r, state: 'sent', textHash: hash, sentAt: at, sentBy: { ...by }, error: null };
    await this.save(record);
  }

  /** A call, with the waits a 429 asks for, within this send's bounds. */
  private async patiently<T>(call: () => Promise<T>, waits: { used: number }): Promise<T> {
    const maxWaits = this.options.maxWaits ?? 3;
    const maxWaitMs = this.options.maxWaitMs ?? 30_000;
    for (;;) {
      try {
        return await call();
      } catch (e) {
        if (!(e instanceof PimsError) || e.code !== 'rate_limited') throw e;
        const wait = e.retryAfterMs ?? 1000;
        if (waits.used >= maxWaits || wait > maxWaitMs)
          // Past this send's bounds the vet is told what to do, and the note is kept to send again.
          throw new PimsError('rate_limited', `${e.message.replace(/\.$/, '')}: the note is kept; try again later.`, {
            status: e.status,
            retryAfterMs: e.retryAfterMs,
            cause: e,
          });
        waits.used++;
        await (this.options.sleep ?? sleep)(wait);
      }
    }
  }
}
