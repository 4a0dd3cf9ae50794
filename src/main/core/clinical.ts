// Rows 10-13 for the window: the agents, the notification e-mail and the webhook switch, with
// input checked before anything is sent.
import { hasSpecies } from '../../shared/species.ts';
import type { TreatmentPlanAnswer } from '../../shared/ipc.ts';
import type { ServiceClient } from './service-client.ts';
import type { Session } from './session.ts';

export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

export const NEEDS_SPECIES_MESSAGE =
  'No species found in the case details. Treatment plans need the species (for example dog or cat); add it, or send anyway.';

export class Clinical {
  private readonly client: ServiceClient;
  private readonly session: Session;
  constructor(client: ServiceClient, session: Session) {
    this.client = client;
    this.session = session;
  }

  ddx(input: string) {
    const text = input.trim();
    if (text === '') throw new InputError('Type or paste a clinical history first.');
    return this.session.withToken((t) => this.client.ddx(t, text));
  }

  async treatmentPlan(input: string, allowWithoutSpecies = false): Promise<TreatmentPlanAnswer> {
    const text = input.trim();
    if (text === '') throw new InputError('Type or paste the case details first.');
    if (!allowWithoutSpecies && !hasSpecies(text)) return { kind: 'needs_species', message: NEEDS_SPECIES_MESSAGE };
    const result = await this.session.withToken((t) => this.client.treatmentPlan(t, text));
    return { kind: 'result', result };
  }

  async setNotificationEmail(email: string) {
    return (await this.session.withToken((t) => this.client.updateNotificationEmail(t, email))).organization;
  }

  async setScribeWebhook(active: boolean) {
    const organizationId = this.session.state().user?.organizationId;
    if (!organizationId) throw new InputError('Your organization is not known yet; sign in again.');
    return (await this.session.withToken((t) => this.client.setWebhookStatus(t, { eventType: 'scribe', active, organizationId }))).webhook;
  }
}
