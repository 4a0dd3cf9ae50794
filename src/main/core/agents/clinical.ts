// The clinical agents (`POST /ddx_agent_v2`, `/treatment_plan_agent_v2`, `/medication_agent_v2`),
// the notification e-mail and the webhook switch for the window, with input checked before
// anything is sent.
import { hasSpecies } from '../../../shared/species.ts';
import { MIN_WEBHOOK_SECRET } from '../../../shared/limits.ts';
import type { TreatmentPlanAnswer } from '../../../shared/ipc.ts';
import type { ServiceClient } from '../service/index.ts';
import type { Actor, Actors } from '../sign-in/index.ts';
import type { Session } from '../sign-in/index.ts';
import { Refusal } from '../platform/index.ts';

export const NEEDS_SPECIES_MESSAGE =
  'No species found in the case details. Treatment plans need the species (for example dog or cat); add it, or send anyway.';

export const MEDICATION_NEEDS_SPECIES =
  'Name the species too (for example "meloxicam for a dog"): the service gives doses by species and refuses a question without one.';

export interface ClinicalOptions {
  /** Keeps the clinic's webhook secret in the secret store (never in settings or a log). */
  saveWebhookSecret?: (secret: string) => Promise<void>;
  /** The sign-in of the vet who asked (a call given an actor goes with theirs or not at all). */
  actors?: Pick<Actors, 'withToken'>;
}

export class Clinical {
  private readonly client: ServiceClient;
  private readonly session: Session;
  private readonly options: ClinicalOptions;
  constructor(client: ServiceClient, session: Session, options: ClinicalOptions = {}) {
    this.client = client;
    this.session = session;
    this.options = options;
  }

  /** A request with the sign-in of the vet who asked (`actor`), else with the one in front. */
  private withToken<T>(fn: (token: string) => Promise<T>, actor?: Actor): Promise<T> {
    const { actors } = this.options;
    return actor && actors ? actors.withToken(actor, fn) : this.session.withToken(fn);
  }

  ddx(input: string, actor?: Actor) {
    const text = input.trim();
    if (text === '') throw new Refusal('invalid_input', 'Type or paste a clinical history first.');
    return this.withToken((t) => this.client.ddx(t, text), actor);
  }

  async treatmentPlan(input: string, allowWithoutSpecies = false, actor?: Actor): Promise<TreatmentPlanAnswer> {
    const text = input.trim();
    if (text === '') throw new Refusal('invalid_input', 'Type or paste the case details first.');
    if (!allowWithoutSpecies && !hasSpecies(text)) return { kind: 'needs_species', message: NEEDS_SPECIES_MESSAGE };
    const result = await this.withToken((t) => this.client.treatmentPlan(t, text), actor);
    return { kind: 'result', result };
  }

  medication(input: string, actor?: Actor) {
    const text = input.trim();
    if (text === '')
      throw new Refusal('invalid_input', 'Type the drug and the species first (for example: meloxicam, dog).');
    if (!hasSpecies(text)) throw new Refusal('invalid_input', MEDICATION_NEEDS_SPECIES);
    return this.withToken((t) => this.client.medication(t, text), actor);
  }

  organization(actor?: Actor) {
    return this.withToken((t) => this.client.organization(t), actor);
  }

  /**
   * Registers the clinic's webhook endpoint. The secret goes to the service (whose client keeps
   * it out of every message) and, once the service has it, to the secret store.
   */
  async registerWebhook({ url, secret }: { url: string; secret: string }, actor?: Actor) {
    let address: URL;
    try {
      address = new URL(url.trim());
    } catch {
      throw new Refusal('invalid_input', 'The webhook address is not a web address; it starts with https://.');
    }
    if (address.protocol !== 'https:')
      throw new Refusal(
        'invalid_input',
        'The webhook address must start with https:// (the service sends notes to it).',
      );
    if (secret.length < MIN_WEBHOOK_SECRET)
      throw new Refusal('invalid_input', `The webhook secret must be at least ${MIN_WEBHOOK_SECRET} characters long.`);
    const answer = await this.withToken((t) => this.client.registerWebhook(t, { url: address.href, secret }), actor);
    await this.options.saveWebhookSecret?.(secret);
    return answer.webhook;
  }

  async setNotificationEmail(email: string, actor?: Actor) {
    return (await this.withToken((t) => this.client.updateNotificationEmail(t, email), actor)).organization;
  }

  async setScribeWebhook(active: boolean, actor?: Actor) {
    const organizationId = actor?.organizationId ?? this.session.state().user?.organizationId;
    if (!organizationId) throw new Refusal('invalid_input', 'Your organization is not known yet; sign in again.');
    return (
      await this.withToken(
        (t) => this.client.setWebhookStatus(t, { eventType: 'scribe', active, organizationId }),
        actor,
      )
    ).webhook;
  }
}
