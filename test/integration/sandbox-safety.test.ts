// The built-in sandbox can never take the app down: a data folder where it cannot start, or a
// disk that stops taking its saves mid-run, leaves the app running with the vet's recordings in
// reach and, where the vet must know, a notice. Real files, the real core.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src/main/core/app-core.ts';
import { RecordingStore } from '../../src/main/core/recordings.ts';
import { makeRecording, startCore, tempDir } from './support/core.ts';

let core: AppCore | null = null;
afterEach(async () => {
  await core?.stop();
  core = null;
});

describe('the sandbox cannot take the app down', () => {
  it('a sandbox folder that cannot be made: the app starts, the recordings are there, and the vet is told the sandbox could not start', async () => {
    const dataDir = tempDir();
    const id = await makeRecording(new RecordingStore({ dir: join(dataDir, 'recordings') }));
    // Where the sandbox keeps its state and uploads, a file.
    writeFileSync(join(dataDir, 'sandbox'), 'not a folder');
    core = await startCore({ dataDir });
    expect(core.consults().map((c) => c.recording.id)).toEqual([id]);
    expect(core.embeddedSandbox).toBeNull();
    expect(core.appInfo().notices).toContainEqual({
      level: 'error',
      message: 'The built-in sandbox could not start, so nothing can be sent to it. Recordings on this computer are kept. Choose another service in Settings, or restart the app.',
    });
  });

  it('a disk that stops taking the sandbox saves mid-run: it goes on in memory, leaves no half-written file, and the app keeps answering', async () => {
    const dataDir = tempDir();
    core = await startCore({ dataDir });
    const sandboxDir = join(dataDir, 'sandbox');
    expect(readdirSync(sandboxDir)).toContain('sandbox-state.json');
    // The folder goes away and a file takes its place: every save fails from now on.
    rmSync(sandboxDir, { recursive: true, force: true });
    writeFileSync(sandboxDir, 'not a folder');
    const demo = core.appInfo().sandbox?.demo;
    if (!demo) throw new Error('no sandbox');
    // A sign-in saves the sandbox's state: it fails underneath, and the sign-in still works.
    expect((await core.session.signIn(demo.email, demo.password)).signedIn).toBe(true);
    expect(core.embeddedSandbox?.stateProblem()).toMatch(/^its state could not be saved \(ENOTDIR\)$/);
    // The sandbox's own clock (it saves when a job finishes) ran through the failures too.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await core.client.templates((await core.session.withToken((t) => Promise.resolve(t))), 1, 5)).items.length).toBeGreaterThan(0);
    // Back to a folder: the next save writes the state again.
    rmSync(sandboxDir, { force: true });
    mkdirSync(sandboxDir);
    await core.session.signOut('user');
    await core.session.signIn(demo.email, demo.password);
    expect(core.embeddedSandbox?.stateProblem()).toBeNull();
    expect(readdirSync(sandboxDir)).toEqual(['sandbox-state.json']);
  });
});

describe('a slow body cannot hold the sandbox', () => {
  it('closes a connection on which nothing moves for the idle time, and not one that keeps flowing', async () => {
    const { startSandbox } = await import('../../src/sandbox/index.ts');
    const { connect } = await import('node:net');
    const sandbox = await startSandbox({ idleTimeoutMs: 400, rateLimitPerMinute: 0 });
    try {
      const { hostname, port } = new URL(sandbox.origin);
      const open = () => connect({ host: hostname, port: Number(port) });
      const closedWithin = (socket: ReturnType<typeof open>, ms: number) =>
        new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), ms);
          socket.on('close', () => (clearTimeout(timer), resolve(true)));
          socket.on('error', () => undefined);
        });
      const head = `POST /agents/auth/sign-in HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":`;
      // Stalled after a few bytes of its body: closed.
      const stalled = open();
      stalled.write(head);
      expect(await closedWithin(stalled, 3_000)).toBe(true);
      // A body that keeps coming, a byte every 100 ms for 1.5 s: not cut.
      const flowing = open();
      flowing.write(head);
      const gone = closedWithin(flowing, 1_500);
      const drip = setInterval(() => flowing.write(' '), 100);
      expect(await gone).toBe(false);
      clearInterval(drip);
      flowing.destroy();
      // And the sandbox answers the others all along.
      expect((await fetch(`${sandbox.urls.agents_url}/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sandbox.demo) })).status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });
});
