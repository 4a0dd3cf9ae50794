// The one way a consult's change reaches the window. Whatever changes a consult (a recording
// started, paused or stopped, a pet of a visit made, a rename, a claim, a job's progress) tells
// the outbox which consult; the outbox reads it as the window gets it and asks the gate once: the
// vet in front gets it whole, or as an offer to claim it, or not at all (another clinic's consult
// is none of their business, not even that it moved). No part emits `consult:changed` itself.
import type { JobInfo } from '../../../shared/jobs.ts';
import type { ConsultGate } from './gate.ts';
import type { Emit } from '../platform/index.ts';
import { withAccess } from './access.ts';
import { withRecording } from './cache.ts';
import type { RecordingStore } from '../recordings/index.ts';
import { consultInfo } from './stage.ts';

export interface ConsultOutboxOptions {
  /** Where a consult's recording is read: the store's one copy. */
  recordings: Pick<RecordingStore, 'peek' | 'get'>;
  gate: Pick<ConsultGate, 'access' | 'refusals'>;
  /** The consult's job as it is now, if it has one. */
  job: (id: string) => JobInfo | null;
  emit: Emit;
}

export class ConsultOutbox {
  private readonly options: ConsultOutboxOptions;

  constructor(options: ConsultOutboxOptions) {
    this.options = options;
  }

  /**
   * Consult `id` changed: the window is told, if the vet in front may see it. `job` is the job's
   * snapshot an event carried, for a job no longer kept (deleted since).
   */
  changed(id: string, job?: JobInfo): void {
    const { recordings, gate, emit } = this.options;
    withRecording(recordings, id, (recording) => {
      const access = gate.access(id);
      if (access === 'none') return;
      const consult = consultInfo(recording, this.options.job(id) ?? job ?? null);
      emit('consult:changed', withAccess(consult, access, gate.refusals(id)));
    });
  }
}
