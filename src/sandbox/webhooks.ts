// Webhook deliveries of `scribe` events, as SPEC section 6 and 8 describe: a signed POST;
// any 4xx, 5xx or no answer is retried at most 5 times, after 1 min, 5 min, 15 min, 1 h and
// 2 h (multiplied by the time scale), then never again. Deliveries are part of the state, so a
// restart neither loses nor repeats one.
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { canonicalJsonFromValue, signWebhook, SIGNATURE_HEADER } from '../shared/webhook/index.ts';
import type { ScribeRecord, StateStore } from './state.ts';

export const RETRY_DELAYS_SECONDS = [60, 300, 900, 3600, 7200] as const;
const DELIVERY_TIMEOUT_MS = 10_000;

export interface WebhookOptions {
  url: string | null;
  secret: string | null;
  timeScale: number;
}

export interface DeliveryAttempt {
  event_id: string;
  attempt: number;
  status: number | null;
  at: number;
}

export class WebhookSender {
  private readonly inFlight = new Set<string>();
  readonly attempts: DeliveryAttempt[] = [];

  private readonly store: StateStore;
  private readonly options: WebhookOptions;
  constructor(store: StateStore, options: WebhookOptions) {
    this.store = store;
    this.options = options;
  }

  /** Queues the `scribe` event of a finished job, if the organization's webhook is on. */
  announce(scribe: ScribeRecord, status: 'completed' | 'failed'): void {
    const hook = this.store.state.webhooks.find((w) => w.organization_public_id === scribe.organization_id && w.event_type === 'scribe');
    if (!hook?.is_active || !this.options.url || !this.options.secret) return;
    const payload = {
      event_id: randomUUID(),
      event_type: 'scribe',
      status,
      scribe_public_id: scribe.public_id,
      recording_session_public_id: scribe.recording_session_public_id,
      organization_public_id: scribe.organization_id,
      occurred_at: new Date(scribe.finish_at).toISOString(),
    };
    this.store.state.deliveries.push({
      id: randomUUID(),
      event_id: payload.event_id,
      webhook_public_id: hook.public_id,
      body: canonicalJsonFromValue(payload),
      attempt: 0,
      next_at: Date.now(),
      state: 'pending',
      last_status: null,
    });
  }

  /** Sends every delivery that is due; called by the sandbox's clock. */
  tick(now = Date.now()): void {
    for (const delivery of this.store.state.deliveries) {
      if (delivery.state !== 'pending' || delivery.next_at > now || this.inFlight.has(delivery.id)) continue;
      this.inFlight.add(delivery.id);
      void this.send(delivery.id).finally(() => this.inFlight.delete(delivery.id));
    }
  }

  private async send(id: string): Promise<void> {
    const delivery = this.store.state.deliveries.find((d) => d.id === id);
    const { url, secret } = this.options;
    if (!delivery || !url || !secret) return;
    let status: number | null;
    try {
      const signature = await signWebhook(secret, delivery.body);
      const answer = await request(url, {
        method: 'POST',
        body: delivery.body,
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature, 'user-agent': 'vet-scribe-sandbox-webhooks' },
        headersTimeout: DELIVERY_TIMEOUT_MS,
        bodyTimeout: DELIVERY_TIMEOUT_MS,
      });
      status = answer.statusCode;
      await answer.body.dump();
    } catch {
      status = null;
    }
    this.attempts.push({ event_id: delivery.event_id, attempt: delivery.attempt, status, at: Date.now() });
    delivery.last_status = status;
    if (status !== null && status >= 200 && status < 300) {
      delivery.state = 'delivered';
    } else if (delivery.attempt >= RETRY_DELAYS_SECONDS.length) {
      delivery.state = 'given_up';
    } else {
      const delay = RETRY_DELAYS_SECONDS[delivery.attempt] ?? 0;
      delivery.attempt += 1;
      delivery.next_at = Date.now() + delay * 1000 * this.options.timeScale;
    }
    this.store.save();
  }

  pending(): number {
    return this.store.state.deliveries.filter((d) => d.state === 'pending').length;
  }
}
