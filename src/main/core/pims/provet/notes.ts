// The writing half of the Provet adapter: a clinical note in a consultation, one per patient.
// POST consultation/{id}/consultationnote/ with `{patient: <patient URL>, text}`, GET of the list
// and of one note (to confirm a write), PUT of one note to change it. Every request carries the
// vet's own token (refreshed once on a 401). Each refusal becomes the PimsError that says what to
// do: a consultation that is not there means the pet is not checked in yet; a 403 on a
// finalized consultation is told apart from a missing permission by reading the consultation.
import { send, type PimsAnswer, type PimsHttpOptions } from '../http.ts';
import { noteWithMarker, PimsError, type PimsNote, type WriteNote } from '../port.ts';
import type { PimsTokens } from '../tokens.ts';
import type { ProvetInstance } from './instance.ts';
import { readAllPages, type PageBounds } from './lists.ts';
import { fieldErrorsOf, provetError, provetGet } from './requests.ts';
import { provetConsultation, provetNote, readProvet } from './schemas.ts';

export interface ProvetNotesOptions {
  instance: ProvetInstance;
  tokens: PimsTokens;
  http?: PimsHttpOptions;
  bounds?: PageBounds;
}

// Provet's ids are whole numbers; anything else never reaches a path.
function checkId(id: string, what: string): string {
  if (!/^\d{1,20}$/.test(id)) throw new PimsError('bad_input', `"${id.slice(0, 40)}" is not a Provet ${what} id.`);
  return id;
}

// A note is plain text; Provet's own limit is not published, so a bound that no consult note
// reaches keeps a runaway body from being sent.
const MAX_TEXT = 100_000;

export class ProvetNotes {
  private readonly options: ProvetNotesOptions;
  constructor(options: ProvetNotesOptions) {
    this.options = options;
  }

  private notesUrl(consultationId: string): string {
    return `${this.options.instance.api}consultation/${checkId(consultationId, 'consultation')}/consultationnote/`;
  }

  private noteUrl(consultationId: string, noteId: string): string {
    return `${this.notesUrl(consultationId)}${checkId(noteId, 'note')}/`;
  }

  private body(note: WriteNote): { patient: string; text: string } {
    const text = noteWithMarker(note.text, note.marker);
    if (note.text.trim() === '') throw new PimsError('bad_input', 'The note is empty: there is nothing to send.');
    if (text.length > MAX_TEXT)
      throw new PimsError('bad_input', `The note is longer than ${MAX_TEXT} characters: it is not sent.`);
    return { patient: `${this.options.instance.api}patient/${checkId(note.patientId, 'patient')}/`, text };
  }

  /** One call with the vet's token; a 401 is thrown so that PimsTokens refreshes once and tries again. */
  private call(method: 'GET' | 'POST' | 'PUT', url: string, json?: unknown): Promise<PimsAnswer> {
    return this.options.tokens.withToken(async (token) => {
      const answer = await send(method, url, { token, json }, { name: 'Provet', ...this.options.http });
      if (answer.status === 401) throw provetError(401, answer.json, answer.headers);
      return answer;
    });
  }

  /** The note in an answer, checked to be the one asked for (the consultation, the patient). */
  private read(answer: PimsAnswer, consultationId: string, patientId: string | null): PimsNote {
    const note = readProvet(provetNote, 'a clinical note', answer.json);
    if (note.consultationId !== consultationId || (patientId !== null && note.patientId !== patientId))
      throw new PimsError('invalid_answer', 'Provet answered with a note of another consultation or patient.');
    return note;
  }

  async writeNote(note: WriteNote): Promise<PimsNote> {
    const body = this.body(note);
    const answer = await this.call('POST', this.notesUrl(note.consultationId), body);
    if (answer.status !== 201 && answer.status !== 200) throw await this.refusal(answer, note.consultationId, 'write');
    return this.read(answer, note.consultationId, note.patientId);
  }

  /** Changes the note in place (PUT: the patient and the text, so it stays on the same patient). */
  async updateNote(note: WriteNote & { noteId: string }): Promise<PimsNote> {
    const body = this.body(note);
    const answer = await this.call('PUT', this.noteUrl(note.consultationId, note.noteId), body);
    if (answer.status !== 200) throw await this.refusal(answer, note.consultationId, 'update');
    return this.read(answer, note.consultationId, note.patientId);
  }

  async readNote(consultationId: string, noteId: string): Promise<PimsNote | null> {
    const answer = await this.call('GET', this.noteUrl(consultationId, noteId));
    if (answer.status === 404) return null;
    if (answer.status !== 200) throw provetError(answer.status, answer.json, answer.headers);
    return this.read(answer, consultationId, null);
  }

  async readNotes(consultationId: string): Promise<PimsNote[]> {
    try {
      const { items } = await readAllPages(
        this.notesUrl(consultationId),
        (url) => this.options.tokens.withToken((token) => provetGet(url, token, this.options.http)),
        (raw) => readProvet(provetNote, 'a clinical note', raw),
        this.options.bounds,
      );
      return items.filter((n) => n.consultationId === consultationId);
    } catch (e) {
      if (e instanceof PimsError && e.code === 'not_found') throw notCheckedIn();
      throw e;
    }
  }

  /** What a refused write means, in one sentence that names what to do or whom to ask. */
  private async refusal(answer: PimsAnswer, consultationId: string, kind: 'write' | 'update'): Promise<PimsError> {
    const { status } = answer;
    if (status === 404)
      return kind === 'write'
        ? notCheckedIn()
        : new PimsError('not_found', 'The note is no longer in Provet: it was removed there.', { status });
    if (status === 400) {
      const fieldErrors = fieldErrorsOf(answer.json);
      const reasons = Object.entries(fieldErrors)
        .map(([field, said]) => `${field === 'non_field_errors' ? '' : `${field}: `}${said.join(' ')}`)
        .join('; ');
      return new PimsError(
        'refused',
        reasons
          ? `Provet refused the note (${reasons.slice(0, 400)}): ask the clinic's Provet administrator about it.`
          : "Provet refused the note without saying why: ask the clinic's Provet administrator about it.",
        { status, fieldErrors },
      );
    }
    // Provet's permissions by the names its administrators see in its permission list.
    if (status === 403 && (await this.finalized(consultationId)))
      return new PimsError(
        'finalized',
        'The visit is finalized in Provet: ask the clinic\'s Provet administrator for "Add / edit discharge instructions and clinical notes after consultation has been finalized", or have the visit reopened.',
        { status },
      );
    if (status === 403)
      return new PimsError(
        'permission',
        kind === 'write'
          ? 'Your Provet user may not add clinical notes here: ask the clinic\'s Provet administrator for "Add clinical notes on consultation" (and "Add unapproved clinical notes on consultation" where notes are approved).'
          : 'Your Provet user may not change this clinical note: ask the clinic\'s Provet administrator for "Add clinical notes on consultation", and "Edit notes, discharge instructions and clinical notes made by other users" if a colleague wrote it.',
        { status },
      );
    return provetError(status, answer.json, answer.headers);
  }

  /** Whether the consultation is finalized; false when that cannot be read (the 403 then stands as it is). */
  private async finalized(consultationId: string): Promise<boolean> {
    try {
      const url = `${this.options.instance.api}consultation/${checkId(consultationId, 'consultation')}/`;
      const raw = await this.options.tokens.withToken((token) => provetGet(url, token, this.options.http));
      return readProvet(provetConsultation, 'a consultation', raw).finalized;
    } catch {
      return false;
    }
  }
}

function notCheckedIn(): PimsError {
  return new PimsError(
    'not_checked_in',
    'The visit has no consultation in Provet: the note goes in once the patient is checked in.',
    { status: 404 },
  );
}
