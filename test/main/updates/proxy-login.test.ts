// An update feed reachable only through a proxy that asks for a password: electron-updater's own
// updater on a test app, through src/main/auto-update.ts, its requests made as Electron's net
// module makes them (support/updater.ts: the proxy's 407 becomes a 'login' event that waits for
// an answer) through a real HTTP proxy on loopback. The check must fail, in words, at once, and
// the next check must ask again rather than wait on the first.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DebUpdater } from 'electron-updater';
import { createProxy } from 'proxy';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AutoUpdate } from '../../../src/main/auto-update.ts';
import {
  ElectronNetThroughProxy,
  appFolder,
  latestYml,
  packagedConfig,
  startFeed,
  until,
  watchedAutoUpdate,
  type AuthInfo,
  type Feed,
} from '../../support/updater.ts';

const INSTALLER = Buffer.alloc(64 * 1024, 'vet-scribe-0.2.0');
const DEB = 'vet-scribe_0.2.0_amd64.deb';

let feed: Feed;
let proxy: Server & { authenticate?: (req: unknown) => boolean };
let proxyUrl: URL;
/** Whether the proxy lets a request through without a password. */
let open = false;
/** Requests the proxy answered, each with the Proxy-Authorization it carried. */
const seenByProxy: { url: string; authorization: string | null }[] = [];
const updates: AutoUpdate[] = [];

beforeAll(async () => {
  feed = await startFeed({ 'latest-linux.yml': () => latestYml(DEB, INSTALLER), [DEB]: () => INSTALLER });
  proxy = createProxy(createServer()) as typeof proxy;
  proxy.authenticate = (req) => {
    const r = req as { url?: string; headers: Record<string, string | undefined> };
    seenByProxy.push({ url: r.url ?? '', authorization: r.headers['proxy-authorization'] ?? null });
    return open;
  };
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve()));
  proxyUrl = new URL(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`);
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
  await feed.close();
});
afterEach(() => {
  for (const u of updates.splice(0)) u.dispose();
  seenByProxy.length = 0;
  open = false;
});

function behindTheProxy() {
  const { dir, app } = appFolder(packagedConfig());
  const updater = new DebUpdater(undefined, app);
  // What AppUpdater's constructor gives the executor in the app: each request's 'login',
  // re-emitted on the updater.
  const logins: AuthInfo[] = [];
  const executor = new ElectronNetThroughProxy(proxyUrl, (authInfo, callback) => {
    logins.push(authInfo);
    updater.emit('login', authInfo as never, callback as never);
  });
  (updater as unknown as { httpExecutor: ElectronNetThroughProxy }).httpExecutor = executor;
  updater.quitAndInstall = () => undefined;
  const { update, states, lines } = watchedAutoUpdate({
    updater: () => Promise.resolve(updater),
    configPath: join(dir, 'user-data', 'app-update.yml'),
    platform: 'linux',
  });
  updates.push(update);
  return { update, executor, logins, states, lines };
}

describe('an update feed behind a proxy that asks for a password', () => {
  it('the check fails at once, in words, without sending a password; the next check asks again', async () => {
    const p = behindTheProxy();
    await p.update.configure(feed.url);
    await until('the check to fail', () => p.update.state().phase === 'failed', 5_000);
    const where = `${proxyUrl.hostname}:${proxyUrl.port}`;
    expect(p.update.state()).toEqual({
      phase: 'failed',
      version: null,
      message: `The update feed is reached through a proxy (${where}) that asks for a password, which Vet Scribe does not give. The clinic's IT can let the feed through that proxy without one. The app goes on as it is.`,
    });
    expect(p.logins).toEqual([
      { isProxy: true, scheme: 'basic', host: proxyUrl.hostname, port: Number(proxyUrl.port), realm: 'proxy' },
    ]);
    expect(p.lines).toContain(`warn update: the proxy ${where} asks for a password (basic); the request is cancelled`);
    expect(p.lines.find((l) => l.startsWith('warn update: ignored'))).toMatch(/407/);
    // Nothing got past the proxy, and no password was sent.
    expect(seenByProxy.map((s) => s.authorization)).toEqual([null]);
    expect(feed.hits.filter((h) => h.includes('latest-linux.yml'))).toHaveLength(0);

    // The next check is a new request, not the first one still waiting.
    await p.update.check();
    await until('the second check to fail', () => p.states.filter((s) => s.phase === 'failed').length === 2, 5_000);
    expect(p.executor.requests.filter((r) => r.includes('latest-linux.yml'))).toHaveLength(2);
    expect(seenByProxy).toHaveLength(2);
  });

  it('through the same proxy letting the feed through, the update comes as usual', async () => {
    open = true;
    const p = behindTheProxy();
    await p.update.configure(feed.url);
    await until('the update to be ready', () => p.update.state().phase === 'ready', 10_000);
    expect(p.logins).toEqual([]);
    expect(seenByProxy.some((s) => s.url.endsWith(`/feed/${DEB}`))).toBe(true);
  });
});
