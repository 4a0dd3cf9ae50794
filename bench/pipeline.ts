// Pipeline benchmark: consults through the real AppCore and its IPC handler table (the path the
// window takes: recording:start with a template, recording:chunk, recording:stop, which sends the
// recording to be scribed at once) against the sandbox in another process. Measures the app's
// own time from Stop to the scribe request leaving, without the upload's transfer (goal: median
// < 50 ms), the requests each consult costs by route against the workflow's minimum, and how
// often a consult polls while the service works on its note.
// Then the polling: how soon a note is fetched once ready, and at what cost in status requests,
// with the fixed schedule the app used before, the learned plan, and the learned plan with the
// clinic relay (the real one, in a process of its own, the sandbox delivering to it) side by side.
//   npm run bench:pipeline [-- --consults 50 --parallel 3 --poll-seconds 25,45 --poll-consults 3 --poll-waves 4]
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { AppCore } from '../src/main/core/app-core.ts';
import { writeJsonAtomic } from '../src/main/core/platform/atomic-file.ts';
import { RecordingStore } from '../src/main/core/recordings/index.ts';
import { createHandlers, type HandlerTable } from '../src/main/core/ipc-handlers.ts';
import { pollDelay as fixedPollDelay } from '../src/main/core/platform/backoff.ts';
import type { PipelineOptions } from '../src/main/core/jobs/pipeline.ts';
import type { JobRecord } from '../src/main/core/jobs/record.ts';
import type { InvokeChannel, InvokeOutput } from '../src/shared/ipc.ts';
import type { JobState } from '../src/shared/jobs.ts';
import type { SandboxStats } from '../src/sandbox/index.ts';
import { recorderChunks, tempDir, waitForJob } from '../test/support/core.ts';
import { startCoreOn } from './support/core.ts';
import { HttpTrace, routeOf, type TracedRequest } from './support/http-trace.ts';
import { progress, Report } from './support/report.ts';
import { startRelayFor, type RegisteredRelay } from './support/relay-process.ts';
import { startSandboxProcess, type SandboxProcess } from './support/sandbox-process.ts';
import { fixed, median, percentile, verdict } from './support/stats.ts';

const { values: args } = parseArgs({
  options: {
    consults: { type: 'string', default: '50' },
    parallel: { type: 'string', default: '3' },
    'poll-seconds': { type: 'string', default: '25,45' },
    'poll-consults': { type: 'string', default: '3' },
    'poll-waves': { type: 'string', default: '4' },
    'chunk-ms': { type: 'string', default: '1000' },
  },
});
const CONSULTS = Number(args.consults);
const PARALLEL = Number(args.parallel);
/** The note times of the polling part, one sandbox each. */
const POLL_SPREAD = String(args['poll-seconds'])
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const POLL_WAVES = Number(args['poll-waves']);
const POLL_CONSULTS = Number(args['poll-consults']);
/** Chunks arrive as MediaRecorder sends them: one a second. */
const CHUNK_MS = Number(args['chunk-ms']);
const MIME = 'audio/webm;codecs=opus';
const GOAL_MEDIAN_MS = 50;

const ROUTES = {
  createRecordingSession: 'POST /scribe/recording-sessions/create',
  uploadUrl: 'POST /scribe/audio/generate-upload-url',
  put: 'PUT /storage/:key',
  scribe: 'POST /scribe/scribe/request',
  poll: 'GET /scribe/scribe/get/:id',
  signIn: 'POST /agents/auth/sign-in',
  refresh: 'POST /scribe/auth/refresh-token',
  templates: 'GET /scribe/templates/all',
} as const;

async function invoke<C extends InvokeChannel>(
  handlers: HandlerTable,
  channel: C,
  input: unknown,
): Promise<InvokeOutput<C>> {
  const answer = await handlers[channel](input);
  if (!answer.ok) throw new Error(`${channel}: ${answer.error.code}: ${answer.error.message}`);
  return answer.data as InvokeOutput<C>;
}

interface Consult {
  id: string;
  stopAt: number;
  /** First time the pipeline reported each state (performance.now()). */
  states: Partial<Record<JobState, number>>;
}

/** Records a real 5 s MediaRecorder recording through the IPC handlers and presses Stop. */
async function recordAndStop(
  core: AppCore,
  handlers: HandlerTable,
  templateId: string,
  label: string,
  consults: Map<string, Consult>,
): Promise<Consult> {
  const meta = await invoke(handlers, 'recording:start', { mimeType: MIME, label, patientName: label, templateId });
  const consult: Consult = { id: meta.id, stopAt: 0, states: {} };
  consults.set(meta.id, consult);
  const started = performance.now();
  for (const [seq, chunk] of recorderChunks().entries()) {
    await sleep(Math.max(0, started + (seq + 1) * CHUNK_MS - performance.now()));
    await invoke(handlers, 'recording:chunk', { id: meta.id, seq, data: chunk, elapsedMs: (seq + 1) * 1000 });
  }
  consult.stopAt = performance.now();
  await invoke(handlers, 'recording:stop', { id: meta.id, durationMs: 5000 });
  const job = await waitForJob(core, meta.id, (j) => j.state === 'completed' || j.state === 'failed', 10 * 60_000);
  if (job.state !== 'completed') throw new Error(`consult ${label} failed: ${job.error?.message ?? '?'}`);
  return consult;
}

interface Run {
  core: AppCore;
  sandbox: SandboxProcess;
  consults: Map<string, Consult>;
  trace: HttpTrace;
  before: SandboxStats;
  after: SandboxStats;
  jobs: Map<string, JobRecord>;
  wallMs: number;
  /** Sessions made while recording; of them, those used and those left unused. */
  early: { made: number; used: number; unused: number };
}

async function runConsults(scribeSeconds: number, count: number, parallel: number): Promise<Run> {
  const sandbox = await startSandboxProcess({ scribeSeconds, rateLimitPerMinute: 0 });
  const core = await startCoreOn(sandbox.urls);
  const handlers = createHandlers(core);
  const consults = new Map<string, Consult>();
  core.pipeline.on('job', (job) => {
    const c = consults.get(job.recordingId);
    if (c && c.states[job.state] === undefined) c.states[job.state] = performance.now();
  });
  await invoke(handlers, 'session:signIn', sandbox.demo);
  const templates = await invoke(handlers, 'templates:list', { page: 1 });
  const templateId = templates.items[0]?.id;
  if (!templateId) throw new Error('the sandbox listed no templates');
  const before = await sandbox.stats();
  const trace = new HttpTrace().start();
  const started = performance.now();
  let next = 0;
  const worker = async (k: number) => {
    // The rooms do not all press Stop in the same second.
    await sleep((k * CHUNK_MS * recorderChunks().length) / parallel);
    while (next < count) {
      const i = next++;
      const c = await recordAndStop(core, handlers, templateId, `consult ${i + 1}`, consults);
      if ((i + 1) % 10 === 0 || scribeSeconds > 0)
        progress(`  consult ${i + 1}/${count} done in ${fixed((performance.now() - c.stopAt) / 1000, 2)} s after Stop`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, (_, k) => worker(k)));
  const wallMs = performance.now() - started;
  trace.stop();
  const after = await sandbox.stats();
  const jobs = new Map<string, JobRecord>();
  for (const id of consults.keys())
    jobs.set(
      id,
      JSON.parse(readFileSync(join(dirname(core.recordings.audioPath(id)), 'job.json'), 'utf8')) as JobRecord,
    );
  const {
    earlyRecordingSessions: made,
    earlyRecordingSessionsUsed: used,
    earlyRecordingSessionsUnused: unused,
  } = core.pipeline.counters;
  await core.stop();
  await sandbox.close();
  rmSync(core.options.dataDir, { recursive: true, force: true });
  return { core, sandbox, consults, trace, before, after, jobs, wallMs, early: { made, used, unused } };
}

function delta(run: Run, route: string): number {
  return (run.after.byRoute[route] ?? 0) - (run.before.byRoute[route] ?? 0);
}

const report = new Report('pipeline', 'Pipeline benchmark: from Stop to the scribe request, requests per consult');

// For scale, before the run: the two kinds of work on the Stop path that are not requests.
// Every job step ends with an atomic JSON write (write, fsync, rename, fsync of the folder), and
// Stop first finishes the recording (its WebM Duration written into a rewritten, synced file).
const fsyncTimes: number[] = [];
const finishTimes: number[] = [];
{
  const dir = tempDir('vet-scribe-bench-scale-');
  for (let i = 0; i < 30; i++) {
    const t = performance.now();
    await writeJsonAtomic(join(dir, 'job.json'), { i, padding: 'x'.repeat(600) });
    fsyncTimes.push(performance.now() - t);
  }
  const store = new RecordingStore({ dir: join(dir, 'recordings') });
  for (let i = 0; i < 15; i++) {
    const meta = await store.start({ mimeType: MIME, label: 'scale', patientName: 'Scale', templateId: null });
    for (const [seq, chunk] of recorderChunks().entries())
      await store.appendChunk(meta.id, seq, chunk, (seq + 1) * 1000);
    const t = performance.now();
    await store.finish(meta.id, { durationMs: 5000 });
    finishTimes.push(performance.now() - t);
  }
  rmSync(dir, { recursive: true, force: true });
}
// recording meta (finish), job created, recording_session_created, upload_url, uploaded, send time.
const SAVES_ON_PATH = 6;

// Part 1: many consults, the service answering at once.
progress(`${CONSULTS} consults, ${PARALLEL} at a time, scribeSeconds 0`);
const main = await runConsults(0, CONSULTS, PARALLEL);

interface Timing {
  id: string;
  own: number;
  total: number;
  upload: number;
  /** Stop → the PUT's first bytes leaving. */
  firstByte: number;
  /** The parts of `own`, in order. */
  parts: number[];
}
const timings: Timing[] = [];
const missing: string[] = [];
for (const [id, c] of main.consults) {
  const job = main.jobs.get(id);
  const mine = (r: TracedRequest) =>
    (r.method === 'PUT' &&
      job?.recordingSessionId != null &&
      r.path.includes(encodeURIComponent(job.recordingSessionId))) ||
    (r.method === 'POST' && routeOf(r) === ROUTES.scribe && r.idempotencyKey === job?.idempotencyKey);
  const own = main.trace.requests.filter(mine);
  const scribe = own.find((r) => r.method === 'POST' && r.sentAt !== null);
  const puts = own.filter((r) => r.method === 'PUT');
  if (!scribe?.sentAt || puts.length === 0) {
    missing.push(id);
    continue;
  }
  // The transfer: from the PUT's headers leaving to its answer read in full.
  const upload = puts.reduce((sum, r) => sum + ((r.endAt ?? r.sentAt ?? 0) - (r.sentAt ?? r.createdAt)), 0);
  const total = scribe.sentAt - c.stopAt;
  const at = (s: JobState) => c.states[s] ?? Number.NaN;
  // A job whose session and address were made while recording starts at the upload: the
  // steps before it take no time after Stop.
  const jobAt = c.states.recorded ?? c.states.recording_session_created ?? at('upload_url');
  const sessionAt = c.states.recording_session_created ?? jobAt;
  const firstByte = Math.min(...puts.map((r) => r.sentAt ?? Number.POSITIVE_INFINITY));
  timings.push({
    id,
    own: total - upload,
    total,
    upload,
    firstByte: firstByte - c.stopAt,
    parts: [
      jobAt - c.stopAt,
      sessionAt - jobAt,
      at('upload_url') - sessionAt,
      at('uploaded') - at('upload_url') - upload,
      scribe.sentAt - at('uploaded'),
    ],
  });
}
const own = timings.map((t) => t.own);
const ownMedian = median(own);

const perConsult = (route: string) => delta(main, route) / CONSULTS;
const minimum = [ROUTES.createRecordingSession, ROUTES.uploadUrl, ROUTES.put, ROUTES.scribe];
const workflowMet = minimum.every((r) => delta(main, r) === CONSULTS) && delta(main, ROUTES.poll) >= CONSULTS;
const pollsPerConsult = perConsult(ROUTES.poll);
const otherRoutes = Object.keys(main.after.byRoute).filter(
  (r) => !Object.values(ROUTES).includes(r as never) && delta(main, r) > 0,
);

report.add(
  [
    '## Setup',
    '',
    `- ${CONSULTS} consults, ${PARALLEL} at a time, as ${PARALLEL} exam rooms would: each records its next consult as soon as its last one has its note, chunks arrive every ${CHUNK_MS} ms as MediaRecorder sends them, and the rooms start ${fixed((CHUNK_MS * 5) / PARALLEL / 1000)} s apart so they do not all press Stop together`,
    "- the real AppCore (src/main/core) with a MemorySecretStore and the app's default pipeline settings (backoff, poll schedule, 2 concurrent uploads), driven through its IPC handler table as the window drives it: `recording:start` with a template, five `recording:chunk` calls carrying the chunks of a real 5 s MediaRecorder recording (test/fixtures/audio/mediarecorder-5s, audio/webm;codecs=opus), then `recording:stop`, which sends the recording to be scribed at once",
    '- the sandbox in a process of its own with `scribeSeconds: 0` and no rate limit; requests counted by its `stats()`',
    "- times from undici's diagnostics channels in the core's process (when a request's headers leave, when its answer ends); Stop is the moment `recording:stop` is called",
    `- the recording session made while recording (the default) only after a minute of audio under a name unchanged for 10 s, which these 5 s consults never reach, so each is asked for at Stop: ${main.early.made} made while recording, ${main.early.used} used; \`npm run bench:stop-upload\` sets Stop → first upload byte with the session asked for at Stop beside made while recording`,
    `- wall time ${fixed(main.wallMs / 1000)} s`,
  ].join('\n'),
);

report.add(
  [
    '## Stop → scribe request sent, without the upload',
    '',
    "(scribe request sent) − (Stop) − (upload transfer: PUT headers sent → answer read). What is left is the app's own time, plus the recording-session-create and upload-URL round trips to the sandbox on loopback for a consult whose session was not made while recording.",
  ].join('\n'),
);
report.table(
  ['consults measured', 'median', 'p95', 'max', `goal: median < ${GOAL_MEDIAN_MS} ms`],
  [
    [
      `${timings.length} of ${CONSULTS}`,
      `${fixed(ownMedian)} ms`,
      `${fixed(percentile(own, 95))} ms`,
      `${fixed(Math.max(...own))} ms`,
      verdict(ownMedian < GOAL_MEDIAN_MS && missing.length === 0),
    ],
  ],
);
const PARTS = [
  'Stop → job saved (recording finished: WebM Duration written, meta saved; job created and saved)',
  'job saved → session saved (recording-session-create round trip, job saved; none when made while recording)',
  'session saved → upload URL saved (upload-URL round trip, job saved; none when made while recording)',
  'upload URL saved → upload saved, without the transfer (file opened, job saved)',
  'upload saved → scribe request sent (job saved with the send time first)',
];
report.table(
  ['part', 'median ms', 'p95 ms'],
  [
    ...PARTS.map((name, i) => {
      const values = timings.map((t) => t.parts[i] ?? Number.NaN);
      return [name, fixed(median(values)), fixed(percentile(values, 95))];
    }),
    [
      'upload transfer (≈ 30 KB), not counted',
      fixed(median(timings.map((t) => t.upload))),
      fixed(
        percentile(
          timings.map((t) => t.upload),
          95,
        ),
      ),
    ],
    [
      'Stop → first upload byte (the PUT starts)',
      fixed(median(timings.map((t) => t.firstByte))),
      fixed(
        percentile(
          timings.map((t) => t.firstByte),
          95,
        ),
      ),
    ],
    [
      'Stop → scribe request sent, upload included',
      fixed(median(timings.map((t) => t.total))),
      fixed(
        percentile(
          timings.map((t) => t.total),
          95,
        ),
      ),
    ],
  ],
);
report.add(
  [
    'For scale, measured alone before the run on the same disk:',
    '',
    `- one atomic JSON write of the kind every job step ends with (write, fsync, rename, fsync of the folder; src/main/core/platform/atomic-file.ts): median ${fixed(median(fsyncTimes))} ms, p95 ${fixed(percentile(fsyncTimes, 95))} ms (30 writes). Between Stop and the scribe request the app makes ${SAVES_ON_PATH} of them one after another.`,
    `- finishing a 5 s recording (\`RecordingStore.finish\`: the WebM read, its head rebuilt with a Duration by ts-ebml, the file rewritten and synced, meta saved): median ${fixed(median(finishTimes))} ms, p95 ${fixed(percentile(finishTimes, 95))} ms (15 recordings).`,
  ].join('\n'),
);

report.add(
  [
    '## Requests per consult',
    '',
    "The workflow's minimum per consult: create the recording session, generate upload URL, PUT, scribe request, and at least one poll (the scribe status can only be learned by asking) = 5 requests. The templates list is fetched once when the window opens, not per consult.",
  ].join('\n'),
);
report.table(
  ['route', 'requests', 'per consult', 'minimum per consult'],
  [
    [
      ROUTES.createRecordingSession,
      delta(main, ROUTES.createRecordingSession),
      fixed(perConsult(ROUTES.createRecordingSession), 2),
      1,
    ],
    [ROUTES.uploadUrl, delta(main, ROUTES.uploadUrl), fixed(perConsult(ROUTES.uploadUrl), 2), 1],
    [ROUTES.put, delta(main, ROUTES.put), fixed(perConsult(ROUTES.put), 2), 1],
    [ROUTES.scribe, delta(main, ROUTES.scribe), fixed(perConsult(ROUTES.scribe), 2), 1],
    [`${ROUTES.poll} (polls)`, delta(main, ROUTES.poll), fixed(pollsPerConsult, 2), '1 (the job is done at once here)'],
    ...otherRoutes.map((r) => [r, delta(main, r), fixed(perConsult(r), 2), 0]),
    [
      '**all**',
      main.after.requests - main.before.requests,
      fixed((main.after.requests - main.before.requests) / CONSULTS, 2),
      5,
    ],
  ],
);
report.add(
  [
    `Minimum met: ${verdict(workflowMet && pollsPerConsult === 1 && otherRoutes.length === 0)} (one of each workflow step per consult${pollsPerConsult === 1 ? ', one poll each' : `, ${fixed(pollsPerConsult, 2)} polls each`}${otherRoutes.length ? `, plus ${otherRoutes.join(', ')}` : ''}).`,
    '',
    `Counted apart, for the whole run: sign-in ${main.after.byRoute[ROUTES.signIn] ?? 0}, token refresh ${main.after.byRoute[ROUTES.refresh] ?? 0}, templates list ${main.after.byRoute[ROUTES.templates] ?? 0} (all before the first consult); during the consults: sign-in ${delta(main, ROUTES.signIn)}, refresh ${delta(main, ROUTES.refresh)}. Scribe records per uploaded file: ${Math.max(...Object.values(main.after.scribeRecordsByFileKey))} at most; 503/429/dropped: ${main.after.injected503}/${main.after.rateLimited}/${main.after.droppedConnections}.`,
    missing.length
      ? `\n${missing.length} consult(s) could not be matched to their requests: ${missing.join(', ')}.`
      : '',
  ].join('\n'),
);

// Part 2: polling while the service takes its time over a note, today's fixed schedule and the
// learned plan side by side, at once, against the same sandboxes.
interface Side {
  name: string;
  pipeline: Partial<PipelineOptions>;
  /** Subscribed to a clinic relay the sandbox delivers its signed `scribe` events to. */
  relay?: boolean;
  /** The goal this side is judged against, if any. */
  goal?: { median?: number; p95: number; perMinute: number; text: string };
}
const SIDES: Side[] = [
  { name: 'fixed schedule (before)', pipeline: { pollDelay: fixedPollDelay, statusBoard: false } },
  {
    name: 'learned plan + status board',
    pipeline: {},
    goal: { median: 3000, p95: 6000, perMinute: 10, text: 'median <= 3 s, p95 <= 6 s, <= 10 per consult-minute' },
  },
  {
    name: 'learned plan + clinic relay',
    pipeline: {},
    relay: true,
    goal: { p95: 1000, perMinute: 2, text: 'p95 <= 1 s, <= 2 per consult-minute' },
  },
];

interface PollOutcome {
  side: string;
  scribeSeconds: number;
  /** Note ready (request sent + scribeSeconds) → note saved, ms, per consult, by wave. */
  lags: { wave: number; ms: number }[];
  consultMinutes: number;
  gets: number;
  pages: number;
  /** With the relay: its states other than `connected` seen after the rooms started (none expected). */
  relayDrops: string[];
  /** With the relay: note ready → the relay accepted the `scribed` delivery, and → this PC heard it, ms. */
  toRelay: number[];
  toPc: number[];
}

/** `rooms` exam rooms each recording `waves` consults one after another, against one sandbox. */
async function pollSide(
  sandbox: SandboxProcess,
  relay: RegisteredRelay | null,
  scribeSeconds: number,
  side: Side,
  rooms: number,
  waves: number,
): Promise<PollOutcome> {
  const core = await startCoreOn(sandbox.urls, { pipeline: side.pipeline });
  const handlers = createHandlers(core);
  if (relay) await core.appSettings.update({ relayUrl: relay.url });
  await invoke(handlers, 'session:signIn', sandbox.demo);
  // A relay that never connected, or dropped, would leave this engine polling as usual: its
  // figures would then be the plan's under the relay's name. It must be connected before the
  // first consult, and every state it leaves `connected` for is kept and judged.
  const relayDrops: string[] = [];
  const heard = new Map<string, number>();
  if (relay) {
    const until = performance.now() + 20_000;
    while (core.relay.status().state !== 'connected') {
      if (performance.now() > until)
        throw new Error(`the engine did not connect to the clinic relay: ${JSON.stringify(core.relay.status())}`);
      await sleep(50);
    }
    core.relay.on('status', (s) => {
      if (s.state !== 'connected') relayDrops.push('message' in s ? `${s.state}: ${s.message}` : s.state);
    });
    core.relay.on('event', (e) => heard.set(`${e.public_id}:${e.status}`, Date.now()));
  }
  const templates = await invoke(handlers, 'templates:list', { page: 1 });
  const templateId = templates.items[0]?.id;
  if (!templateId) throw new Error('the sandbox listed no templates');
  const consults = new Map<string, Consult>();
  core.pipeline.on('job', (job) => {
    const c = consults.get(job.recordingId);
    if (c && c.states[job.state] === undefined) c.states[job.state] = performance.now();
  });
  const waveOf = new Map<string, number>();
  await Promise.all(
    Array.from({ length: rooms }, async (_, k) => {
      await sleep((k * CHUNK_MS * recorderChunks().length) / rooms);
      for (let wave = 0; wave < waves; wave++) {
        const c = await recordAndStop(core, handlers, templateId, `room ${k + 1} consult ${wave + 1}`, consults);
        waveOf.set(c.id, wave);
      }
    }),
  );
  const lags: PollOutcome['lags'] = [];
  const toRelay: number[] = [];
  const toPc: number[] = [];
  let consultMinutes = 0;
  for (const id of consults.keys()) {
    const job = JSON.parse(readFileSync(join(dirname(core.recordings.audioPath(id)), 'job.json'), 'utf8')) as JobRecord;
    const sent = Date.parse(job.scribeRequestSentAt ?? '');
    const saved = Date.parse(job.completedAt ?? '');
    const ready = sent + scribeSeconds * 1000;
    lags.push({ wave: waveOf.get(id) ?? 0, ms: saved - ready });
    consultMinutes += (saved - sent) / 60_000;
    const key = `${job.scribeId}:scribed`;
    const atRelay = relay?.delivered.get(key);
    const atPc = heard.get(key);
    if (atRelay !== undefined) toRelay.push(atRelay - ready);
    if (atPc !== undefined) toPc.push(atPc - ready);
  }
  if (relay && core.relay.status().state !== 'connected') relayDrops.push(`${core.relay.status().state} at the end`);
  const { polls: gets, statusPages: pages } = core.pipeline.counters;
  await core.stop();
  rmSync(core.options.dataDir, { recursive: true, force: true });
  return { side: side.name, scribeSeconds, lags, consultMinutes, gets, pages, relayDrops, toRelay, toPc };
}

if (POLL_CONSULTS > 0 && POLL_SPREAD.length > 0) {
  progress(
    `polling: ${POLL_CONSULTS} rooms × ${POLL_WAVES} consults per side, notes taking ${POLL_SPREAD.join(', ')} s, all sides at once`,
  );
  const sandboxes = await Promise.all(
    POLL_SPREAD.map((scribeSeconds) => startSandboxProcess({ scribeSeconds, rateLimitPerMinute: 0 })),
  );
  // One clinic relay per sandbox, each sandbox delivering its signed events to its own.
  const relays = await Promise.all(sandboxes.map((s) => startRelayFor(s)));
  const started = performance.now();
  const outcomes = await Promise.all(
    POLL_SPREAD.flatMap((scribeSeconds, i) =>
      SIDES.map((side) =>
        pollSide(sandboxes[i]!, side.relay ? relays[i]! : null, scribeSeconds, side, POLL_CONSULTS, POLL_WAVES),
      ),
    ),
  );
  const wall = performance.now() - started;
  await Promise.all(relays.map((r) => r.stop()));
  await Promise.all(sandboxes.map((s) => s.close()));
  const row = (name: string, list: PollOutcome[], from = 0, goal?: Side['goal']) => {
    const lags = list.flatMap((o) => o.lags.filter((l) => l.wave >= from).map((l) => l.ms));
    const requests = list.reduce((n, o) => n + o.gets + o.pages, 0);
    const minutes = list.reduce((n, o) => n + o.consultMinutes, 0);
    const perMinute = requests / minutes;
    const drops = list.flatMap((o) => o.relayDrops);
    const met =
      goal !== undefined &&
      (goal.median === undefined || median(lags) <= goal.median) &&
      percentile(lags, 95) <= goal.p95 &&
      perMinute <= goal.perMinute &&
      drops.length === 0;
    return [
      name,
      lags.length,
      fixed(median(lags) / 1000, 2),
      fixed(percentile(lags, 95) / 1000, 2),
      fixed(Math.max(...lags) / 1000, 2),
      // Requests are counted per engine, not per consult: only for all of an engine's consults.
      from === 0 ? list.reduce((n, o) => n + o.gets, 0) : '',
      from === 0 ? list.reduce((n, o) => n + o.pages, 0) : '',
      from === 0 ? fixed(perMinute, 2) : '',
      // Each side with a goal is judged over the whole spread of note times; the rest is for comparison.
      goal ? `${goal.text}: ${verdict(met)}` : '',
    ];
  };
  const relaySide = SIDES.find((s) => s.relay);
  const withRelay = outcomes.filter((o) => o.side === relaySide?.name);
  const relayDrops = withRelay.flatMap((o) => o.relayDrops);
  const toRelay = withRelay.flatMap((o) => o.toRelay);
  const toPc = withRelay.flatMap((o) => o.toPc);
  const notes = withRelay.reduce((n, o) => n + o.lags.length, 0);
  report.add(
    [
      "## Polling: a note fetched when it is ready, today's schedule, the learned plan and the clinic relay side by side",
      '',
      `One sandbox process per note time (\`scribeSeconds\` ${POLL_SPREAD.join(' and ')}: the sandbox takes one fixed time per process, so the spread of times is one sandbox each). Against each, three engines at once, each with ${POLL_CONSULTS} exam rooms recording ${POLL_WAVES} consults one after another (a real 5 s recording each, through the IPC handlers, the same demo account): one with the fixed schedule the app used before (1, 1, 2, 2, 3, 5, 5, 10 s, then every 15 s, a GET /scribe/get/{id} per consult per look), one with the app's defaults (the learned plan, starting from its first guess in a fresh data folder, and the status board), and one with the same defaults and the clinic relay set (settings \`relayUrl\`). All ${POLL_SPREAD.length * SIDES.length} engines run in this one process at the same time, each in a fresh data folder; wall time ${fixed(wall / 1000)} s.`,
      '',
      "- the clinic relay: the real one (src/webhook-receiver/cli.ts with `--scribe-url` and `--organization`, the secret in WEBHOOK_SECRET, deliveries kept in memory, its default 15 s heartbeat), one process per sandbox, registered as the sandbox's webhook with PUT /webhook/update, so each sandbox delivers its signed `scribe` events (requested, scribing, scribed) for all three engines' consults to it; the engine subscribes with GET /events and the app's default relay and pipeline settings (the 60 s safety net)",
      `- the relay engines were connected before their first consult and ${relayDrops.length === 0 ? 'stayed connected to the end (no other state seen)' : `**left connected**: ${relayDrops.join('; ')}`}; of their ${notes} notes, the relay accepted the \`scribed\` delivery ${fixed(median(toRelay) / 1000, 2)} s after the note was ready (median; p95 ${fixed(percentile(toRelay, 95) / 1000, 2)} s, ${toRelay.length} seen) and the engine heard it ${fixed(median(toPc) / 1000, 2)} s after (median; p95 ${fixed(percentile(toPc, 95) / 1000, 2)} s, ${toPc.length} heard)`,
      '- ready → fetched: from the moment the note is ready (the scribe request noted as sent + `scribeSeconds`) to the note saved with the job (`completedAt`)',
      '- status requests: GET /scribe/get/{id} plus GET /scribe/all pages, as each engine counted them, the same for every engine (with the relay, the GET /scribe/get that fetches an announced note counts); per consult-minute: divided by the minutes the consults spent between the scribe request and the note saved',
    ].join('\n'),
  );
  const headers = [
    'engine',
    'notes',
    'ready → fetched median s',
    'p95 s',
    'max s',
    'GET /scribe/get',
    'GET /scribe/all pages',
    'status requests per consult-minute',
    'goal',
  ];
  const rows: (string | number)[][] = [];
  for (const side of SIDES) {
    const mine = outcomes.filter((o) => o.side === side.name);
    rows.push(row(`**${side.name}**, all`, mine, 0, side.goal));
    for (const o of mine) rows.push(row(`${side.name}, ${o.scribeSeconds} s notes`, [o]));
    if (POLL_WAVES > 1) rows.push(row(`${side.name}, after the first consult of each room`, mine, 1));
  }
  report.table(headers, rows);
}

report.write();
