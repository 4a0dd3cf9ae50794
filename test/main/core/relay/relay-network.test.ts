// The clinic relay reached the way the app reaches the service: through the proxy this computer
// is set to use (a real HTTP proxy here, TooTallNate's `proxy`), both GET /events and GET /links.
// A proxy that refuses leaves the relay "not reachable" (polling as usual), never reached around
// it, and says so as the proxy's refusal; a proxy that cannot be reached is named too.
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy, type ProxyServer } from 'proxy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../../src/webhook-receiver/receiver.ts';
import { call } from '../../../support/http.ts';
import { startCoreAgainst, until } from '../../../support/core.ts';
import { refresh } from '../clinic/support.ts';
import { closedAfterEach } from '../support.ts';

const SECRET = 'the-clinics-webhook-secret';
let sandbox: Sandbox;
let relay: WebhookReceiver;
let proxy: ProxyServer;
let proxyPort = 0;
/** What the proxy carried: each request forwarded, as its full address. */
const carried: string[] = [];
let refusing = false;
const atEnd = closedAfterEach();

beforeAll(async () => {
  sandbox = await startSandbox({ scribeSeconds: 1, rateLimitPerMinute: 0 });
  const signIn = await call<{ user: { organization_id: string } }>('POST', `${sandbox.urls.agents_url}/auth/sign-in`, {
    body: sandbox.demo,
  });
  relay = await startWebhookReceiver({
    port: 0,
    secret: SECRET,
    out: () => undefined,
    relay: { scribeUrl: sandbox.urls.scribe_url, organization: signIn.json.user.organization_id, heartbeatMs: 200 },
  });
  proxy = createProxy(createHttpServer());
  proxy.authenticate = () => !refusing;
  proxy.on('request', (req: { url?: string }) => {
    if (!refusing && req.url) carried.push(req.url);
  });
  proxy.on('connect', (req: { url?: string }) => {
    if (!refusing && req.url) carried.push(`CONNECT ${req.url}`);
  });
  proxyPort = await new Promise<number>((resolve) =>
    (proxy as Server).listen(0, '127.0.0.1', () => resolve(((proxy as Server).address() as AddressInfo).port)),
  );
}, 30_000);
afterAll(async () => {
  await relay?.close();
  await sandbox?.close();
  await new Promise<void>((resolve) => {
    (proxy as Server | undefined)?.closeAllConnections();
    if (proxy) proxy.close(() => resolve());
    else resolve();
  });
});

/** A PC whose proxy settings send the relay's address (only) through the proxy. */
async function pc(): Promise<AppCore> {
  const core: AppCore = await startCoreAgainst(sandbox, {
    relay: { heartbeatMs: 200, backoff: { baseMs: 50, capMs: 300 } },
    network: {
      resolveProxy: (url) => Promise.resolve(url.startsWith(relay.url) ? `PROXY 127.0.0.1:${proxyPort}` : 'DIRECT'),
    },
  });
  atEnd(() => core.stop());
  await core.appSettings.update({ relayUrl: relay.url });
  await core.session.signIn(sandbox.demo.email, sandbox.demo.password);
  return core;
}

describe('the clinic relay behind the clinic proxy', () => {
  it('names the proxy when it cannot be reached', async () => {
    // A port nothing listens on: a server opened and closed.
    const gone = createHttpServer();
    const port = await new Promise<number>((resolve) =>
      gone.listen(0, '127.0.0.1', () => resolve((gone.address() as AddressInfo).port)),
    );
    await new Promise((resolve) => gone.close(resolve));
    const core: AppCore = await startCoreAgainst(sandbox, {
      relay: { heartbeatMs: 200, backoff: { baseMs: 50, capMs: 300 } },
      network: {
        resolveProxy: (url) => Promise.resolve(url.startsWith(relay.url) ? `PROXY 127.0.0.1:${port}` : 'DIRECT'),
      },
    });
    atEnd(() => core.stop());
    await core.appSettings.update({ relayUrl: relay.url });
    await core.session.signIn(sandbox.demo.email, sandbox.demo.password);
    await until(() => core.relay.status().state === 'unreachable', 10_000);
    expect(core.relay.status()).toMatchObject({
      message: expect.stringMatching(new RegExp(`127\\.0\\.0\\.1:${port}.*(could not be reached|connection refused)`)),
    });
  });

  it('subscribes to GET /events and reads GET /links through the proxy the computer names', async () => {
    const core = await pc();
    await until(() => core.relay.status().state === 'connected', 10_000);
    const relayHost = new URL(relay.url).host;
    expect(carried.some((url) => url.startsWith(`http://${relayHost}/events`))).toBe(true);
    // A refresh of the clinic's list reads the relay's pairs.
    await refresh(createHandlers(core));
    expect(carried.some((url) => url.startsWith(`http://${relayHost}/links?since=`))).toBe(true);
    // The service's calls were not sent that way: the settings name the relay only.
    expect(carried.every((url) => url.includes(relayHost))).toBe(true);
  });

  it('is not reachable, and not reached around the proxy, while the proxy refuses', async () => {
    refusing = true;
    try {
      const core = await pc();
      await until(() => core.relay.status().state === 'unreachable', 10_000);
      // Said as the proxy's refusal, with what to ask IT.
      const words = `The clinic's proxy (127.0.0.1:${proxyPort}) asks for a sign-in (407)`;
      expect(core.relay.status()).toMatchObject({ state: 'unreachable', message: expect.stringContaining(words) });
      const userId = core.session.state().user!.id;
      await expect(core.relay.links(userId, 0)).rejects.toThrow(words);
    } finally {
      refusing = false;
    }
  });
});
