// A consult's note and its further documents as the window reads, edits, copies and exports
// them: the view (the vet's edit over the service's note), the three formats, the files, the
// clipboard, and the vet's unsaved edits.
import type { ConsultInfo, NoteExport, NoteFormats } from '../../../shared/ipc.ts';
import {
  noteFileBase,
  sectionsFromText,
  sectionsToHtml,
  sectionsToPlainText,
  sectionsToRtf,
} from '../../../shared/note/index.ts';
import type { NoteMeta } from '../../../shared/note/types.ts';
import { actorName, actorUser, type Actor } from '../sign-in/index.ts';
import type { DraftVet } from './drafts.ts';
import { notePdf } from './note-pdf.ts';
import type { ClipboardPort } from '../platform/index.ts';
import { localDate } from '../recordings/index.ts';
import type { ConsultParts } from './parts.ts';
import { Refusal } from '../platform/index.ts';

const EXPORT_TYPES = { txt: 'text/plain; charset=utf-8', rtf: 'application/rtf', pdf: 'application/pdf' } as const;

export type ExportFormat = keyof typeof EXPORT_TYPES;

/** Where a note's unsaved edit is kept: the consult's id, and for a further document its id too. */
function draftKey(id: string, documentId: string | null): string {
  return documentId === null ? id : `${id}.document-${documentId}`;
}

/**
 * Whose draft a call reads or writes: the vet who asks, each their own. Whether they recorded the
 * consult decides the drafts an older version kept with no vet (drafts.ts): those are the
 * recording vet's.
 */
function draftVet(consult: ConsultInfo, actor: Actor): DraftVet {
  const owner = consult.recording.recordedBy;
  return {
    userId: actor.userId,
    name: actorName(actor),
    recordedIt: owner !== null && owner.userId === actor.userId && owner.service === actor.service,
  };
}

export type ConsultNotesOptions = Pick<ConsultParts, 'access' | 'pipeline' | 'drafts' | 'trail'> & {
  clipboard: ClipboardPort | undefined;
  /** Told once an edit is saved, with the vet who made it: the clinic relay tells the other rooms. */
  edited?: (id: string, documentId: string | null, actor: Actor) => void;
};

export class ConsultNotes {
  private readonly options: ConsultNotesOptions;

  constructor(options: ConsultNotesOptions) {
    this.options = options;
  }

  /** The note (or one more document of the consult) as the window shows it, with the patient and the consult's local date. */
  view(id: string, documentId: string | null = null, as?: Actor) {
    // `as`: work of a vet that goes on whoever is in front (a note sent to the PIMS); else the vet in front.
    const { recording, job } = this.options.access.consultFor(id, as);
    const { note, editedNote, noteRtf } = this.options.pipeline.note(id, documentId);
    const documentName = documentId === null ? null : (job?.documents.find((d) => d.id === documentId)?.name ?? null);
    // The service's RTF is the note it wrote; once the vet has edited it, it no longer is.
    return {
      note,
      editedNote,
      rtf: editedNote === null ? noteRtf : null,
      patientName: recording.patientName,
      recordingSessionDate: localDate(recording.startedAt),
      documentName,
    };
  }

  /**
   * The note as the window of the vet in front (`actor`) shows it: the view, and the names of the
   * other vets with unsaved changes to it (never their text), so that a colleague knows before
   * saving over a note someone else is still editing.
   */
  async read(id: string, documentId: string | null, actor: Actor | null) {
    const view = this.view(id, documentId);
    if (actor === null) return { ...view, othersEditing: [] };
    const consult = this.options.access.consultFor(id, actor);
    const owner = consult.recording.recordedBy;
    const othersEditing = await this.options.drafts.othersEditing(
      draftKey(id, documentId),
      draftVet(consult, actor),
      owner ? owner.name.trim() || owner.email : null,
    );
    return { ...view, othersEditing };
  }

  /**
   * The note as shown (the vet's edit when there is one) as text, HTML and RTF. The service's own
   * RTF is used as it came while the note is unedited; an edit is written out from its sections.
   */
  formats(id: string, documentId: string | null = null, as?: Actor): NoteFormats {
    const { sections, meta, serviceRtf } = this.parts(id, documentId, as);
    return {
      text: sectionsToPlainText(sections, meta),
      html: sectionsToHtml(sections, meta),
      rtf: serviceRtf ?? sectionsToRtf(sections, meta),
      fileBase: noteFileBase(meta),
    };
  }

  async export(id: string, format: ExportFormat, documentId: string | null, actor: Actor | null): Promise<NoteExport> {
    const { sections, meta } = this.parts(id, documentId);
    const formats = this.formats(id, documentId);
    await this.options.trail.add(id, 'exported', { documentId, who: actor && actorUser(actor) });
    // A plain Uint8Array, not a Buffer: a Buffer would cross the HTTP bridge as its toJSON().
    const data =
      format === 'pdf'
        ? new Uint8Array(await notePdf(sections, meta))
        : new Uint8Array(new TextEncoder().encode(format === 'txt' ? formats.text : formats.rtf));
    return { fileName: `${formats.fileBase}.${format}`, mimeType: EXPORT_TYPES[format], data };
  }

  /** The clipboard where this platform has one; false where it has none (the window writes it then). */
  async copy(flavours: { text: string; html: string; rtf: string }): Promise<{ written: boolean }> {
    if (!this.options.clipboard) return { written: false };
    await this.options.clipboard.write(flavours);
    return { written: true };
  }

  /** The window copied or printed the note: noted before it does, so it does not when this is refused. */
  async used(
    id: string,
    action: 'copied' | 'printed',
    documentId: string | null,
    actor: Actor | null,
  ): Promise<{ noted: true }> {
    this.parts(id, documentId);
    await this.options.trail.add(id, action, { documentId, who: actor && actorUser(actor) });
    return { noted: true };
  }

  // The note and its drafts are written in the consult's turn, where a delete is too: a save
  // asked after a delete finds no consult, and none is written back into a deleted one. Each is
  // the asking vet's (`actor`): their edit on the trail, their draft, whoever sits down meanwhile.

  save(id: string, text: string | null, documentId: string | null, actor: Actor) {
    const { pipeline, drafts } = this.options;
    return pipeline.inTurn(id, async () => {
      const consult = this.options.access.consultFor(id, actor);
      // Refused as a whole when it cannot be noted: the vet's draft is still kept.
      await this.options.trail.add(id, 'edited', { documentId, who: actorUser(actor) });
      await pipeline.saveEditedNote(id, text, documentId);
      // The draft was for this save: once the note holds it, it is done. A colleague's draft of
      // the same note is theirs, and stays.
      await drafts.put(draftKey(id, documentId), draftVet(consult, actor), null);
      // Back to the service's original (null) is no edit to announce.
      if (text !== null) this.options.edited?.(id, documentId, actor);
      return { saved: true as const };
    });
  }

  /** The asking vet's own draft of the note; another vet's is never shown. */
  draft(id: string, documentId: string | null, actor: Actor) {
    const consult = this.options.access.consultFor(id, actor);
    if (documentId !== null) this.options.pipeline.note(id, documentId);
    return this.options.drafts.get(draftKey(id, documentId), draftVet(consult, actor));
  }

  saveDraft(id: string, text: string | null, documentId: string | null, actor: Actor) {
    const { pipeline, drafts } = this.options;
    return pipeline.inTurn(id, () => {
      const consult = this.options.access.consultFor(id, actor);
      // A draft for a document the consult does not have is refused, not kept.
      if (documentId !== null) pipeline.note(id, documentId);
      return drafts.put(draftKey(id, documentId), draftVet(consult, actor), text);
    });
  }

  private parts(id: string, documentId: string | null, as?: Actor) {
    const view = this.view(id, documentId, as);
    const shown = view.editedNote ?? view.note;
    if (shown === null)
      throw new Refusal(
        'not_found',
        documentId === null ? 'This consult has no note yet.' : 'This document is not written yet.',
      );
    const meta: NoteMeta = {
      patientName: view.patientName,
      date: view.recordingSessionDate,
      templateName: view.documentName,
    };
    return { sections: sectionsFromText(shown), meta, serviceRtf: view.rtf };
  }
}
