// The clinical agents (`POST /ddx_agent_v2`, `/treatment_plan_agent_v2`, `/medication_agent_v2`)
// for the window, with input checked before anything is sent, each asked with the sign-in of the
// vet who asked.
import { hasSpecies } from '../../../shared/species.ts';
import type { TreatmentPlanAnswer } from '../../../shared/ipc.ts';
import type { ServiceClient } from '../service/index.ts';
import type { Actor, Actors, Session } from '../sign-in/index.ts';
import { Refusal } from '../platform/index.ts';

export const NEEDS_SPECIES_MESSAGE =
  'No species found in the case details. Treatment plans need the species (for example dog or cat); add it, or send anyway.';

export const MEDICATION_NEEDS_SPECIES =
  'Name the species too (for example "meloxicam for a dog"): the service gives doses by species and refuses a question without one.';

/** What the agents and the organization's calls are given. */
export interface AgentsOptions {
  /** Keeps the clinic's webhook secret in the secret store (never in settings or a log). */
  saveWebhookSecret?: (secret: string) => Promise<void>;
  /** The sign-in of the vet who asked (a call given an actor goes with theirs or not at all). */
  actors?: Pick<Actors, 'withToken'>;
}

/**
 * What the agents and the organization share: the client, and the sign-in each request goes
 * with: the one of the vet who asked (`actor`), else the one in front.
 */
export class AskedBy {
  protected readonly client: ServiceClient;
  protected readonly session: Session;
  protected readonly options: AgentsOptions;
  constructor(client: ServiceClient, session: Session, options: AgentsOptions = {}) {
    this.client = client;
    this.session = session;
    this.options = options;
  }

  protected asking<T>(fn: (token: string) => Promise<T>, actor?: Actor): Promise<T> {
    const { actors } = this.options;
    return actor && actors ? actors.withToken(actor, fn) : this.session.withToken(fn);
  }
}

export class Agents extends AskedBy {
  ddx(input: string, actor?: Actor) {
    const text = input.trim();
    if (text === '') throw new Refusal('invalid_input', 'Type or paste a clinical history first.');
    return this.asking((t) => this.client.ddx(t, text), actor);
  }

  async treatmentPlan(input: string, allowWithoutSpecies = false, actor?: Actor): Promise<TreatmentPlanAnswer> {
    const text = input.trim();
    if (text === '') throw new Refusal('invalid_input', 'Type or paste the case details first.');
    if (!allowWithoutSpecies && !hasSpecies(text)) return { kind: 'needs_species', message: NEEDS_SPECIES_MESSAGE };
    const result = await this.asking((t) => this.client.treatmentPlan(t, text), actor);
    return { kind: 'result', result };
  }

  medication(input: string, actor?: Actor) {
    const text = input.trim();
    if (text === '')
      throw new Refusal('invalid_input', 'Type the drug and the species first (for example: meloxicam, dog).');
    if (!hasSpecies(text)) throw new Refusal('invalid_input', MEDICATION_NEEDS_SPECIES);
    return this.asking((t) => this.client.medication(t, text), actor);
  }
}
