// The clinic's organization at the service, as Settings changes it: the organization itself
// (`GET /organizations/get`), its notification e-mail, its webhook endpoint and the webhook
// switch; each asked with the sign-in of the vet who asked.
import { MIN_WEBHOOK_SECRET } from '../../../shared/limits.ts';
import type { Actor } from '../sign-in/index.ts';
import { Refusal } from '../platform/index.ts';
import { AskedBy } from './agents.ts';

export class Organization extends AskedBy {
  get(actor?: Actor) {
    return this.asking((t) => this.client.organization(t), actor);
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
    const answer = await this.asking((t) => this.client.registerWebhook(t, { url: address.href, secret }), actor);
    await this.options.saveWebhookSecret?.(secret);
    return answer.webhook;
  }

  async setNotificationEmail(email: string, actor?: Actor) {
    return (await this.asking((t) => this.client.updateNotificationEmail(t, email), actor)).organization;
  }

  async setScribeWebhook(active: boolean, actor?: Actor) {
    const organizationId = actor?.organizationId ?? this.session.state().user?.organizationId;
    if (!organizationId) throw new Refusal('invalid_input', 'Your organization is not known yet; sign in again.');
    return (
      await this.asking((t) => this.client.setWebhookStatus(t, { eventType: 'scribe', active, organizationId }), actor)
    ).webhook;
  }
}
