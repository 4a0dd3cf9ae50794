// Stop → first upload byte: how long the vet's Stop waits before the audio starts leaving, with
// the recording session and its upload address asked for at Stop (as before) and while recording
// (now), side by side in one run: two engines at once against one sandbox process, each driven
// through its IPC handler table as the window drives it (recording:start with the patient's name
// and a template, one chunk a second of a real 5 s MediaRecorder recording, recording:stop).
// The PUT is seen through node:http's diagnostics channel: its headers leave with its first bytes.
//   npm run bench:stop-upload [-- --consults 10 --rooms 2 --latency-ms 0]
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { AppCore } from '../src/main/core/app-core.ts';
import { createHandlers, type HandlerTable } from '../src/main/core/ipc-handlers.ts';
import type { PipelineOptions } from '../src/main/core/jobs/pipeline.ts';
import type { JobRecord } from '../src/main/core/jobs/record.ts';
import type { InvokeChannel, InvokeOutput } from '../src/shared/ipc.ts';
import { recorderChunks, waitForJob } from '../test/support/core.ts';
import { startCoreOn } from './support/core.ts';
import { HttpTrace, routeOf } from './support/http-trace.ts';
import { progress, Report } from './support/report.ts';
import { startSandboxProcess } from './support/sandbox-process.ts';
import { fixed, median, percentile } from './support/stats.ts';

const { values: args } = parseArgs({
  options: {
    consults: { type: 'string', default: '10' },
    rooms: { type: 'string', default: '2' },
    'latency-ms': { type: 'string', default: '0' },
  },
});
const CONSULTS = Number(args.consults);
const ROOMS = Number(args.rooms);
/** The sandbox's added time per request, for a service further away than loopback. */
const LATENCY_MS = Number(args['latency-ms']);
const CHUNK_MS = 1000;
const MIME = 'audio/webm;codecs=opus';

interface Side {
  name: string;
  pipeline: Partial<PipelineOptions>;
}
const SIDES: Side[] = [
  { name: 'session asked for at Stop (before)', pipeline: { earlyRecordingSession: false } },
  // Consults of 5 s: asked for 1.5 s after the name was set, not after the minute of audio the app waits for.
  {
    name: 'session made while recording (now)',
    pipeline: { earlyRecordingSessionDelayMs: 1500, earlyRecordingSessionAfterMs: 0 },
  },
];

async function invoke<C extends InvokeChannel>(h: HandlerTable, channel: C, input: unknown): Promise<InvokeOutput<C>> {
  const answer = await h[channel](input);
  if (!answer.ok) throw new Error(`${channel}: ${answer.error.code}: ${answer.error.message}`);
  return answer.data as InvokeOutput<C>;
}

interface Outcome {
  side: string;
  stops: Map<string, number>;
  jobs: Map<string, JobRecord>;
  counters: AppCore['pipeline']['counters'];
}

async function runSide(urls: Parameters<typeof startCoreOn>[0], demo: unknown, side: Side): Promise<Outcome> {
  const core = await startCoreOn(urls, { pipeline: side.pipeline });
  const h = createHandlers(core);
  await invoke(h, 'session:signIn', demo);
  const templateId = (await invoke(h, 'templates:list', { page: 1 })).items[0]?.id;
  if (!templateId) throw new Error('the sandbox listed no templates');
  const stops = new Map<string, number>();
  let n = 0;
  await Promise.all(
    Array.from({ length: ROOMS }, async (_, k) => {
      await sleep((k * CHUNK_MS * recorderChunks().length) / ROOMS);
      for (let i = 0; i < CONSULTS / ROOMS; i++) {
        const label = `consult ${++n}`;
        const meta = await invoke(h, 'recording:start', { mimeType: MIME, label, patientName: label, templateId });
        const started = performance.now();
        for (const [seq, chunk] of recorderChunks().entries()) {
          await sleep(Math.max(0, started + (seq + 1) * CHUNK_MS - performance.now()));
          await invoke(h, 'recording:chunk', { id: meta.id, seq, data: chunk, elapsedMs: (seq + 1) * 1000 });
        }
        stops.set(meta.id, performance.now());
        await invoke(h, 'recording:stop', { id: meta.id, durationMs: 5000 });
        const job = await waitForJob(core, meta.id, (j) => j.state === 'completed' || j.state === 'failed', 120_000);
        if (job.state !== 'completed') throw new Error(`${label} failed: ${job.error?.message ?? '?'}`);
      }
    }),
  );
  const jobs = new Map<string, JobRecord>();
  for (const id of stops.keys())
    jobs.set(
      id,
      JSON.parse(readFileSync(join(dirname(core.recordings.audioPath(id)), 'job.json'), 'utf8')) as JobRecord,
    );
  const counters = { ...core.pipeline.counters };
  await core.stop();
  rmSync(core.options.dataDir, { recursive: true, force: true });
  return { side: side.name, stops, jobs, counters };
}

progress(`${CONSULTS} consults per side, ${ROOMS} rooms each, both sides at once against one sandbox`);
const sandbox = await startSandboxProcess({ scribeSeconds: 0, rateLimitPerMinute: 0, latencyMs: LATENCY_MS });
const trace = new HttpTrace().start();
const started = performance.now();
const outcomes = await Promise.all(SIDES.map((side) => runSide(sandbox.urls, sandbox.demo, side)));
const wall = performance.now() - started;
trace.stop();
await sandbox.close();

const report = new Report(
  LATENCY_MS ? `stop-upload-latency-${LATENCY_MS}` : 'stop-upload',
  'Stop → first upload byte: the session asked for at Stop and while recording',
);
report.add(
  [
    '## Setup',
    '',
    `- two engines (the real AppCore, default pipeline settings but for the one option compared) at once in this process against one sandbox process (\`scribeSeconds: 0\`, no rate limit), each with ${ROOMS} exam rooms recording ${CONSULTS / ROOMS} consults one after another: ${CONSULTS} per engine, driven through the IPC handler table (\`recording:start\` with the patient's name and a template, five \`recording:chunk\` calls one a second, \`recording:stop\`)`,
    '- one engine asks for the recording session and its upload address at Stop (`earlyRecordingSession: false`, as the app did before); the other asks for them while recording, 1.5 s after the name was last set (the app waits 10 s, and for a minute of audio, which these 5 s consults never reach)',
    "- Stop: the moment `recording:stop` is called; first upload byte: the PUT's start in node:http's diagnostics channel (its headers leave with its first body bytes); scribe request: its headers sent (undici)",
    `- wall time ${fixed(wall / 1000)} s`,
  ].join('\n'),
);
const rows = outcomes.map((o) => {
  const toPut: number[] = [];
  const toScribe: number[] = [];
  for (const [id, stopAt] of o.stops) {
    const job = o.jobs.get(id);
    const put = trace.requests.find(
      (r) =>
        r.method === 'PUT' &&
        job?.recordingSessionId != null &&
        r.path.includes(encodeURIComponent(job.recordingSessionId)),
    );
    const scribe = trace.requests.find(
      (r) => routeOf(r).endsWith('/scribe/request') && r.idempotencyKey === job?.idempotencyKey,
    );
    if (put?.sentAt != null) toPut.push(put.sentAt - stopAt);
    if (scribe?.sentAt != null) toScribe.push(scribe.sentAt - stopAt);
  }
  const c = o.counters;
  return [
    o.side,
    `${toPut.length} of ${o.stops.size}`,
    fixed(median(toPut)),
    fixed(percentile(toPut, 95)),
    fixed(median(toScribe)),
    fixed(percentile(toScribe, 95)),
    `${c.earlyRecordingSessions} / ${c.earlyRecordingSessionsUsed} / ${c.earlyRecordingSessionsUnused}`,
  ];
});
report.table(
  [
    'engine',
    'consults measured',
    'Stop → first upload byte, median ms',
    'p95 ms',
    'Stop → scribe request sent, median ms',
    'p95 ms',
    'sessions made while recording / used / unused',
  ],
  rows,
);
report.write();
