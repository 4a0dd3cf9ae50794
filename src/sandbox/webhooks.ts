// Webhook deliveries of `scribe` events, as docs/service.md ("Webhooks") describes them: three
// per scribe request (requested, scribing, scribed), a signed POST of the published payload
// (no event id, no timestamp; the last with the note as categories_output and html_output); any
// 4xx, 5xx or no answer is retried at most 5 times, after 1 min, 5 min, 15 min, 1 h and 2 h
// (multiplied by the time scale), then never again. Deliveries are part of the state, so a
// restart neither loses nor repeats one. The endpoint and secret are the ones the organization
// registered (PUT /webhook/update), else the sandbox's own options.
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { sectionsFromCategories, sectionsToHtml } from '../shared/note/index.ts';
import type { ScribeEventWire } from '../shared/service/wire.ts';
import { canonicalJsonFromValue, signWebhook, SIGNATURE_HEADER } from '../shared/webhook/index.ts';
import type { ScribeRecord, StateStore, WebhookRecord } from './state.ts';

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

  private endpoint(hook: WebhookRecord | undefined): { url: string; secret: string } | null {
    if (hook?.webhook_url && hook.auth_token) return { url: hook.webhook_url, secret: hook.auth_token };
    return this.options.url && this.options.secret ? { url: this.options.url, secret: this.options.secret } : null;
  }

  /** Queues a job's `scribe` event at one of its statuses, if the organization's webhook is on. */
  announce(scribe: ScribeRecord, status: string): void {
    const hook = this.store.state.webhooks.find(
      (w) => w.organization_public_id === scribe.organization_id && w.event_type === 'scribe',
    );
    if (!hook?.is_active || !this.endpoint(hook)) return;
    const payload: ScribeEventWire = {
      public_id: scribe.public_id,
      recording_session_public_id: scribe.recording_session_public_id,
      status: status as ScribeEventWire['status'],
      event_type: 'scribe',
      ...(status === 'scribed' && scribe.categories
        ? {
            categories_output: scribe.categories,
            html_output: sectionsToHtml(sectionsFromCategories(scribe.categories), { patientName: null, date: null }),
          }
        : {}),
    };
    this.store.state.deliveries.push({
      id: randomUUID(),
      event_id: `${scribe.public_id}:${status}`,
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
    const target = this.endpoint(this.store.state.webhooks.find((w) => w.public_id === delivery?.webhook_public_id));
    if (!delivery || !target) return;
    const { url, secret } = target;
    let status: number | null;
    try {
      const signature = await signWebhook(secret, delivery.body);
      const answer = await request(url, {
        method: 'POST',
        body: delivery.body,
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signature,
          'user-agent': 'vet-scribe-sandbox-webhooks',
        },
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
