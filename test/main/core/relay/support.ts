// The clinic relay itself (src/webhook-receiver, relay on) started in the test's process against a
// sandbox, and registered as the sandbox's webhook endpoint with PUT /webhook/update, so the
// sandbox's signed `scribe` deliveries reach it, as a clinic's administrator would set it up.
import { afterAll, beforeAll, expect } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../../src/sandbox/index.ts';
import {
  startWebhookReceiver,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from '../../../../src/webhook-receiver/receiver.ts';
import { startCoreAgainst, until } from '../../../support/core.ts';
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

/** A sandbox standing for the clinic's service, and its relay registered there. */
export async function clinicOnRelay(
  sandboxOptions: Partial<SandboxOptions>,
  options: { onEvent?: WebhookReceiverOptions['onEvent'] } = {},
): Promise<{ sandbox: Sandbox; relay: WebhookReceiver }> {
  const sandbox = await startSandbox({ rateLimitPerMinute: 0, ...sandboxOptions });
  try {
    return { sandbox, relay: await relayOf(sandbox, options) };
  } catch (e) {
    await sandbox.close();
    throw e;
  }
}

/** Closes the relay, which a test may have closed already, then the sandbox. */
export async function closeClinic(clinic: { sandbox?: Sandbox; relay?: WebhookReceiver }): Promise<void> {
  await clinic.relay?.close().catch(() => undefined);
  await clinic.sandbox?.close();
}

/**
 * The clinic on its relay for a file's tests: started before the first, closed after the last.
 * `sandbox` and `relay` are read once the tests run.
 */
export function clinicOnRelayForTheFile(sandboxOptions: Partial<SandboxOptions>): {
  readonly sandbox: Sandbox;
  readonly relay: WebhookReceiver;
} {
  let clinic: { sandbox: Sandbox; relay: WebhookReceiver } | undefined;
  beforeAll(async () => {
    clinic = await clinicOnRelay(sandboxOptions);
  }, 30_000);
  afterAll(() => closeClinic(clinic ?? {}));
  const started = () => {
    if (!clinic) throw new Error('the clinic is started before the first test');
    return clinic;
  };
  return {
    get sandbox() {
      return started().sandbox;
    },
    get relay() {
      return started().relay;
    },
  };
}

/**
 * An exam-room PC on the clinic relay: an engine of its own against the sandbox, quick to hear
 * the relay and to reconnect, with the polling's safety net a minute away, so a note it fetches
 * within seconds came on the relay's word. `vet` signs in; it is stopped after the test.
 */
export async function pcOnRelay(
  sandbox: Sandbox,
  relay: WebhookReceiver,
  vet: { email: string; password: string },
  atEnd: (close: () => Promise<unknown>) => void,
) {
  const core: AppCore = await startCoreAgainst(sandbox, {
    relay: { heartbeatMs: 200, backoff: { baseMs: 50, capMs: 300 } },
    pipeline: { relaySafetyNetMs: 60_000, pollDelay: () => 300 },
  });
  atEnd(() => core.stop());
  await core.appSettings.update({ relayUrl: relay.url });
  await core.session.signIn(vet.email, vet.password);
  await until(() => core.relay.status().state === 'connected', 10_000);
  return { core, h: createHandlers(core) };
}
