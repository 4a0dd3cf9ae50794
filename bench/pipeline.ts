// Pipeline benchmark: consults through the real AppCore and its IPC handler table (the path the
// window takes: recording:start with a template, recording:chunk, recording:stop, which sends the
// recording to be scribed at once) against the sandbox in another process. Measures the app's
// own time from Stop to the scribe request leaving, without the upload's transfer (goal: median
// < 50 ms), the requests each consult costs by route against the workflow's minimum, and how
// often a consult polls while the service works on its note.
//   npm run bench:pipeline [-- --consults 50 --parallel 3 --poll-seconds 60 --poll-consults 3]
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { AppCore } from '../src/main/core/app-core.ts';
import { writeJsonAtomic } from '../src/main/core/atomic-file.ts';
import { RecordingStore } from '../src/main/core/recordings/index.ts';
import { createHandlers, type HandlerTable } from '../src/main/core/ipc-handlers.ts';
import type { JobRecord } from '../src/main/core/jobs/record.ts';
import type { InvokeChannel, InvokeOutput } from '../src/shared/ipc.ts';
import type { JobState } from '../src/shared/jobs.ts';
import type { SandboxStats } from '../src/sandbox/index.ts';
import { recorderChunks, tempDir, waitForJob } from '../test/integration/support/core.ts';
import { startCoreOn } from './support/core.ts';
import { HttpTrace, routeOf, type TracedRequest } from './support/http-trace.ts';
import { progress, Report } from './support/report.ts';
import { startSandboxProcess, type SandboxProcess } from './support/sandbox-process.ts';
import { fixed, median, percentile, verdict } from './support/stats.ts';

const { values: args } = parseArgs({
  options: {
    consults: { type: 'string', default: '50' },
    parallel: { type: 'string', default: '3' },
    'poll-seconds': { type: 'string', default: '60' },
    'poll-consults': { type: 'string', default: '3' },
    'chunk-ms': { type: 'string', default: '1000' },
  },
});
const CONSULTS = Number(args.consults);
const PARALLEL = Number(args.parallel);
const POLL_SECONDS = Number(args['poll-seconds']);
const POLL_CONSULTS = Number(args['poll-consults']);
/** Chunks arrive as MediaRecorder sends them: one a second. */
const CHUNK_MS = Number(args['chunk-ms']);
const MIME = 'audio/webm;codecs=opus';
const GOAL_MEDIAN_MS = 50;

const ROUTES = {
  createSession: 'POST /scribe/recording-sessions/create',
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
  await core.stop();
  await sandbox.close();
  rmSync(core.options.dataDir, { recursive: true, force: true });
  return { core, sandbox, consults, trace, before, after, jobs, wallMs };
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
// recording meta (finish), job created, session_created, upload_url, uploaded, send time.
const SAVES_ON_PATH = 6;

// Part 1: many consults, the service answering at once.
progress(`${CONSULTS} consults, ${PARALLEL} at a time, scribeSeconds 0`);
const main = await runConsults(0, CONSULTS, PARALLEL);

interface Timing {
  id: string;
  own: number;
  total: number;
  upload: number;
  /** The parts of `own`, in order. */
  parts: number[];
}
const timings: Timing[] = [];
const missing: string[] = [];
for (const [id, c] of main.consults) {
  const job = main.jobs.get(id);
  const mine = (r: TracedRequest) =>
    (r.method === 'PUT' && job?.sessionId != null && r.path.includes(encodeURIComponent(job.sessionId))) ||
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
  timings.push({
    id,
    own: total - upload,
    total,
    upload,
    parts: [
      at('recorded') - c.stopAt,
      at('session_created') - at('recorded'),
      at('upload_url') - at('session_created'),
      at('uploaded') - at('upload_url') - upload,
      scribe.sentAt - at('uploaded'),
    ],
  });
}
const own = timings.map((t) => t.own);
const ownMedian = median(own);

const perConsult = (route: string) => delta(main, route) / CONSULTS;
const minimum = [ROUTES.createSession, ROUTES.uploadUrl, ROUTES.put, ROUTES.scribe];
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
    `- wall time ${fixed(main.wallMs / 1000)} s`,
  ].join('\n'),
);

report.add(
  [
    '## Stop → scribe request sent, without the upload',
    '',
    "(scribe request sent) − (Stop) − (upload transfer: PUT headers sent → answer read). What is left is the app's own time plus the create-session and upload-URL round trips to the sandbox on loopback.",
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
  'job saved → session saved (create-session round trip, job saved)',
  'session saved → upload URL saved (upload-URL round trip, job saved)',
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
    `- one atomic JSON write of the kind every job step ends with (write, fsync, rename, fsync of the folder; src/main/core/atomic-file.ts): median ${fixed(median(fsyncTimes))} ms, p95 ${fixed(percentile(fsyncTimes, 95))} ms (30 writes). Between Stop and the scribe request the app makes ${SAVES_ON_PATH} of them one after another.`,
    `- finishing a 5 s recording (\`RecordingStore.finish\`: the WebM read, its head rebuilt with a Duration by ts-ebml, the file rewritten and synced, meta saved): median ${fixed(median(finishTimes))} ms, p95 ${fixed(percentile(finishTimes, 95))} ms (15 recordings).`,
  ].join('\n'),
);

report.add(
  [
    '## Requests per consult',
    '',
    "The workflow's minimum per consult: create session, generate upload URL, PUT, scribe request, and at least one poll (the scribe status can only be learned by asking) = 5 requests. The templates list is fetched once when the window opens, not per consult.",
  ].join('\n'),
);
report.table(
  ['route', 'requests', 'per consult', 'minimum per consult'],
  [
    [ROUTES.createSession, delta(main, ROUTES.createSession), fixed(perConsult(ROUTES.createSession), 2), 1],
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

// Part 2: polling while the service takes its time over a note.
if (POLL_CONSULTS > 0 && POLL_SECONDS > 0) {
  progress(`${POLL_CONSULTS} consults, scribeSeconds ${POLL_SECONDS}, to see the polling`);
  const slow = await runConsults(POLL_SECONDS, POLL_CONSULTS, POLL_CONSULTS);
  const rows: (string | number)[][] = [];
  const rates: number[] = [];
  const late: number[] = [];
  for (const [id, c] of slow.consults) {
    const job = slow.jobs.get(id);
    const polls = slow.trace.requests.filter(
      (r) => routeOf(r) === ROUTES.poll && job?.scribeId && r.path.endsWith(`/${encodeURIComponent(job.scribeId)}`),
    );
    const from = c.states.scribe_requested ?? Number.NaN;
    const to = c.states.completed ?? Number.NaN;
    const minutes = (to - from) / 60_000;
    rates.push(polls.length / minutes);
    late.push(minutes * 60 - POLL_SECONDS);
    rows.push([rows.length + 1, polls.length, fixed(minutes * 60), fixed(polls.length / minutes)]);
  }
  report.add(
    [
      '## Polling while the note is being written',
      '',
      `${POLL_CONSULTS} consults in parallel against a sandbox that takes ${POLL_SECONDS} s per note (\`scribeSeconds: ${POLL_SECONDS}\`), with the app's default poll schedule (1 s, 1 s, 2 s, 2 s, 3 s, 5 s, 5 s, 10 s, then every 15 s). Time is from the scribe request's answer to the note being saved.`,
    ].join('\n'),
  );
  report.table(['consult', 'polls', 'seconds', 'polls per minute'], rows);
  report.add(
    `Median: ${fixed(median(rates))} polls per minute per consult. In part 1 (note ready at once): ${fixed(pollsPerConsult, 2)} poll per consult. ` +
      `The note was ready ${POLL_SECONDS} s after the request and saved by the app ${fixed(median(late))} s after that (median): the wait the poll schedule adds.`,
  );
}

report.write();
