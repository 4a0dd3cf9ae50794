// A visit of several pets split into one consult per pet, and sent as Stop sends it. The split
// is journaled in the first pet's meta before it starts, in one atomic write: the other pets'
// names, in order, each with the id its consult will have. The pets are then made one by one,
// each marked made once its consult and its trail entry are on disk. A kill or a full disk
// half-way leaves a journal with pets not made yet: the next Stop or Send of the visit, or the
// next start of the engine, makes them (a pet made before is found under its id, never made
// twice) and sends the visit. No pet of a visit is sent while another is still to be made.
import type { Notice } from '../../../shared/ipc.ts';
import { actorUser } from '../sign-in/index.ts';
import { diskErrorCode, KeyedQueue, Refusal } from '../platform/index.ts';
import type { ConsultGate } from './gate.ts';
import type { Pipeline } from '../jobs/index.ts';
import type { Logger } from '../platform/index.ts';
import { type RecordingMeta, type RecordingStore, type VisitSplit } from '../recordings/index.ts';
import type { ConsultAccessView } from './access.ts';
import type { ConsultCache } from './cache.ts';
import type { ConsultOutbox } from './outbox.ts';
import { TrailError, type ConsultTrail } from './trail.ts';

const STOPPED_NOT_SENT =
  'The recording is kept but was not sent: its history could not be written to this computer’s disk; send it from Consults.';

/** What a visit's split needs of the engine (the consults' parts give it; see parts.ts). */
export interface VisitOptions {
  recordings: RecordingStore;
  cache: ConsultCache;
  access: ConsultAccessView;
  gate: ConsultGate;
  pipeline: Pipeline;
  trail: ConsultTrail;
  /** The window learns of each pet made through the outbox, as of every consult's change. */
  outbox: Pick<ConsultOutbox, 'changed'>;
  log: Logger;
  rememberTemplate: (templateId: string) => Promise<unknown>;
}

export class Visits {
  private readonly options: VisitOptions;
  /** One visit's split and sending at a time: two Stops, a Stop and a Send, or a start's recovery. */
  private readonly turns = new KeyedQueue();

  constructor(options: VisitOptions) {
    this.options = options;
  }

  /**
   * Stop's work once the recording is finished: the visit split (journaled first, or finished
   * when it was journaled before), then each consult of it that has its template and patient
   * sent. Throws, having sent nothing, when a pet could not be made.
   */
  async stop(id: string, names: readonly string[]): Promise<void> {
    await this.turns.run(id, async () => {
      const pets = await this.split(id, names);
      await this.sendAll(id, [id, ...pets]);
    });
  }

  /**
   * Send's part for a consult: when its visit's split is not finished (a kill or a full disk
   * cut it short, or the app never stopped the recording: `names` then start it), the visit's
   * pets are made first; then `send` sends the consult, and the rest of a visit split now is
   * sent as Stop would send it.
   */
  async send(id: string, names: readonly string[], send: () => Promise<void>): Promise<void> {
    const { recordings } = this.options;
    const meta = await recordings.get(id);
    // Another pet of a visit whose split is not finished: the visit's first pet holds the journal.
    const first = meta?.visitId && meta.visitId !== id ? await recordings.get(meta.visitId) : null;
    const visit = first?.split && !first.split.done ? first.id : id;
    await this.turns.run(visit, async () => {
      const pets = await this.split(visit, visit === id ? names : []);
      await send();
      // Only a visit finished now: sending one consult sends no other of a visit split before.
      await this.sendAll(visit, pets.length > 0 ? [visit, ...pets] : []);
    });
  }

  /**
   * At start: every visit whose split a kill or a full disk left unfinished is finished and
   * sent now. One that fails again is left for the next try and logged.
   */
  async resume(metas: readonly RecordingMeta[]): Promise<Notice[]> {
    const told: Notice[] = [];
    for (const meta of metas) {
      if (!meta.split || meta.split.done) continue;
      const pending = meta.split.pets.filter((p) => !p.made).map((p) => p.name || 'an unnamed pet');
      const visit = meta.patientName?.trim() || 'a patient';
      try {
        await this.stop(meta.id, []);
        // Said, not only logged: the vet who pressed Stop saw it cut short.
        told.push({
          level: 'info',
          message: pending.length
            ? `The visit of ${visit}, cut short when the app closed, was finished: ${listWords(pending)} ${pending.length === 1 ? 'is a consult of its own' : 'are consults of their own'} now.`
            : `The visit of ${visit}, cut short when the app closed, was finished and sent.`,
        });
      } catch (e) {
        this.options.log.warn(`visits: the visit of ${meta.id} could not be finished yet: ${(e as Error).message}`);
        told.push({ level: 'warning', message: (e as Error).message });
      }
    }
    return told;
  }

  /**
   * The visit's other pets, made: the ids of those made now or whose visit was not sent yet
   * (none for a recording of one pet, or a visit split and sent before).
   */
  private async split(id: string, names: readonly string[]): Promise<string[]> {
    const { recordings } = this.options;
    const meta = await recordings.get(id);
    if (!meta) throw new Refusal('not_found', 'That recording is not on this computer.');
    let split = meta.split;
    if (!split) {
      // A visit split before the journal (its visitId alone) added its pets then: nothing more.
      if (names.length === 0 || meta.visitId) return [];
      const ids = await recordings.petIds(id, names.length);
      split = { pets: names.map((name, n) => ({ id: ids[n] ?? '', name: name.trim(), made: false })), done: false };
      try {
        await recordings.update(id, { visitId: id, split });
      } catch (e) {
        throw notMade(meta, split, [], e, false);
      }
    }
    if (split.done) return [];
    const kept: string[] = [];
    for (const [n, pet] of split.pets.entries()) {
      if (pet.made) continue;
      try {
        await this.makePet(meta, pet.id, pet.name, kept);
        split = { ...split, pets: split.pets.map((p, at) => (at === n ? { ...p, made: true } : p)) };
        await recordings.update(id, { split });
      } catch (e) {
        throw notMade(meta, split, kept, e, true);
      }
    }
    return split.pets.map((p) => p.id);
  }

  /** One pet: its consult (found when made before), its trail's first entry, and the window told. */
  private async makePet(visit: RecordingMeta, id: string, name: string, kept: string[]): Promise<void> {
    const { recordings, trail } = this.options;
    const pet = await recordings.addPet(visit.id, { id, patientName: name || null, visitId: visit.id });
    kept.push(id);
    if (!(await trail.read(id)).some((entry) => entry.action === 'recorded')) {
      // Recorded by the vet who recorded the visit, whoever pressed Stop or Send.
      await trail.add(id, 'recorded', { who: pet.owner ? actorUser(pet.owner) : null });
    }
    // The window learns of it now, not only once it is sent: one waiting for its name is listed too.
    this.options.outbox.changed(id);
  }

  /**
   * Each of `ids` sent when it has its template and patient and was not sent yet; then the
   * visit's journal is done.
   */
  private async sendAll(visit: string, ids: readonly string[]): Promise<void> {
    const { pipeline, recordings } = this.options;
    for (const each of ids) if (!pipeline.info(each)) await sendIfReady(this.options, each);
    const split = (await recordings.get(visit))?.split;
    if (split && !split.done) await recordings.update(visit, { split: { ...split, done: true } });
  }
}

/** "Tom", "Tom and Jerry", "Tom, Jerry and Rex". */
function listWords(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * What the vet is told when the split stopped half-way: which consults are kept, which pets are
 * still to be made and when they will be, and that nothing of the visit was sent.
 */
function notMade(visit: RecordingMeta, split: VisitSplit, kept: readonly string[], e: unknown, journaled: boolean) {
  const code = diskErrorCode(e);
  const reason =
    code === 'disk_full'
      ? 'the disk is full (free some space on this computer)'
      : code === 'read_only'
        ? 'the app’s data folder cannot be written'
        : code === 'io'
          ? 'the disk could not be written'
          : (e as Error).message.replace(/\.$/, '');
  const made = split.pets.filter((p) => p.made || kept.includes(p.id));
  const missing = split.pets.filter((p) => !made.includes(p));
  const keptNames = [visit.patientName ?? 'The recording', ...made.map((p) => p.name || 'a pet not named yet')];
  const missingNames = missing.map((p) => p.name || 'a pet not named yet');
  const when = journaled
    ? 'when you press Stop or Send again, or at the next start'
    : 'when you press Stop again once the disk can be written';
  const message =
    missing.length === 0
      ? `${listed(keptNames)} ${verb(keptNames)} kept, but the visit could not be noted in full: ${reason}. That is finished ${when}; until then nothing of the visit is sent.`
      : `${listed(keptNames)} ${verb(keptNames)} kept; ${listed(missingNames)} could not be made yet: ${reason}. ${missing.length === 1 ? 'It' : 'They'} will be made ${when}; until then nothing of the visit is sent.`;
  return new Refusal(code ?? (e instanceof Refusal ? e.code : 'io'), message, { cause: e });
}

function verb(names: readonly string[]): string {
  return names.length === 1 ? 'was' : 'were';
}

/** "Bella", "Bella and Tom", "Bella, Tom and Jerry". */
function listed(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * With a template chosen before or during the consult, it goes to be scribed at once; without
 * the patient's name it waits for it (consults:update sends it then). The pipeline sends it
 * with its owner's sign-in only; one no one owns yet waits for a vet's claim.
 */
async function sendIfReady(options: VisitOptions, id: string): Promise<void> {
  const { cache, gate, pipeline } = options;
  const meta = cache.consult(id)?.recording;
  if (!meta?.templateId || !meta.patientName) return;
  // Noted once its job is on disk, before it starts. Not sent when it cannot be noted: the
  // recording is kept, and Send in Consults tries again.
  await pipeline.submit(id, meta.templateId, () =>
    // Sent with its owner's sign-in (the pipeline's rule), so on the trail as theirs.
    options.trail.add(id, 'sent', { who: meta.recordedBy ? actorUser(meta.recordedBy) : null }).catch((e: unknown) => {
      throw new TrailError((e as TrailError).code ?? 'io', e, STOPPED_NOT_SENT);
    }),
  );
  if (gate.allows(id)) await options.rememberTemplate(meta.templateId);
}
