// Fault benchmark: the two fault runs of the pipeline (test/main/core/jobs/faults.test.ts),
// scaled up. (a) 100 recordings against a service that fails 30% of requests with 503, cuts
// 10% of connections mid-answer, answers 300 ms late and issues 3-second access tokens.
// (b) the core in a process of its own, killed with SIGKILL at random moments 100 times and
// started again on the same data folder each time, until every recording is done. Goals: no
// recording lost, no scribe request sent twice, no forced sign-out.
//   npm run bench:faults [-- --seed 20261121 --recordings 100 --kills 100 --only a|b]
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import type { AppCore } from '../src/main/core/app-core.ts';
import type { JobRecord } from '../src/main/core/jobs/record.ts';
import { RecordingStore } from '../src/main/core/recordings/index.ts';
import { openKeychain } from '../src/main/core/sign-in/secret-store.ts';
import { ServiceClient } from '../src/main/core/service/client.ts';
import type { SandboxStats } from '../src/sandbox/index.ts';
import { firstTemplateId, makeRecording, tempDir } from '../test/support/core.ts';
import { startCoreOn } from './support/core.ts';
import { rerunInThrowawayKeyring } from './support/keyring.ts';
import { progress, Report } from './support/report.ts';
import { startSandboxProcess, type SandboxProcess } from './support/sandbox-process.ts';
import { fixed, verdict } from './support/stats.ts';
import { seededRandom } from '../src/shared/seeded-random.ts';

const { values: args } = parseArgs({
  options: {
    seed: { type: 'string', default: process.env['SANDBOX_SEED'] ?? '20261121' },
    recordings: { type: 'string', default: '100' },
    kills: { type: 'string', default: '100' },
    'kill-recordings': { type: 'string', default: '20' },
    'kill-access-ttl': { type: 'string', default: '3' },
    only: { type: 'string' },
    'no-keychain': { type: 'boolean', default: false },
  },
});
if (!args['no-keychain']) rerunInThrowawayKeyring(import.meta.filename, process.argv.slice(2));

const SEED = Number(args.seed);
const RECORDINGS = Number(args.recordings);
const KILLS = Number(args.kills);
const KILL_RECORDINGS = Number(args['kill-recordings']);
const KILL_ACCESS_TTL = Number(args['kill-access-ttl']);
if (!Number.isInteger(SEED) || SEED < 0 || SEED >= 2 ** 32)
  throw new Error('--seed (SANDBOX_SEED) must be a whole number from 0 to 2^32-1');

interface Outcome {
  recordings: number;
  completed: number;
  lost: number;
  /** Scribe records beyond the first, per uploaded file (the sandbox's count). */
  duplicateByFile: number;
  /** Scribe records beyond the first, per recording (its recording session). */
  duplicateByRecording: number;
  forcedSignOuts: number;
  stats: SandboxStats;
  retries: number;
  retriesNote: string;
  refreshesClient: number;
  signIns: number;
  kills: number | null;
  wallMs: number;
  notes: string[];
}

function jobOf(store: RecordingStore, id: string): JobRecord | null {
  const path = join(dirname(store.audioPath(id)), 'job.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as JobRecord) : null;
}

/** Lost recordings and duplicate scribe records, from the data folder and the sandbox. */
function account(store: RecordingStore, ids: string[], stats: SandboxStats) {
  let completed = 0;
  const sessions = new Set<string>();
  for (const id of ids) {
    const job = jobOf(store, id);
    if (job?.state === 'completed' && (job.note ?? '').trim() !== '') completed += 1;
    if (job?.recordingSessionId) sessions.add(job.recordingSessionId);
  }
  const perFile = Object.values(stats.scribeRecordsByFileKey);
  const perSession = new Map<string, number>();
  // File keys are recordings/<session>/<uuid>/<name>: every upload of a recording is in its one session.
  for (const [key, n] of Object.entries(stats.scribeRecordsByFileKey)) {
    const session = key.split('/')[1] ?? key;
    perSession.set(session, (perSession.get(session) ?? 0) + n);
  }
  return {
    completed,
    lost: ids.length - completed,
    duplicateByFile: perFile.reduce((sum, n) => sum + Math.max(0, n - 1), 0),
    duplicateByRecording: [...perSession.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0),
  };
}

async function retrying<T>(what: string, fn: () => Promise<T>, tries = 30): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (e) {
      if (i >= tries) throw new Error(`${what} failed ${tries} times: ${(e as Error).message}`, { cause: e });
    }
  }
}

// (a) ------------------------------------------------------------------------------------------
async function faultyService(): Promise<Outcome> {
  const flags = { failRate: 0.3, dropRate: 0.1, latencyMs: 300, accessTtlSeconds: 3, seed: SEED };
  const sandbox = await startSandboxProcess(flags);
  const core: AppCore = await startCoreOn(sandbox.urls);
  let forcedSignOuts = 0;
  const notes: string[] = [];
  core.session.on('changed', (s) => {
    if (s.signedIn || s.endedBecause === null || s.endedBecause === 'user') return;
    forcedSignOuts += 1;
    notes.push(`signed out (${s.endedBecause}); signed in again`);
    // As the vet would: sign in again, so the parked recordings carry on.
    void retrying('sign-in', () => core.session.signIn(sandbox.demo.email, sandbox.demo.password));
  });
  const started = performance.now();
  try {
    // Sign-in and the templates list meet the faults too: tried until they go through.
    await retrying('sign-in', () => core.session.signIn(sandbox.demo.email, sandbox.demo.password));
    const template = await retrying('templates', () => firstTemplateId(core));
    const ids: string[] = [];
    for (let i = 0; i < RECORDINGS; i++) ids.push(await makeRecording(core, `consult ${i + 1}`));
    progress(`(a) ${RECORDINGS} recordings submitted`);
    const ticker = setInterval(() => {
      const done = core.pipeline.list().filter((j) => j.state === 'completed' || j.state === 'failed').length;
      progress(`(a) ${done}/${RECORDINGS} finished after ${fixed((performance.now() - started) / 1000, 0)} s`);
    }, 15_000);
    for (const id of ids) await core.pipeline.submit(id, template);
    await core.pipeline.settled();
    clearInterval(ticker);
    const wallMs = performance.now() - started;
    const stats = await sandbox.stats();
    const failed = core.pipeline.list().filter((j) => j.state === 'failed');
    for (const j of failed) notes.push(`failed: ${j.recordingId}: ${j.error?.message ?? '?'}`);
    return {
      recordings: ids.length,
      ...account(core.recordings, ids, stats),
      forcedSignOuts,
      stats,
      retries: core.pipeline.counters.transientRetries,
      retriesNote: 'transient failures the pipeline waited out and retried (its own counter)',
      refreshesClient: core.session.refreshCount,
      signIns: stats.signIns,
      kills: null,
      wallMs,
      notes,
    };
  } finally {
    await core.stop();
    await sandbox.close();
    rmSync(core.options.dataDir, { recursive: true, force: true });
  }
}

// (b) ------------------------------------------------------------------------------------------
interface ChildRun {
  settled: boolean;
  killed: boolean;
  /** It had sent a request or saved a job before it was killed (not killed while starting). */
  working: boolean;
  lines: string[];
}

async function killRun(): Promise<Outcome & { keychain: boolean; recordingsAdded: number; killsWhileWorking: number }> {
  const sandbox: SandboxProcess = await startSandboxProcess({
    scribeSeconds: 0.5,
    latencyMs: 50,
    rateLimitPerMinute: 0,
    accessTtlSeconds: KILL_ACCESS_TTL,
    seed: SEED,
  });
  const dataDir = tempDir('vet-scribe-bench-kill-');
  const store = new RecordingStore({ dir: join(dataDir, 'recordings') });
  const keychainService = `Vet Scribe bench ${process.pid}-${Date.now()}`;
  const keychain = await openKeychain(keychainService);
  const random = seededRandom(SEED);
  const notes: string[] = [];
  try {
    const client = new ServiceClient({
      urls: () => ({
        agentsUrl: sandbox.urls.agents_url,
        scribeUrl: sandbox.urls.scribe_url,
        agentsApiUrl: sandbox.urls.agents_api_url,
      }),
    });
    const token = (await client.signIn(sandbox.demo.email, sandbox.demo.password)).accessToken;
    const template = (await client.templates(token, 1, 50)).items[0]?.id ?? '';
    const ids: string[] = [];
    for (let i = 0; i < KILL_RECORDINGS; i++) ids.push(await makeRecording(store, `consult ${ids.length + 1}`));
    const runner = join(import.meta.dirname, 'support', 'kill-runner.ts');
    const urls = JSON.stringify({
      agentsUrl: sandbox.urls.agents_url,
      scribeUrl: sandbox.urls.scribe_url,
      agentsApiUrl: sandbox.urls.agents_api_url,
      ...sandbox.demo,
    });
    const completions = new Map<string, number>();
    const traffic = { signIns: 0, refreshes: 0, refreshRefused: 0, transient: 0 };
    // A kill is timed from the child's first line of output (its first request answered or job
    // saved), so it lands in the work rather than in Node's own start-up.
    const run = (killAfterMs: number | null, timeoutMs: number) =>
      new Promise<ChildRun>((resolve) => {
        const child = spawn(process.execPath, [runner, dataDir, urls, template, keychain ? keychainService : ''], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        let killed = false;
        const kill = () => {
          killed = child.kill('SIGKILL');
        };
        let timer = setTimeout(kill, timeoutMs);
        child.stdout.on('data', (c: Buffer) => {
          if (out === '' && killAfterMs !== null) {
            clearTimeout(timer);
            timer = setTimeout(kill, killAfterMs);
          }
          out += c.toString();
        });
        child.on('exit', () => {
          clearTimeout(timer);
          const lines = out.split('\n');
          const settled = lines.includes('settled');
          const working = lines.some((l) => l.startsWith('http ') || l.startsWith('state '));
          resolve({ settled, killed: killed && !settled, working, lines });
        });
      });
    const tally = (lines: string[]) => {
      for (const line of lines) {
        const [kind, a, b, c] = line.split(' ');
        if (kind === 'completed' && a) completions.set(a, (completions.get(a) ?? 0) + 1);
        if (kind !== 'http') continue;
        const route = `${a} ${b}`;
        const status = Number(c);
        if (route === 'POST /agents/auth/sign-in' && status === 200) traffic.signIns += 1;
        if (route === 'POST /scribe/auth/refresh-token') {
          if (status === 200) traffic.refreshes += 1;
          else if (status >= 400 && status < 500 && status !== 429) traffic.refreshRefused += 1;
        }
        if (!Number.isFinite(status) || status === 429 || status >= 500) traffic.transient += 1;
      }
    };

    const started = performance.now();
    let kills = 0;
    let killsWhileWorking = 0;
    let runs = 0;
    // Kill it while it works. A run that finishes before its kill does not count, so before
    // each restart one more recording is added, as if recorded while the app was down.
    while (kills < KILLS && runs < KILLS * 3) {
      runs += 1;
      const r = await run(Math.floor(random() * 1500), 60_000);
      tally(r.lines);
      if (r.killed) kills += 1;
      if (r.killed && r.working) killsWhileWorking += 1;
      ids.push(await makeRecording(store, `consult ${ids.length + 1}`));
      if (runs % 10 === 0)
        progress(
          `(b) ${kills} kills in ${runs} runs, ${ids.length} recordings, ${account(store, ids, await sandbox.stats()).completed} completed`,
        );
    }
    const last = await run(null, 10 * 60_000);
    tally(last.lines);
    if (!last.settled) notes.push('the last run (not killed) did not settle within 10 minutes');
    const wallMs = performance.now() - started;
    const stats = await sandbox.stats();
    const twice = [...completions.values()].filter((n) => n > 1).length;
    if (twice > 0)
      notes.push(`${twice} note(s) announced more than once (a kill between saving the note and announcing it)`);
    await keychain?.clear();
    return {
      recordings: ids.length,
      ...account(store, ids, stats),
      forcedSignOuts: traffic.refreshRefused,
      stats,
      retries: traffic.transient,
      retriesNote: "transient failures (5xx, 429, network errors) in the child's traffic, each waited out and retried",
      refreshesClient: traffic.refreshes,
      signIns: traffic.signIns,
      kills,
      wallMs,
      notes,
      keychain: keychain !== null,
      recordingsAdded: runs,
      killsWhileWorking,
    };
  } finally {
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------------------------------------
const report = new Report('faults', 'Fault benchmark: a faulty service, and a core killed at random');
const outcomes: { name: string; o: Outcome }[] = [];
let killKeychain: boolean | null = null;
let killAdded = 0;
let killsWhileWorking = 0;
if (args.only !== 'b') {
  progress(
    `(a) ${RECORDINGS} recordings against --fail-rate 0.3 --drop-rate 0.1 --latency-ms 300 --access-ttl 3 --seed ${SEED}`,
  );
  outcomes.push({ name: '(a) faulty service', o: await faultyService() });
}
if (args.only !== 'a') {
  progress(`(b) ${KILLS} kills, ${KILL_RECORDINGS} recordings to start with`);
  const o = await killRun();
  killKeychain = o.keychain;
  killAdded = o.recordingsAdded;
  killsWhileWorking = o.killsWhileWorking;
  outcomes.push({ name: `(b) ${o.kills} kills`, o });
}

report.add(
  [
    '## Setup',
    '',
    `- seed of the sandbox's fault dice (and of the kill moments): ${SEED} (\`--seed\` or SANDBOX_SEED); the dice repeat, the timing of a loaded machine does not quite`,
    '- recordings: the chunks of a real 5 s MediaRecorder recording (test/fixtures/audio/mediarecorder-5s), written through RecordingStore and finished as the app finishes them',
    '- the sandbox runs in a process of its own; its `stats()` counts requests, faults, refreshes and scribe records per uploaded file',
    ...(args.only !== 'b'
      ? [
          `- (a): sandbox \`--fail-rate 0.3 --drop-rate 0.1 --latency-ms 300 --access-ttl 3 --seed ${SEED}\`, its other options at their defaults (a note takes 8 s; 1200 requests a minute per token); the real AppCore in this process with a MemorySecretStore and the app's default pipeline settings; ${RECORDINGS} recordings submitted at once; sign-in tried until it goes through, and again after any forced sign-out (counted)`,
        ]
      : []),
    ...(args.only !== 'a'
      ? [
          `- (b): sandbox \`--latency-ms 50 --scribe-seconds 0.5 --access-ttl ${KILL_ACCESS_TTL} --rate-limit 0\` (short tokens so kills also land in refreshes); the core in a child process (test/support/core-runner.ts, the tests' runner, with its requests reported by bench/support/kill-runner.ts) that resumes the data folder, signs in if it holds no session, sends every finished recording without a job, and runs until all are done; SIGKILL at a moment drawn from 0–1.5 s after the child's first line of output (its first request answered or job saved), so kills land in the work rather than in Node's start-up; ${KILL_RECORDINGS} recordings at first and one more before each restart (${killAdded} added), so there is always work to interrupt; a run that finished before its kill is not counted as a kill; then one last run to the end`,
          `- (b) secret store: ${killKeychain ? 'the real keychain (keytar on a throwaway gnome-keyring Secret Service), so the session survives the kills' : 'memory (no Secret Service here), so each start signs in again'}`,
        ]
      : []),
  ].join('\n'),
);

const col = (f: (o: Outcome) => string | number) => outcomes.map(({ o }) => String(f(o)));
const zero = (f: (o: Outcome) => number) => verdict(outcomes.every(({ o }) => f(o) === 0));
report.add('## Results');
report.table(
  ['', ...outcomes.map((x) => x.name), 'goal'],
  [
    ['recordings', ...col((o) => o.recordings), ''],
    ['completed with a note', ...col((o) => o.completed), 'all'],
    ['**lost** (not completed, or missing)', ...col((o) => o.lost), `0: ${zero((o) => o.lost)}`],
    [
      '**duplicate scribe requests** (scribe records per file key > 1)',
      ...col((o) => o.duplicateByFile),
      `0: ${zero((o) => o.duplicateByFile)}`,
    ],
    [
      'duplicate scribe records per recording (its session)',
      ...col((o) => o.duplicateByRecording),
      `0: ${zero((o) => o.duplicateByRecording)}`,
    ],
    ['**forced sign-outs**', ...col((o) => o.forcedSignOuts), `0: ${zero((o) => o.forcedSignOuts)}`],
    ['requests (sandbox)', ...col((o) => o.stats.requests), ''],
    ['injected 503s', ...col((o) => o.stats.injected503), ''],
    ['dropped connections', ...col((o) => o.stats.droppedConnections), ''],
    ['429 rate limited', ...col((o) => o.stats.rateLimited), ''],
    ['retries', ...col((o) => o.retries), ''],
    [
      'token refreshes (sandbox; replays of a lost answer)',
      ...col((o) => `${o.stats.refreshes} (${o.stats.refreshReplays})`),
      '',
    ],
    ['refreshes the client completed', ...col((o) => o.refreshesClient), ''],
    ['refresh-token reuse detected (session revoked)', ...col((o) => o.stats.refreshReuseDetected), ''],
    ['sign-ins', ...col((o) => o.signIns), ''],
    ['scribe requests repeated and answered from the Idempotency-Key', ...col((o) => o.stats.scribeReplays), ''],
    [
      'kills',
      ...col((o) =>
        o.kills === null ? '–' : `${o.kills} (${killsWhileWorking} after a request or job save of that run)`,
      ),
      '',
    ],
    ['wall time', ...col((o) => `${fixed(o.wallMs / 1000)} s`), ''],
  ],
);
report.add(
  [
    'Retries: ' + outcomes.map(({ name, o }) => `${name}: ${o.retriesNote}`).join('; ') + '.',
    'Forced sign-outs: ' +
      outcomes
        .map(
          ({ o, name }) =>
            `${name}: ${o.kills === null ? 'the session ended by the app itself (a refresh refused)' : 'refresh answers refused by the service (each ends the session)'}`,
        )
        .join('; ') +
      '.',
    ...outcomes.flatMap(({ name, o }) => o.notes.map((n) => `- ${name}: ${n}`)),
  ].join('\n'),
);
report.write();
