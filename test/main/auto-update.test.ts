// Updates from a clinic's generic feed, served by the test over real HTTP: electron-updater's
// own updater (the Linux .deb one) on a test app, through src/main/auto-update.ts, and the
// engine's rule that no restart happens while a consult is recorded or sent. What cannot run
// here: Electron's network stack (a Node HTTP client stands in, as electron-updater allows) and
// the installer itself (quitAndInstall is recorded, not run: it would install a .deb).
import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DebUpdater, type AppUpdater } from 'electron-updater';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AutoUpdate, type AutoUpdateOptions } from '../../src/main/auto-update.ts';
import type { AppCore } from '../../src/main/core/app-core.ts';
import { createHandlers } from '../../src/main/core/ipc-handlers.ts';
import type { UpdateInfo } from '../../src/shared/updates.ts';
import { firstTemplateId, makeRecording, startCore, tempDir } from '../support/core.ts';
import { latestYml, runHere, testApp, until, watchedAutoUpdate } from '../support/updater.ts';

const INSTALLER = Buffer.alloc(256 * 1024, 'vet-scribe-0.2.0');
const DEB = 'vet-scribe_0.2.0_amd64.deb';

/**
 * A generic feed: latest-linux.yml naming a .deb of 0.2.0, and the .deb (or other bytes). While
 * `silent`, it takes each request and never answers it.
 */
function startFeed(served: () => Buffer): Promise<{ server: Server; url: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (silent) {
      held.push(res);
      return;
    }
    if (req.url?.startsWith('/feed/latest-linux.yml')) {
      res.writeHead(200, { 'content-type': 'text/yaml' }).end(latestYml(DEB, INSTALLER));
      return;
    }
    if (req.url === `/feed/${DEB}`) {
      const body = served();
      res
        .writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) })
        .end(body);
      return;
    }
    res.writeHead(404).end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed/`, hits }),
    ),
  );
}

interface Rig {
  configPath: string;
  update: AutoUpdate;
  updater: AppUpdater;
  states: UpdateInfo[];
  lines: string[];
  installs: unknown[][];
}

function rig(options: Partial<AutoUpdateOptions> = {}): Rig {
  const dir = tempDir('vet-scribe-update-');
  const updater = new DebUpdater(undefined, testApp(dir));
  // Installing would run dpkg through pkexec: the call is recorded instead.
  const installs = runHere(updater);
  const configPath = join(dir, 'user-data', 'app-update.yml');
  const { update, states, lines } = watchedAutoUpdate({
    updater: () => Promise.resolve(updater),
    configPath,
    // The .deb updater's platform, wherever the suite runs.
    platform: 'linux',
    ...options,
  });
  return { configPath, update, updater, states, lines, installs };
}

let feed: Awaited<ReturnType<typeof startFeed>>;
let serve: Buffer = INSTALLER;
let silent = false;
const held: ServerResponse[] = [];
let core: AppCore | null = null;
let rigs: Rig[] = [];

beforeAll(async () => {
  feed = await startFeed(() => serve);
});
afterAll(async () => {
  await new Promise((r) => feed.server.close(r));
});
afterEach(async () => {
  for (const r of rigs) r.update.dispose();
  rigs = [];
  serve = INSTALLER;
  silent = false;
  for (const res of held.splice(0)) res.destroy();
  await core?.stop();
  core = null;
});

describe('updates from the clinic feed', () => {
  it('off without a feed: nothing is asked of the network', async () => {
    const r = rig();
    rigs.push(r);
    const before = feed.hits.length;
    await r.update.configure('');
    expect(r.update.state()).toEqual({
      phase: 'off',
      version: null,
      message: 'No update feed is set: the clinic installs new versions itself.',
    });
    expect(feed.hits.length).toBe(before);
  });

  it('a newer version is downloaded, checked, and waits: "Update ready: restart when free"; the engine refuses the restart while recording and allows it once free', async () => {
    const r = rig();
    rigs.push(r);
    core = await startCore({
      sandbox: { latencyMs: 1500 },
      updates: {
        info: () => r.update.state(),
        configure: (url) => void r.update.configure(url),
        restart: () => r.update.restart(),
      },
    });
    const h = createHandlers(core);
    await r.update.configure(feed.url);
    expect(readFileSync(r.configPath, 'utf8')).toContain(`url: "${feed.url}"`);
    expect(readFileSync(r.configPath, 'utf8')).not.toContain('publisherName');
    await until('the update to be ready', () => r.update.state().phase === 'ready');
    expect(r.states.map((s) => s.phase)).toEqual(['idle', 'checking', 'downloading', 'ready']);
    expect(await h['update:get'](undefined)).toEqual({
      ok: true,
      data: { phase: 'ready', version: '0.2.0', message: 'Update ready: restart when free.' },
    });
    expect(r.lines).toContain('info update: version 0.2.0 downloaded and checked; installed at the next restart');
    expect(feed.hits).toContain('/feed/vet-scribe_0.2.0_amd64.deb');

    // A consult being recorded: the restart is refused, in words; nothing is installed.
    const started = await h['recording:start']({ mimeType: 'audio/webm;codecs=opus', patientName: 'Bella' });
    if (!started.ok) throw new Error(started.error.message);
    expect(await h['update:restart'](undefined)).toEqual({
      ok: false,
      error: {
        code: 'busy',
        message:
          'A consult is being recorded: the update is installed once the recording has stopped and you restart, or when you quit.',
      },
    });
    await h['recording:stop']({ id: started.data.id, durationMs: 0 });
    // A consult on its way to the service (a slow one: 1.5 s a call) is under way too.
    const demo = core.appInfo().sandbox?.demo;
    if (!demo) throw new Error('no sandbox');
    await core.session.signIn(demo.email, demo.password);
    const id = await makeRecording(core);
    await core.pipeline.submit(id, await firstTemplateId(core));
    expect(await h['update:restart'](undefined)).toEqual({
      ok: false,
      error: {
        code: 'busy',
        message: 'A recording is being sent to the service: the update waits until it has gone, or until you quit.',
      },
    });
    expect(r.installs).toEqual([]);
    await until('the upload to be done', () => !core?.updates.busy().uploading, 30_000);
    expect(await h['update:restart'](undefined)).toEqual({ ok: true, data: { restarting: true } });
    expect(r.installs).toEqual([[false, true]]);
  });

  it('a feed that cannot be reached: a log line, and "Not updated" with why; the app goes on', async () => {
    const r = rig();
    rigs.push(r);
    const gone = createServer();
    const port = await new Promise<number>((resolve) =>
      gone.listen(0, '127.0.0.1', () => resolve((gone.address() as AddressInfo).port)),
    );
    await new Promise((resolve) => gone.close(resolve));
    await r.update.configure(`http://127.0.0.1:${port}/feed/`);
    await until('the failure to be logged', () => r.lines.some((l) => l.startsWith('warn update: ignored')));
    expect(r.lines.find((l) => l.startsWith('warn update: ignored'))).toMatch(
      /ECONNREFUSED.*; the app goes on as it is$/,
    );
    expect(r.update.state()).toEqual({
      phase: 'failed',
      version: null,
      message: expect.stringMatching(
        /^The update feed could not be used \(.*ECONNREFUSED.*\)\. The app goes on as it is and tries again in 4 hours\.$/,
      ),
    });
  });

  it('a feed that takes the connection and never answers: the check fails saying so after the time allowed, and the next check runs and finds the update', async () => {
    // In the app electron-updater's own 60 s limit never applies (Electron's net.request
    // announces no socket); under Node's client here it would, so this waits far less than 60 s.
    const r = rig({ feedAnswerMs: 2_000 });
    rigs.push(r);
    silent = true;
    const before = feed.hits.length;
    await r.update.configure(feed.url);
    await until(
      'the silent check to fail',
      () => r.update.state().phase === 'failed',
      20_000,
      () => r.states,
    );
    expect(r.update.state()).toEqual({
      phase: 'failed',
      version: null,
      message: 'The update feed did not answer in 2 s; the app will check again later.',
    });
    expect(r.lines).toContain('warn update: ignored (the update feed did not answer in 2 s); the app goes on as it is');
    expect(feed.hits.slice(before)).toEqual([expect.stringMatching(/^\/feed\/latest-linux\.yml/)]);
    // The feed answers again: the next check (the 4-hourly one) is not handed the silent one.
    silent = false;
    await r.update.check();
    await until(
      'the update to be ready',
      () => r.update.state().phase === 'ready',
      20_000,
      () => r.states,
    );
    expect(r.states.map((s) => s.phase)).toEqual(['idle', 'checking', 'failed', 'checking', 'downloading', 'ready']);
  });

  it('a file that does not match the feed’s checksum is discarded and never offered, and said so', async () => {
    const r = rig();
    rigs.push(r);
    serve = Buffer.alloc(INSTALLER.length, 'tampered');
    await r.update.configure(feed.url);
    await until('the mismatch to be logged', () => r.lines.some((l) => l.startsWith('warn update: ignored')));
    expect(
      r.lines.find((l) => l.startsWith('warn update: ignored')),
      r.lines.join('\n'),
    ).toMatch(/sha512 checksum mismatch/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.update.state()).toEqual({
      phase: 'failed',
      version: '0.2.0',
      message:
        "Version 0.2.0 from the update feed did not match its checksum and was discarded. Tell the clinic's IT if this happens again. The app goes on as it is.",
    });
    expect(r.states.map((s) => s.phase)).not.toContain('ready');
    r.update.restart();
    expect(r.installs).toEqual([]);
  });

  it('refuses a feed that is not https, and the development app does not update itself', async () => {
    const r = rig();
    rigs.push(r);
    await r.update.configure('http://updates.clinic.example/vet-scribe/');
    expect(r.update.state()).toMatchObject({
      phase: 'off',
      message: 'The update feed must be an https:// address (http:// only for this computer).',
    });
    const dev = new AutoUpdate({
      updater: () => Promise.reject(new Error('not loaded')),
      isPackaged: false,
      configPath: '/nonexistent',
      log: () => undefined,
      onChange: () => undefined,
    });
    await dev.configure('https://updates.clinic.example/vet-scribe/');
    expect(dev.state()).toEqual({ phase: 'off', version: null, message: 'Only the installed app updates itself.' });
  });
});
