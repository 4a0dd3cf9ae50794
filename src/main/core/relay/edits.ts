// Edits of notes, through the clinic relay. The service's API cannot change a note, so a note
// edited here stays the service's original on every other PC; this computer announces the edit
// (which note, this computer's name, the vet who made it, when; never the text) with POST /edits,
// and keeps what the relay says of the other rooms' edits, so the clinic's note view can say
// "Edited on Exam room 1 by Dr … at 10:42".
//
// - An announcement goes once the vet has saved, and once per note for saves close together
//   (`debounceMs`): a vet saving three times in a minute is one line on the other PCs, the last.
// - It carries its actor, read when the vet saved: sent after a Switch user it still names the
//   vet who made the edit, with their sign-in while this computer keeps it, else with the sign-in
//   in front when it is of the same organization (the relay only serves one), never naming
//   whoever sits down meanwhile. Saved while no one could send it (the vet left and the next
//   has not signed in yet), it goes once the relay is heard again with the next sign-in.
// - What is heard is kept per relay address and organization, on disk beside the links
//   (links-file.ts), so a restarted computer still says it before the relay answers again. The
//   relay sends every edit it keeps at each subscription, so nothing is lost while this one was off.
import type { EditedElsewhere } from '../../../shared/clinic.ts';
import type { RelayEdit } from '../../../shared/relay-edits.ts';
import { actorName, SessionChangedError, SignedOutError, type Actor } from '../sign-in/index.ts';
import { MAX_KEPT_EDITS, type RelayLinksFiles } from './links-file.ts';

export interface RelayEditsOptions {
  files: RelayLinksFiles | null;
  /** POST /edits with the actor's sign-in (relay.ts). */
  send: (actor: Actor, edit: RelayEdit) => Promise<void>;
  /** This computer's name, as the other rooms are to read it; read at each save, so a new name counts from the next. */
  computerName: () => string;
  /** Saves of one note closer together than this are announced once. */
  debounceMs: number;
  log: (line: string) => void;
}

export class RelayEdits {
  private readonly options: RelayEditsOptions;
  /** The last edit heard of each note, oldest first, for the relay and organization at `of`. */
  private readonly heardOf = new Map<string, RelayEdit>();
  private of: string | null = null;
  private loaded: Promise<void> = Promise.resolve();
  private writing: Promise<void> = Promise.resolve();
  /** Each note's announcement waiting for its saves to settle. */
  private readonly waiting = new Map<string, { timer: NodeJS.Timeout; actor: Actor; at: string; room: string }>();
  /** Announcements no sign-in could send yet, each note's last. */
  private readonly unsent = new Map<string, { actor: Actor; edit: RelayEdit }>();

  constructor(options: RelayEditsOptions) {
    this.options = options;
  }

  /** The vet (`actor`) saved an edit of note `scribeId`: announced once the saves settle. */
  saved(actor: Actor, scribeId: string, at: Date = new Date()): void {
    clearTimeout(this.waiting.get(scribeId)?.timer);
    const timer = setTimeout(() => {
      const due = this.waiting.get(scribeId);
      this.waiting.delete(scribeId);
      if (!due) return;
      const edit: RelayEdit = {
        public_id: scribeId,
        room: due.room,
        editor: actorName(due.actor),
        edited_at: due.at,
      };
      this.unsent.delete(scribeId);
      this.send(due.actor, edit);
    }, this.options.debounceMs);
    timer.unref?.();
    this.waiting.set(scribeId, { timer, actor, at: at.toISOString(), room: this.options.computerName() });
  }

  /** The relay is heard again, with a sign-in: what none could send before goes now. */
  resend(): void {
    const all = [...this.unsent.values()];
    this.unsent.clear();
    for (const { actor, edit } of all) this.send(actor, edit);
  }

  private send(actor: Actor, edit: RelayEdit): void {
    this.options.send(actor, edit).catch((e: unknown) => {
      if (e instanceof SessionChangedError || e instanceof SignedOutError) {
        this.unsent.delete(edit.public_id);
        this.unsent.set(edit.public_id, { actor, edit });
        return;
      }
      this.options.log(`relay: an edit was not announced: ${(e as Error).message}`);
    });
  }

  /** An edit the relay passed on, of its organization's notes. */
  async heard(address: string, organization: string, edit: RelayEdit): Promise<void> {
    const key = this.editsFor(address, organization);
    await this.loaded;
    if (this.of !== key) return;
    const kept = this.heardOf.get(edit.public_id);
    if (kept && Date.parse(kept.edited_at) > Date.parse(edit.edited_at)) return;
    if (kept && JSON.stringify(kept) === JSON.stringify(edit)) return;
    this.heardOf.delete(edit.public_id);
    this.heardOf.set(edit.public_id, edit);
    if (this.heardOf.size > MAX_KEPT_EDITS) this.heardOf.delete(this.heardOf.keys().next().value as string);
    const files = this.options.files;
    if (!files) return;
    const all = [...this.heardOf.values()];
    // One write at a time, each of everything known then: the last one written holds it all.
    this.writing = this.writing
      .then(() => files.writeEdits(address, organization, all))
      .catch((e: unknown) => this.options.log(`relay: edits heard not kept: ${(e as Error).message}`));
    await this.writing;
  }

  /** The last edit heard of note `scribeId`, from the relay at `address` for `organization`; null when none. */
  async find(address: string, organization: string, scribeId: string): Promise<EditedElsewhere | null> {
    const key = this.editsFor(address, organization);
    await this.loaded;
    const edit = this.of === key ? this.heardOf.get(scribeId) : undefined;
    return edit ? { room: edit.room, by: edit.editor, at: edit.edited_at } : null;
  }

  /** Announcements not yet sent are dropped with the engine. */
  stop(): void {
    for (const { timer } of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
    this.unsent.clear();
  }

  private editsFor(address: string, organization: string): string {
    const key = `${address}\u0000${organization}`;
    if (this.of === key) return key;
    this.of = key;
    this.heardOf.clear();
    this.loaded = this.load(address, organization, key);
    return key;
  }

  private async load(address: string, organization: string, key: string): Promise<void> {
    const kept = await this.options.files?.readEdits(address, organization).catch((e: unknown) => {
      this.options.log(`relay: the edits kept could not be read (${(e as Error).message}); the relay sends them again`);
      return null;
    });
    if (!kept || this.of !== key) return;
    // Edits heard while the file was read are newer: they stay.
    for (const edit of kept) if (!this.heardOf.has(edit.public_id)) this.heardOf.set(edit.public_id, edit);
  }
}
