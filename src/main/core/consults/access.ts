// The consults as the account signed in may have them, through the gate (consult-gate.ts):
// whole, as an offer to claim, or not at all. Every answer naming a consult is made here.
import type { ConsultInfo } from '../../../shared/ipc.ts';
import type { Actor } from '../sign-in/index.ts';
import type { ConsultAccess, ConsultGate, OwnerRefusals } from './gate.ts';
import type { ConsultCache } from './cache.ts';
import { consultStage } from './stage.ts';
import { Refusal } from '../platform/index.ts';

export const NOT_THEIRS = 'That consult is not on this computer, or it belongs to another clinic’s account.';

/**
 * A consult as the window gets it: one it may only claim says so, and one the vet may see but
 * not delete, send, change, retry or ask again for (a colleague's) says why
 * (`ConsultGate.refusals`).
 */
export function withAccess(c: ConsultInfo, access: ConsultAccess, refusals: OwnerRefusals = {}): ConsultInfo {
  if (access === 'claim') return { ...c, claimable: true, stage: consultStage(c.recording, c.job, true) };
  return Object.keys(refusals).length === 0 ? c : { ...c, ...refusals };
}

export class ConsultAccessView {
  private readonly cache: ConsultCache;
  private readonly gate: ConsultGate;
  private readonly audioPath: (id: string) => string;

  constructor(cache: ConsultCache, gate: ConsultGate, audioPath: (id: string) => string) {
    this.cache = cache;
    this.gate = gate;
    this.audioPath = audioPath;
  }

  /**
   * The consult as the account signed in (or `actor`) may have it: whole, or as an offer to claim it (a
   * consult recorded with no one signed in). Throws not_found for one that is not theirs.
   */
  consultFor(id: string, actor?: Actor | null): ConsultInfo {
    const c = this.cache.consult(id);
    const access = this.gate.access(id, actor);
    if (!c || access === 'none') throw new Refusal('not_found', NOT_THEIRS);
    return withAccess(c, access, this.gate.refusals(id, actor));
  }

  /** The consults the account signed in may see and act on, and those it may claim (consults:list). */
  visible(): ConsultInfo[] {
    const shown: ConsultInfo[] = [];
    for (const c of this.cache.all()) {
      const access = this.gate.access(c.recording.id);
      if (access !== 'none') shown.push(withAccess(c, access, this.gate.refusals(c.recording.id)));
    }
    return shown;
  }

  /** The audio of a consult the account signed in may play (the audio protocol, the browser host's route); else null. */
  audioFor(id: string): { path: string; mimeType: string } | null {
    const c = this.cache.consult(id);
    if (!c || !this.gate.allows(id)) return null;
    return { path: this.audioPath(id), mimeType: c.recording.mimeType };
  }
}
