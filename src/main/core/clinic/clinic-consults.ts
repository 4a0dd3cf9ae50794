// The clinic's consults from the service: GET /scribe/all and GET /recording-sessions/all read
// page by page (pages.ts), merged with what this computer recorded (merge.ts), kept on disk per
// account (copy-file.ts); each note read with GET /scribe/get/{id} and kept with the copy. A
// refresh runs with the sign-in of the account it is for, from start to end, and writes only
// that account's copy; one that fails leaves the copy as it was and says why in one sentence.
import { join } from 'node:path';
import {
  findClinicConsult,
  findClinicNote,
  NOT_NAMED,
  searchableWords,
  type ClinicNote,
  type EditedElsewhere,
  type ClinicView,
} from '../../../shared/clinic.ts';
import type { NoteExport, NoteFormats } from '../../../shared/ipc.ts';
import {
  noteFileBase,
  rtfToSections,
  sectionsFromCategories,
  sectionsFromText,
  sectionsToHtml,
  sectionsToPlainText,
  sectionsToRtf,
  sectionsToText,
} from '../../../shared/note/index.ts';
import type { NoteMeta } from '../../../shared/note/types.ts';
import { scribeStatusKind } from '../../../shared/service/index.ts';
import type { ScribeRecord } from '../../../shared/service/workflow.ts';
import { notePdf } from '../consults/index.ts';
import { localDate } from '../recordings/index.ts';
import type { ServiceClient } from '../service/index.ts';
import { SessionChangedError, type Session } from '../sign-in/index.ts';
import { ClinicCopyFiles, type ClinicAccount, type ClinicCopy } from './copy-file.ts';
import { mergeClinic } from './merge.ts';
import type { RecordedHere } from './recorded-here.ts';
import { readAllPages } from '../service/index.ts';
import { Refusal } from '../platform/index.ts';

const TEMPLATE_PAGES = 5;
const EXPORT_TYPES = { txt: 'text/plain; charset=utf-8', rtf: 'application/rtf', pdf: 'application/pdf' } as const;

export interface ClinicConsultsOptions {
  dataDir: string;
  session: Session;
  client: ServiceClient;
  serviceKey: () => string;
  /** The service's ids of this computer's consults: they are listed as this computer's, never again. */
  localIds: () => { recordingSessionIds: ReadonlySet<string>; scribeIds: ReadonlySet<string> };
  log: (line: string) => void;
  /** The signed-in account's list changed (a refresh ended, a note was kept). */
  changed: (view: ClinicView) => void;
  /** What this computer recorded (the pipeline notes each recording session asked for here in it too). */
  here: RecordedHere;
  /**
   * Each scribe's recording session as the clinic relay names it (asked with the account's own
   * sign-in): a note of another room is put under its patient. Absent or out of reach: none.
   */
  relayLinks?: (account: ClinicAccount) => Promise<ReadonlyMap<string, string>>;
  /**
   * The last edit the clinic relay announced of a note, by the PC it was made on; asked only
   * for a note in the account's own list, so an announcement of any other is never shown.
   */
  editedElsewhere?: (account: ClinicAccount, scribeId: string) => Promise<EditedElsewhere | null>;
}

function sameAccount(a: ClinicAccount, b: ClinicAccount | null): boolean {
  return b !== null && a.userId === b.userId && a.organizationId === b.organizationId && a.service === b.service;
}

/** The note as text, as a consult of this computer keeps it: the categories, else the RTF, else the plain note. */
function noteText(record: ScribeRecord): string {
  const fromCategories = record.categories?.length ? sectionsFromCategories(record.categories) : [];
  if (fromCategories.length > 0) return sectionsToText(fromCategories);
  const fromRtf = record.rtf?.trim() ? rtfToSections(record.rtf) : [];
  if (fromRtf.length > 0) return sectionsToText(fromRtf);
  return record.note ?? '';
}

export class ClinicConsults {
  private readonly options: ClinicConsultsOptions;
  private readonly files: ClinicCopyFiles;
  /** Copies read or written in this run, by account key; null = read, none on disk. */
  private readonly copies = new Map<string, ClinicCopy | null>();
  private readonly errors = new Map<string, string>();
  private readonly refreshing = new Map<string, Promise<ClinicView>>();
  /** Each account's writes one after another, so a note kept and a refresh never undo each other. */
  private readonly writes = new Map<string, Promise<unknown>>();
  /** Each account's refresh for notes the relay named: the notes it is still to list. */
  private readonly heardWhileReading = new Map<string, Set<string>>();

  /** What this computer recorded, as the service knows it (recorded-here.ts): never listed as from elsewhere. */
  readonly here: RecordedHere;

  constructor(options: ClinicConsultsOptions) {
    this.options = options;
    this.files = new ClinicCopyFiles(join(options.dataDir, 'clinic'));
    this.here = options.here;
  }

  /** A consult of this computer got its ids from the service: they are never listed as from elsewhere. */
  recordedHere(ids: { recordingSessionIds: ReadonlySet<string>; scribeIds: ReadonlySet<string> }): Promise<void> {
    return this.here.add(ids);
  }

  private local() {
    return this.here.withLocal(this.options.localIds());
  }

  /** The signed-in account, or null when no one is signed in. */
  account(): ClinicAccount | null {
    const user = this.options.session.state().user;
    if (!this.options.session.state().signedIn || !user) return null;
    return { userId: user.id, organizationId: user.organizationId, service: this.options.serviceKey() };
  }

  private key(account: ClinicAccount): string {
    return `${account.service}\u0000${account.organizationId}\u0000${account.userId}`;
  }

  private async copy(account: ClinicAccount): Promise<ClinicCopy | null> {
    await this.here.load();
    const key = this.key(account);
    if (!this.copies.has(key)) this.copies.set(key, await this.files.read(account));
    return this.copies.get(key) ?? null;
  }

  private async save(copy: ClinicCopy): Promise<void> {
    const key = this.key(copy.account);
    this.copies.set(key, copy);
    const write = (this.writes.get(key) ?? Promise.resolve()).catch(() => undefined).then(() => this.files.write(copy));
    this.writes.set(key, write);
    await write;
  }

  private viewOf(account: ClinicAccount, copy: ClinicCopy | null): ClinicView {
    const error = this.errors.get(this.key(account)) ?? null;
    if (!copy) return { consults: [], refreshedAt: null, error, truncated: false };
    const consults = mergeClinic({
      scribes: copy.scribes,
      recordingSessions: copy.recordingSessions,
      local: this.local(),
      templateNames: new Map(Object.entries(copy.templateNames)),
      linked: new Map(Object.entries(copy.linked)),
      keptNotes: new Set(Object.keys(copy.notes)),
      noteWords: new Map(Object.entries(copy.notes).map(([id, n]) => [id, n.words ?? searchableWords(n.note)])),
    });
    return { consults, refreshedAt: copy.refreshedAt, error, truncated: copy.truncated };
  }

  /** The signed-in account's clinic consults as last read (from disk when offline); empty when signed out. */
  async view(): Promise<ClinicView> {
    const account = this.account();
    if (!account) return { consults: [], refreshedAt: null, error: null, truncated: false };
    return this.viewOf(account, await this.copy(account));
  }

  /**
   * Reads both lists again for the account that asked (`account`: the actor's, fixed when the
   * vet asked; else the one signed in); a second call for the same account while one runs joins
   * it. The list answered is that account's, and only while it is still the one signed in: a
   * refresh that ends after a switch of user keeps its copy for its own vet and answers
   * SessionChangedError, never one clinic's list to another's vet.
   */
  async refresh(account: ClinicAccount | null = this.account()): Promise<ClinicView> {
    if (!account) return this.view();
    const key = this.key(account);
    let run = this.refreshing.get(key);
    if (!run) {
      run = this.doRefresh(account).finally(() => this.refreshing.delete(key));
      this.refreshing.set(key, run);
    }
    const view = await run;
    if (!sameAccount(account, this.account())) throw new SessionChangedError();
    return view;
  }

  private async doRefresh(account: ClinicAccount): Promise<ClinicView> {
    const { session, client } = this.options;
    const as = { as: account.userId };
    const key = this.key(account);
    try {
      const scribes = await readAllPages((page, limit) =>
        session.withToken((t) => client.scribeList(t, page, limit), as),
      );
      const recordingSessions = await readAllPages((page, limit) =>
        session.withToken((t) => client.recordingSessionList(t, page, limit), as),
      );
      const before = await this.copy(account);
      const templateNames = { ...(before?.templateNames ?? {}) };
      try {
        for (let page = 1; page <= TEMPLATE_PAGES; page++) {
          const answer = await session.withToken((t) => client.templates(t, page, 50), as);
          for (const t of answer.items) templateNames[t.id] = t.name;
          if (!(answer.hasNext ?? answer.items.length === 50)) break;
        }
      } catch (e) {
        // Without the names, notes are listed by date alone; the list itself is still right.
        this.options.log(`clinic: templates not read: ${(e as Error).message}`);
      }
      const ids = new Set(scribes.items.map((s) => s.id));
      const notes = Object.fromEntries(Object.entries(before?.notes ?? {}).filter(([id]) => ids.has(id)));
      const linked = Object.fromEntries(Object.entries(before?.linked ?? {}).filter(([id]) => ids.has(id)));
      // The relay names what the lists do not: which recording session each scribe was asked for.
      const fromRelay = (await this.options.relayLinks?.(account).catch(() => null)) ?? new Map<string, string>();
      for (const [scribeId, recordingSessionId] of fromRelay)
        if (ids.has(scribeId)) linked[scribeId] = recordingSessionId;
      const copy: ClinicCopy = {
        version: 1,
        account,
        refreshedAt: new Date().toISOString(),
        truncated: scribes.truncated || recordingSessions.truncated,
        scribes: scribes.items,
        recordingSessions: recordingSessions.items,
        templateNames,
        linked,
        notes,
      };
      await this.here
        .adoptAsked(account, recordingSessions.items, this.options.localIds())
        .catch((e: unknown) =>
          this.options.log(`clinic: recording sessions asked for here could not be noted: ${(e as Error).message}`),
        );
      // A pair the relay named while the lists were read (heardLink) is kept, not undone.
      for (const [scribeId, recordingSessionId] of Object.entries(this.copies.get(key)?.linked ?? {}))
        if (ids.has(scribeId)) copy.linked[scribeId] ??= recordingSessionId;
      // Another vet signed in meanwhile: the copy is still this account's, written under its name only.
      await this.save(copy);
      this.errors.delete(key);
    } catch (e) {
      const reason = (e as Error).message.replace(/\.$/, '');
      this.errors.set(key, `Could not refresh the clinic's consults: ${reason}.`);
      this.options.log(`clinic: refresh failed: ${reason}`);
    }
    const view = this.viewOf(account, await this.copy(account));
    if (sameAccount(account, this.account())) this.options.changed(view);
    return view;
  }

  /**
   * The clinic relay named the recording session of a scribe of `organizationId`, as it was
   * heard: the signed-in account's list puts that note under its visit now, and the window is
   * told (`changed`). A note the copy lists already is linked without asking the service; a
   * note or visit the copy has not seen yet is read with a refresh once it is written (or
   * failed), the relay's pairs with it. A list never read here is left to its first read (which
   * takes the relay's pairs too), a consult of this computer stays this computer's, and another
   * organization's link is not this list's.
   */
  async heardLink(link: {
    scribeId: string;
    recordingSessionId: string;
    status: string;
    organizationId: string;
  }): Promise<void> {
    const account = this.account();
    if (!account || account.organizationId !== link.organizationId) return;
    const local = this.local();
    if (local.scribeIds.has(link.scribeId) || local.recordingSessionIds.has(link.recordingSessionId)) return;
    const copy = await this.copy(account);
    if (!copy) return;
    const scribe = copy.scribes.find((s) => s.id === link.scribeId);
    if (scribe && copy.recordingSessions.some((r) => r.id === link.recordingSessionId)) {
      if (copy.linked[link.scribeId] === link.recordingSessionId && scribe.status === link.status) return;
      await this.save({
        ...copy,
        scribes: copy.scribes.map((s) => (s.id === link.scribeId ? { ...s, status: link.status } : s)),
        linked: { ...copy.linked, [link.scribeId]: link.recordingSessionId },
      });
      if (sameAccount(account, this.account())) this.options.changed(this.viewOf(account, await this.copy(account)));
      return;
    }
    // Read at the end only: the earlier events of a consult would each cost a refresh for a
    // note not written yet.
    const kind = scribeStatusKind(link.status);
    if (kind === 'completed' || kind === 'failed') this.refreshSoon(account, link.scribeId);
  }

  /**
   * A refresh of `account` for the notes the relay named: one at a time, the notes heard while
   * it runs read by the next, so a burst of notes from other rooms costs a read or two of the
   * lists, not one each. A note still not listed after a read (one that joined a read begun
   * before the note was written) is read for again, three reads at most: a note the service does
   * not list stays unlisted. It stops when another vet signs in.
   */
  private refreshSoon(account: ClinicAccount, scribeId: string): void {
    const key = this.key(account);
    const waiting = this.heardWhileReading.get(key);
    if (waiting) {
      waiting.add(scribeId);
      return;
    }
    const wanted = new Set([scribeId]);
    this.heardWhileReading.set(key, wanted);
    void (async () => {
      try {
        for (let read = 0; read < 3 && wanted.size > 0 && sameAccount(account, this.account()); read++) {
          await this.refresh(account).catch(() => undefined);
          const listed = new Set((await this.copy(account))?.scribes.map((s) => s.id));
          for (const id of wanted) if (listed.has(id)) wanted.delete(id);
        }
      } finally {
        this.heardWhileReading.delete(key);
      }
    })();
  }

  /**
   * A note from the service, read once with GET /scribe/get/{id} and then kept with the copy of
   * `account` (the asking vet's; else the one signed in).
   */
  async note(key: string, account: ClinicAccount | null = this.account()): Promise<ClinicNote> {
    if (!account) throw new Refusal('not_found', 'Sign in to read the clinic’s consults.');
    const consult = findClinicConsult(this.viewOf(account, await this.copy(account)).consults, key);
    if (!consult) throw new Refusal('not_found', 'That consult is not in the clinic’s list. Refresh the list.');
    if (consult.scribeId === null) throw new Refusal('not_found', 'The service has no note linked to this consult.');
    const scribeId = consult.scribeId;
    let copy = await this.copy(account);
    let kept = copy?.notes[scribeId];
    if (!kept) {
      const { record, recordingSessionId } = await this.options.session.withToken(
        (t) => this.options.client.getScribeWithRecordingSession(t, scribeId),
        { as: account.userId },
      );
      if (scribeStatusKind(record.status) !== 'completed')
        throw new Refusal('not_found', 'The service has not finished this note yet. Try again later.');
      const text = noteText(record);
      kept = { note: text, rtf: record.rtf ?? null, readAt: new Date().toISOString(), words: searchableWords(text) };
      copy = await this.copy(account);
      if (copy) {
        const linked = recordingSessionId === null ? copy.linked : { ...copy.linked, [scribeId]: recordingSessionId };
        await this.save({ ...copy, notes: { ...copy.notes, [scribeId]: kept }, linked });
        if (sameAccount(account, this.account())) this.options.changed(this.viewOf(account, await this.copy(account)));
      }
    }
    const shown = findClinicNote(this.viewOf(account, await this.copy(account)).consults, scribeId);
    return {
      key: shown?.key ?? key,
      note: kept.note,
      rtf: kept.rtf,
      patientName: shown?.patientName ?? null,
      recordingSessionDate: localDate(shown?.updatedAt ?? consult.updatedAt),
      templateName: shown?.templateName ?? null,
      editedElsewhere: (await this.options.editedElsewhere?.(account, scribeId).catch(() => null)) ?? null,
    };
  }

  /**
   * What a conversation about note `key` needs: the account signed in, whose list has it, and
   * its note on the service. Refused in one sentence otherwise (signed out, not this account's,
   * or a visit with no note linked).
   */
  async chatTarget(
    key: string,
    account: ClinicAccount | null = this.account(),
  ): Promise<{ account: ClinicAccount; scribeId: string }> {
    if (!account) throw new Refusal('not_found', 'Sign in to read the clinic’s consults.');
    const consult = findClinicConsult(this.viewOf(account, await this.copy(account)).consults, key);
    if (!consult) throw new Refusal('not_found', 'That consult is not in the clinic’s list. Refresh the list.');
    if (consult.scribeId === null) throw new Refusal('not_found', 'The service has no note linked to this consult.');
    return { account, scribeId: consult.scribeId };
  }

  private async parts(key: string) {
    const note = await this.note(key);
    const meta: NoteMeta = {
      patientName: note.patientName,
      date: note.recordingSessionDate,
      templateName: note.templateName,
    };
    // On top of the note, whose it is or that the service does not say: a note pasted into a
    // record never reads as the record's patient's without saying so.
    const titled: NoteMeta = { ...meta, patientName: meta.patientName ?? NOT_NAMED };
    return { sections: sectionsFromText(note.note), meta, titled };
  }

  /**
   * The note as text, HTML and RTF, for the clipboard. The RTF is made from the note's sections
   * rather than the service's own, which has no line saying whose note it is.
   */
  async formats(key: string): Promise<NoteFormats> {
    const { sections, meta, titled } = await this.parts(key);
    return {
      text: sectionsToPlainText(sections, titled),
      html: sectionsToHtml(sections, titled),
      rtf: sectionsToRtf(sections, titled),
      fileBase: noteFileBase(meta),
    };
  }

  async export(key: string, format: keyof typeof EXPORT_TYPES): Promise<NoteExport> {
    const { sections, titled } = await this.parts(key);
    const formats = await this.formats(key);
    const data =
      format === 'pdf'
        ? new Uint8Array(await notePdf(sections, titled))
        : new Uint8Array(new TextEncoder().encode(format === 'txt' ? formats.text : formats.rtf));
    return { fileName: `${formats.fileBase}.${format}`, mimeType: EXPORT_TYPES[format], data };
  }
}
