// What the vet does to a consult after recording it: its details, sending, retrying, asking
// again, further documents, claiming and deleting. Each answers the consult as the account
// signed in may have it.
import type { ConsultInfo, InvokeInput } from '../../../shared/ipc.ts';
import { actorUser, type Actor } from '../sign-in/index.ts';
import { PATIENT_NAME_REQUIRED } from '../jobs/index.ts';
import { NOT_THEIRS } from './access.ts';
import { toRecordingInfo } from './cache.ts';
import type { ConsultParts } from './parts.ts';
import { Refusal } from '../platform/index.ts';

const NAME_LOCKED = "The consult has been sent; the patient's name can no longer be changed.";
const DESCRIPTION_LOCKED = "The consult has been sent; the visit's description can no longer be changed.";

export type ConsultCommandsOptions = Pick<
  ConsultParts,
  | 'recordings'
  | 'cache'
  | 'access'
  | 'gate'
  | 'pipeline'
  | 'drafts'
  | 'answers'
  | 'outbox'
  | 'rememberTemplate'
  | 'trail'
  | 'conversations'
  | 'visits'
>;

export class ConsultCommands {
  private readonly options: ConsultCommandsOptions;

  constructor(options: ConsultCommandsOptions) {
    this.options = options;
  }

  /** The patient, visit, label, list name or template of a consult; every window is told. */
  async update(
    { id, label, patientName, description, templateId, listName }: InvokeInput<'consults:update'>,
    actor: Actor | null,
  ) {
    const { recordings, access, pipeline } = this.options;
    // The service was given the name and description with the recording session: changing
    // them here afterwards would leave the note written for another name.
    if (pipeline.sent(id)) {
      if (patientName !== undefined && patientName !== access.consultFor(id).recording.patientName)
        throw new Refusal('conflict', NAME_LOCKED);
      if (description !== undefined && (description || null) !== access.consultFor(id).recording.description)
        throw new Refusal('conflict', DESCRIPTION_LOCKED);
    }
    const meta = toRecordingInfo(
      await recordings.update(id, {
        ...(label !== undefined ? { label: label || null } : {}),
        ...(patientName !== undefined ? { patientName } : {}),
        ...(description !== undefined ? { description: description || null } : {}),
        ...(templateId !== undefined ? { templateId } : {}),
        ...(listName !== undefined ? { listName: listName || null } : {}),
      }),
    );
    const going = meta.state === 'recording' || meta.state === 'paused';
    if (going && (patientName !== undefined || description !== undefined)) pipeline.recordingNamed(id);
    if (patientName !== undefined && meta.patientName) {
      // A consult that waited for its patient's name goes on now.
      const job = pipeline.info(id);
      if (job) await pipeline.resumeWithPatientName(id);
      else if (meta.state === 'finished' && meta.templateId) {
        await pipeline.submit(id, meta.templateId, () =>
          this.options.trail.add(id, 'sent', { who: actor && actorUser(actor) }),
        );
      }
    }
    // Every window shows the new name, not only the one that asked.
    this.options.outbox.changed(id);
    return access.consultFor(id);
  }

  /** Sends a consult to be scribed with this template (a recovered recording is finished first). */
  async submit(id: string, templateId: string, actor: Actor | null): Promise<ConsultInfo> {
    const { recordings, pipeline } = this.options;
    const meta = await recordings.get(id);
    if (!meta) throw new Refusal('not_found', NOT_THEIRS);
    if (!meta.patientName?.trim() && !pipeline.info(id)) throw new Refusal('invalid_input', PATIENT_NAME_REQUIRED);
    if (meta.templateId !== templateId) await recordings.update(id, { templateId });
    if (meta.state === 'recovered') await recordings.finish(id);
    // A visit of several pets the app did not stop has its other pets made now, with this
    // template, as Stop would have made them; one whose pets a full disk or a kill left
    // unmade has them made first. None of the visit goes while a pet is still to be made.
    await this.options.visits.send(id, meta.state === 'recovered' ? (meta.pets ?? []) : [], async () => {
      await pipeline.submit(id, templateId, () =>
        this.options.trail.add(id, 'sent', { who: actor && actorUser(actor) }),
      );
      await this.options.rememberTemplate(templateId);
    });
    return this.options.access.consultFor(id);
  }

  /** Retry is the work of the vet who presses it: with their sign-in, on the trail as theirs. */
  async retry(id: string, actor: Actor): Promise<ConsultInfo> {
    await this.options.pipeline.retry(id, undefined, this.asked(id, actor));
    return this.options.access.consultFor(id, actor);
  }

  /**
   * Ask again, another document, a document asked for again: a new scribe request that is the
   * asking vet's work (a colleague may ask on a consult of their clinic). It goes with their
   * sign-in, and the trail notes it as theirs ('sent', with the document), before it is made.
   */
  async askAgain(id: string, actor: Actor): Promise<ConsultInfo> {
    await this.options.pipeline.askAgain(id, this.asked(id, actor));
    return this.options.access.consultFor(id, actor);
  }

  async addDocument(
    id: string,
    templateId: string,
    templateName: string | undefined,
    again: string | null,
    actor: Actor,
  ): Promise<ConsultInfo> {
    await this.options.pipeline.addDocument(id, templateId, templateName?.trim() || null, again, this.asked(id, actor));
    return this.options.access.consultFor(id, actor);
  }

  async retryDocument(id: string, documentId: string, actor: Actor): Promise<ConsultInfo> {
    await this.options.pipeline.retryDocument(id, documentId, this.asked(id, actor));
    return this.options.access.consultFor(id, actor);
  }

  private asked(id: string, actor: Actor) {
    const { trail } = this.options;
    return {
      actor,
      noted: async (documentId: string | null) => {
        await trail.add(id, 'sent', { documentId, who: actorUser(actor) });
      },
    };
  }

  /**
   * "Recorded while signed out: send it as Dr …?": the vet signed in takes the consult as
   * theirs. Written where the gate reads it; a job that waited for a claim goes on.
   */
  async claim(id: string, actor: Actor): Promise<ConsultInfo> {
    const { recordings, gate, pipeline } = this.options;
    if (gate.access(id, actor) !== 'claim') throw new Refusal('not_found', NOT_THEIRS);
    const meta = await recordings.claim(id, { ...actor });
    pipeline.ownerChanged(id);
    // A finished consult that has its template and patient goes at once, as it would have at Stop.
    if (!pipeline.info(id) && meta.state === 'finished' && meta.templateId && meta.patientName?.trim()) {
      await pipeline.submit(id, meta.templateId, () => this.options.trail.add(id, 'sent', { who: actorUser(actor) }));
    }
    this.options.outbox.changed(id);
    return this.options.access.consultFor(id, actor);
  }

  /**
   * Deletes a consult: in its turn (after another document being added, before anything asked
   * of it later), its jobs, its folder, its drafts (leftovers included), its kept answers and its conversation.
   */
  async delete(id: string, actor: Actor | null): Promise<{ deleted: true }> {
    const { drafts, answers, conversations } = this.options;
    // Noted first, where it outlives the consult's folder: a deletion no one can trace is refused.
    const patientName = this.options.cache.consult(id)?.recording.patientName ?? null;
    await this.options.trail.deleted(id, patientName, actor && actorUser(actor));
    await this.options.pipeline.delete(id, async () => {
      await Promise.all([drafts.removeConsult(id), answers.removeConsult(id), conversations.removeConsult(id)]);
    });
    return { deleted: true };
  }

  /**
   * At start: a delete a kill cut short after the consult's folder went (its line in the
   * deletions file is written first) is finished; its drafts, kept answers and conversation are
   * removed. A consult whose folder is still there was not deleted, and stays. Returns how many
   * deletions were finished.
   */
  async finishDeletes(): Promise<number> {
    const { trail, recordings, drafts, answers, conversations } = this.options;
    const deleted = await trail.deletedIds();
    if (deleted.size === 0) return 0;
    const left = new Set([
      ...(await drafts.consults()),
      ...(await answers.consults()),
      ...(await conversations.consults()),
    ]);
    const unfinished = [...left].filter((id) => deleted.has(id) && !recordings.peek(id));
    for (const id of unfinished)
      await Promise.all([drafts.removeConsult(id), answers.removeConsult(id), conversations.removeConsult(id)]);
    return unfinished.length;
  }
}
