// The clinic relay itself (src/webhook-receiver, relay on) started in the test's process against a
// sandbox, and registered as the sandbox's webhook endpoint with PUT /webhook/update, so the
// sandbox's signed `scribe` deliveries reach it, as a clinic's administrator would set it up.
import { expect } from 'vitest';
import type { Sandbox } from '../../../../src/sandbox/index.ts';
import {
  startWebhookReceiver,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from '../../../../src/webhook-receiver/receiver.ts';
import { call } from '../../../support/http.ts';

const SECRET = 'the-clinics-webhook-secret';

export async function relayOf(
  sandbox: Sandbox,
  options: { onEvent?: WebhookReceiverOptions['onEvent'] } = {},
): Promise<WebhookReceiver> {
  const signIn = await call<{ access_token: string; user: { organization_id: string } }>(
    'POST',
    `${sandbox.urls.agents_url}/auth/sign-in`,
    { body: sandbox.demo },
  );
  const relay = await startWebhookReceiver({
    port: 0,
    secret: SECRET,
    out: () => undefined,
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    relay: { scribeUrl: sandbox.urls.scribe_url, organization: signIn.json.user.organization_id, heartbeatMs: 200 },
  });
  const put = await call('PUT', `${sandbox.urls.scribe_url}/webhook/update`, {
    token: signIn.json.access_token,
    body: { event_type: 'scribe', webhook_url: relay.url, auth_token: SECRET },
  });
  expect(put.status).toBe(200);
  return relay;
}
