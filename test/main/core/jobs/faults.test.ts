// The two fault runs of the pipeline: a flaky, slow service with short-lived tokens, and a
// process killed at random moments and started again on the same data folder. Every recording
// must reach "completed", with exactly one scribe record each at the service.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppCore } from '../../../../src/main/core/app-core.ts';
import { MemorySecretStore, openKeychain } from '../../../../src/main/core/sign-in/secret-store.ts';
import { RecordingStore } from '../../../../src/main/core/recordings/index.ts';
import { embeddedSandbox } from '../../../../src/main/embedded-sandbox.ts';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.ts';
import { call } from '../../../support/http.ts';
import { makeRecording, tempDir } from '../../../support/core.ts';
import { seededRandom } from '../../../../src/shared/seeded-random.ts';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function templateOf(s: Sandbox): Promise<string> {
  const signIn = await call<{ access_token: string }>('POST', `${s.urls.agents_url}/auth/sign-in`, { body: s.demo });
  const t = await call<{ items: { public_id: string }[] }>(
    'GET',
    `${s.urls.scribe_url}/templates/all?page=1&limit=50`,
    { token: signIn.json.access_token },
  );
  return t.json.items[0]!.public_id;
}

describe('fault runs', () => {
  it('20 recordings against --fail-rate 0.3 --drop-rate 0.1 --latency-ms 300 --access-ttl 3 all complete, one scribe request and one record each', async () => {
    sandbox = await startSandbox({
      failRate: 0.3,
      dropRate: 0.1,
      latencyMs: 300,
      accessTtlSeconds: 3,
      scribeSeconds: 1,
      seed: 20261121,
      rateLimitPerMinute: 0,
    });
    const s = sandbox;
    const dataDir = tempDir();
    const core = new AppCore({
      dataDir,
      secretStore: new MemorySecretStore(),
      app: { name: 'Vet Scribe', version: 'test' },
      audioUrl: (id) => id,
      embeddedService: embeddedSandbox(),
      pipeline: { backoff: { baseMs: 200, capMs: 3000 }, pollDelay: () => 300, maxConcurrentUploads: 4 },
    });
    await core.settings.load();
    await core.appSettings.update({
      useSandbox: false,
      serviceUrls: { agentsUrl: s.urls.agents_url, scribeUrl: s.urls.scribe_url, agentsApiUrl: s.urls.agents_api_url },
    });
    await core.start();
    try {
      // Sign-in itself meets the faults: try until it goes through, as a vet would.
      for (let i = 0; !core.session.state().signedIn && i < 30; i++)
        await core.session.signIn(s.demo.email, s.demo.password).catch(() => undefined);
      expect(core.session.state().signedIn).toBe(true);
      const template = await templateOf(s)
        .catch(() => templateOf(s))
        .catch(() => templateOf(s));
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) ids.push(await makeRecording(core, `consult ${i}`));
      for (const id of ids) await core.pipeline.submit(id, template);
      await core.pipeline.settled();
      const jobs = ids.map((id) => core.pipeline.info(id));
      expect(jobs.map((j) => j?.state)).toEqual(ids.map(() => 'completed'));
      const stats = s.stats();
      const perFile = Object.values(stats.scribeRecordsByFileKey);
      expect(perFile).toHaveLength(20);
      expect(perFile.every((n) => n === 1)).toBe(true);
      // One first send per recording; every other send repeated one whose answer never came,
      // under the same Idempotency-Key (src/main/README.md, "One scribe request per recording").
      const { scribeRequests, scribeResends } = core.pipeline.counters;
      expect(scribeRequests - scribeResends).toBe(20);
      expect(stats.scribeReplays).toBeLessThanOrEqual(scribeResends);
      expect(core.session.state().signedIn).toBe(true);
      // The run met real faults, and got through them.
      expect(stats.injected503).toBeGreaterThan(10);
      expect(stats.droppedConnections).toBeGreaterThan(3);
      expect(core.session.refreshCount).toBeGreaterThan(2);
      console.log(
        `fault run: 20 jobs completed; requests ${stats.requests}, injected 503 ${stats.injected503}, dropped ${stats.droppedConnections}, ` +
          `transient retries ${core.pipeline.counters.transientRetries}, refreshes ${core.session.refreshCount} (replayed ${stats.refreshReplays}), ` +
          `scribe sends ${core.pipeline.counters.scribeRequests} (resends ${core.pipeline.counters.scribeResends}, replays ${stats.scribeReplays}), duplicate records 0`,
      );
    } finally {
      await core.stop();
    }
  }, 300_000);

  it('SIGKILL at random points, 20 times: every recording completes exactly once', async () => {
    sandbox = await startSandbox({ scribeSeconds: 0.5, latencyMs: 50, rateLimitPerMinute: 0 });
    const s = sandbox;
    const template = await templateOf(s);
    const dataDir = tempDir();
    const recordings = new RecordingStore({ dir: join(dataDir, 'recordings') });
    const ids: string[] = [];
    for (let i = 0; i < 16; i++) ids.push(await makeRecording(recordings, `consult ${i}`));
    // The real keychain where there is one (CI has), so the session survives the kills too.
    const keychainService = `Vet Scribe test ${process.pid}-${Date.now()}`;
    const keychain = await openKeychain(keychainService);
    const runner = join(import.meta.dirname, '../../../support/core-runner.ts');
    const urls = JSON.stringify({
      agentsUrl: s.urls.agents_url,
      scribeUrl: s.urls.scribe_url,
      agentsApiUrl: s.urls.agents_api_url,
      ...s.demo,
    });
    const completions = new Map<string, number>();
    const run = (killAfterMs: number | null) =>
      new Promise<{ settled: boolean }>((resolve) => {
        const child = spawn(process.execPath, [runner, dataDir, urls, template, keychain ? keychainService : ''], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        const timer = killAfterMs === null ? null : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
        child.on('exit', () => {
          if (timer) clearTimeout(timer);
          for (const m of out.matchAll(/^completed (\S+)$/gm))
            completions.set(m[1]!, (completions.get(m[1]!) ?? 0) + 1);
          resolve({ settled: out.includes('\nsettled\n') || out.startsWith('settled\n') });
        });
      });
    // Kill it 20 times while it works (a run that finishes before its kill does not count). A
    // new recording joins before each restart, so a fast machine always has work to interrupt.
    let kills = 0;
    const dice = seededRandom(20);
    for (let runs = 0; kills < 20 && runs < 40; runs++) {
      if (runs > 0) ids.push(await makeRecording(recordings, `consult ${ids.length}`));
      const { settled } = await run(250 + Math.floor(dice() * 900));
      if (!settled) kills += 1;
    }
    const last = await run(null);
    expect(last.settled).toBe(true);
    expect(kills).toBe(20);
    for (const id of ids) {
      const job = JSON.parse(readFileSync(join(dirname(recordings.audioPath(id)), 'job.json'), 'utf8')) as {
        state: string;
        note: string | null;
      };
      expect(job.state, id).toBe('completed');
      expect(job.note, id).toMatch(/\S/);
      expect(completions.get(id) ?? 0, id).toBeLessThanOrEqual(1);
    }
    const perFile = Object.values(s.stats().scribeRecordsByFileKey);
    expect(perFile).toHaveLength(ids.length);
    expect(perFile.every((n) => n === 1)).toBe(true);
    await keychain?.clear();
    console.log(
      `kill run: ${kills} kills mid-run, ${ids.length} recordings completed, scribe records per file ${perFile.join(',')}, replays ${s.stats().scribeReplays}`,
    );
  }, 300_000);
});
