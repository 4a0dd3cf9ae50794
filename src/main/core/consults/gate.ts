// The one access check between a consult and an account. Every way to a consult asks it: each
// IPC call that names one (ipc-handlers.ts runs it before the handler), the audio of the
// Electron protocol and of the browser host, the events sent to the window, search, export,
// retention and the pipeline's choice of whose sign-in sends a consult. It reads the owner
// from one place: the recording's meta, as the recording store last wrote it, the same place
// a claim writes. A rule written per path is a rule the next path forgets.
import type { ConsultInfo, ConsultOwner } from '../../../shared/ipc.ts';
import type { User } from '../../../shared/service/index.ts';
import { actorUser, type Actor } from '../sign-in/index.ts';
import type { RecordingMeta } from '../recordings/index.ts';
import type { OwnerAction } from '../platform/index.ts';

/**
 * What the account signed in may do with a consult:
 * - `full`: see it and act on it (a consult of its own clinic; signed out, one recorded signed
 *   out and never sent);
 * - `claim`: see that it exists and take it as theirs, nothing more (a consult recorded with no
 *   one signed in, or one this vet recorded under another service);
 * - `none`: it does not exist for them.
 */
export type ConsultAccess = 'full' | 'claim' | 'none';

export type { OwnerAction };

/** The fields of `ConsultInfo` that say what the vet in front may not do, and why. */
export type OwnerRefusals = Partial<
  Pick<ConsultInfo, 'deleteRefused' | 'sendRefused' | 'changeRefused' | 'retryRefused' | 'askAgainRefused'>
>;

const REFUSAL_FIELDS: readonly (readonly [keyof OwnerRefusals, OwnerAction])[] = [
  ['deleteRefused', 'delete'],
  ['sendRefused', 'send'],
  ['changeRefused', 'change'],
  ['retryRefused', 'retry'],
  ['askAgainRefused', 'askAgain'],
];

export interface GateSources {
  /** The recording's meta as last written or read (RecordingStore.peek); undefined when unknown. */
  meta(id: string): RecordingMeta | undefined;
  /** The user signed in now, or null. */
  user(): User | null;
  /** Which service accounts belong to now. */
  service(): string;
  /** Whether the consult's recording session exists at a service (it has been sent). */
  sent(id: string): boolean;
  /** The user a job file of an older version names as its sender, when the meta names no owner. */
  legacySender(id: string): string | null;
}

export class ConsultGate {
  private readonly sources: GateSources;

  constructor(sources: GateSources) {
    this.sources = sources;
  }

  /**
   * What `actor` may do with the consult (the vet a piece of work acts for, fixed when they
   * asked); without one, the account signed in now. `null` is no one signed in.
   */
  access(id: string, actor?: Actor | null): ConsultAccess {
    const meta = this.sources.meta(id);
    if (!meta) return 'none';
    const who = actor === undefined ? this.sources.user() : actor && actorUser(actor);
    const service = actor ? actor.service : this.sources.service();
    return accessTo(meta.owner, who, service, {
      sent: this.sources.sent(id),
      legacySender: this.sources.legacySender(id),
    });
  }

  /**
   * Whether a call may go on: `full` needs the consult to be the account's; `claim` needs it to
   * be offered to them; `recording` lets the audio of a recording still under way be kept
   * (chunks, pause, Stop) whoever is signed in now, since refusing it would lose the audio.
   */
  permits(id: string, need: 'full' | 'claim' | 'recording', actor?: Actor | null): boolean {
    if (need === 'recording') {
      const state = this.sources.meta(id)?.state;
      if (state === 'recording' || state === 'paused') return true;
      return this.access(id, actor) !== 'none';
    }
    return this.access(id, actor) === need;
  }

  /** Whether the account signed in (or `actor`) may see and act on the consult. */
  allows(id: string, actor?: Actor | null): boolean {
    return this.access(id, actor) === 'full';
  }

  /**
   * Colleagues of one clinic read and edit each other's sent notes, but a consult not yet sent,
   * and its deletion, belong to the vet who recorded it. The sentence that refuses the vet
   * signed in, or null when they may go on (their own consult, or one no account owns here).
   */
  ownerOnly(id: string, action: OwnerAction, actor?: Actor | null): string | null {
    const owner = this.sources.meta(id)?.owner;
    const user = actor === undefined ? this.sources.user() : actor && actorUser(actor);
    const service = actor ? actor.service : this.sources.service();
    if (!owner || !user || owner.service !== service || owner.userId === user.id) return null;
    if (action !== 'delete' && action !== 'file' && this.sources.sent(id)) return null;
    const who = owner.name.trim() || owner.email;
    if (action === 'file')
      return `Only ${who} can send this consult's note to the practice-management system, with their own sign-in there.`;
    if (action === 'askAgain') return `Only ${who} can ask again for this consult's note.`;
    return `Only ${who} can ${action} this consult.`;
  }

  /**
   * What the vet signed in (or `actor`) may not do with the consult, each with the sentence a
   * click would be refused with, so the window says it in place of the button.
   */
  refusals(id: string, actor?: Actor | null): OwnerRefusals {
    const out: OwnerRefusals = {};
    for (const [field, action] of REFUSAL_FIELDS) {
      const why = this.ownerOnly(id, action, actor);
      if (why !== null) out[field] = why;
    }
    return out;
  }

  /**
   * The user whose sign-in alone may send the consult to the service now: its owner, when the
   * owner is an account of the service in use. Null for a consult no one has claimed here.
   */
  sender(id: string): string | null {
    return senderOf(this.sources.meta(id), this.sources.service());
  }
}

/** The user whose sign-in alone may send a consult of `meta` on `service`: its owner there, or no one. */
export function senderOf(meta: Pick<RecordingMeta, 'owner'> | undefined, service: string): string | null {
  const owner = meta?.owner;
  return owner && owner.service === service ? owner.userId : null;
}

/** The rule itself, a pure function of the owner written on disk and the account signed in. */
export function accessTo(
  owner: ConsultOwner | null,
  user: User | null,
  service: string,
  { sent, legacySender }: { sent: boolean; legacySender: string | null },
): ConsultAccess {
  if (owner && owner.service === service)
    return user !== null && user.organizationId === owner.organizationId ? 'full' : 'none';
  if (owner) {
    // An owner of another service is no account here; the same vet, known by e-mail, may take
    // it on this one. Nobody else learns it exists.
    const email = owner.email.trim().toLowerCase();
    return user !== null && email !== '' && user.email.trim().toLowerCase() === email ? 'claim' : 'none';
  }
  // No owner written: recorded with no one signed in, or its meta rebuilt from the audio after
  // a crash. Signed out, the person at the computer may play it back and keep it, as long as it
  // never reached a service (then it was someone's). Signed in, any vet may take it; one an
  // older version of the app sent for a named vet, only that vet.
  if (user === null) return sent || legacySender !== null ? 'none' : 'full';
  if (legacySender !== null && legacySender !== user.id) return 'none';
  return 'claim';
}
