// The practice-management system on a link 150 ms away: today's appointments on screen from the
// copy kept on disk beside a cold start with no copy, and a note sent into the patient's record in
// Provet (and updated after an edit) with the requests it took, side by side in one run. A real
// AppCore on its built-in sandbox and the sandbox's Provet double, as the engine's tests start it,
// driven through its IPC handler table as the window drives it; the engine reaches the double
// through a proxy that makes each of its answers `--latency-ms` late, so the rest of the sandbox
// (the scribing service the consults are made with) answers at loopback speed.
//   npm run bench:pims [-- --runs 12 --send-runs 6 --latency-ms 150]
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import type { AppCore } from '../src/main/core/app-core.ts';
import { createHandlers, type HandlerTable } from '../src/main/core/ipc-handlers.ts';
import { PROVET_USERS, type Sandbox } from '../src/sandbox/index.ts';
import type { InvokeChannel, InvokeOutput } from '../src/shared/ipc.ts';
import type { PimsDay } from '../src/shared/pims.ts';
import { firstTemplateId, recordThrough, startCore, until, waitForJob } from '../test/support/core.ts';
import { browse, signInToDouble } from '../test/main/core/pims/provet-double.ts';
import { startDelayProxy } from './support/delay-proxy.ts';
import { progress, Report } from './support/report.ts';
import { fixed, median, percentile, verdict } from './support/stats.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '12' },
    'send-runs': { type: 'string', default: '6' },
    'latency-ms': { type: 'string', default: '150' },
  },
});
const RUNS = Number(args.runs);
const SEND_RUNS = Number(args['send-runs']);
/** Added to every answer of the Provet double, as a PIMS across the internet. */
const LATENCY_MS = Number(args['latency-ms']);
if (!(RUNS >= 3 && SEND_RUNS >= 2 && LATENCY_MS >= 0)) throw new Error('--runs ≥ 3, --send-runs ≥ 2, --latency-ms ≥ 0');

const GOAL_COPY_MS = 300;
const GOAL_FRESH_MS = 2000;
const GOAL_SEND_MS = 1500;
const GOAL_REQUESTS = 3;
// Bella, the demo vet's checked-in patient of the 09:00 appointment (consultation 401).
const APPOINTMENT = '301';
const PATIENT = 'Bella';
const PATIENT_ID = 201;

async function invoke<C extends InvokeChannel>(h: HandlerTable, channel: C, input: unknown): Promise<InvokeOutput<C>> {
  const answer = await h[channel](input);
  if (!answer.ok) throw new Error(`${channel}: ${answer.error.code}: ${answer.error.message}`);
  return answer.data as InvokeOutput<C>;
}

// The sandbox's scribing answers fast; the Provet double keeps no rate limit, so that a run of a
// few dozen day reads a minute measures the link, not the double's budget (see the report).
let c: AppCore<Sandbox> | null = null;
c = await startCore({
  sandbox: { scribeSeconds: 0.3, provetRateLimit: 0 },
  openBrowser: async (url) => browse(c!.embeddedSandbox!, url, PROVET_USERS.demo),
});
const core = c;
const sandbox = core.embeddedSandbox!;
const h = createHandlers(core);
const demo = core.appInfo().sandbox?.demo;
if (!demo) throw new Error('the core has no built-in sandbox');
await core.session.signIn(demo.email, demo.password);
const proxy = await startDelayProxy(sandbox.origin, LATENCY_MS);
const address = sandbox.provet.address.replace(sandbox.origin, proxy.origin);

/** The next `pims:day` event, with the moment it came. */
function nextDay(): Promise<{ day: PimsDay; at: number }> {
  return new Promise((resolve) => {
    const on = (day: PimsDay) => {
      core.off('pims:day', on);
      resolve({ day, at: performance.now() });
    };
    core.on('pims:day', on);
  });
}

/** The REST API requests the double counted, per route (the sign-in's and the double's own control left out). */
function apiRequests(): Map<string, number> {
  return new Map(Object.entries(sandbox.provet.requests()).filter(([route]) => route.includes(' api/0.1/')));
}
function requestsSince(before: Map<string, number>): Map<string, number> {
  const since = new Map<string, number>();
  for (const [route, n] of apiRequests())
    if (n - (before.get(route) ?? 0) > 0) since.set(route, n - (before.get(route) ?? 0));
  return since;
}
const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

/** A fresh connection for the call that follows, as after a vet's minutes away from the app. */
async function coldLink(): Promise<void> {
  proxy.closeIdle();
  await sleep(50);
}

progress(`signing in to the Provet double through a proxy ${LATENCY_MS} ms late`);
const started = performance.now();
const firstDay = nextDay();
await invoke(h, 'pims:signIn', { address, clientId: sandbox.provet.clientId });
const expected = (await firstDay).day.appointments.map((a) => a.id);
if (expected.length === 0) throw new Error('the double listed no appointments for today');
await sleep(300);

// 1. Today's list: warm (the copy on disk) and cold (no copy), taking turns.
const todayDir = join(core.options.dataDir, 'pims', 'today');
const warm = { answer: [] as number[], fresh: [] as number[], requests: [] as number[] };
const cold = { answer: [] as number[], fresh: [] as number[], requests: [] as number[] };
const refresh = { time: [] as number[], requests: [] as number[] };
const wrongLists: string[] = [];
const checkList = (what: string, day: PimsDay) => {
  const ids = day.appointments.map((a) => a.id).join(',');
  if (ids !== expected.join(',') || day.problem) wrongLists.push(`${what}: [${ids}] ${day.problem ?? ''}`);
};
for (let run = 0; run < RUNS; run++) {
  progress(`today's list, run ${run + 1} of ${RUNS}`);
  for (const side of [warm, cold]) {
    if (side === cold) rmSync(todayDir, { recursive: true, force: true });
    await coldLink();
    const event = nextDay();
    const before = apiRequests();
    const t0 = performance.now();
    const now = await invoke(h, 'pims:today', undefined);
    side.answer.push(performance.now() - t0);
    if (side === warm) checkList('the copy', now);
    else if (now.appointments.length > 0) wrongLists.push('a cold start answered with a list it cannot have had');
    const fresh = await event;
    side.fresh.push(fresh.at - t0);
    side.requests.push(total(requestsSince(before)));
    checkList('the fresh list', fresh.day);
  }
  await coldLink();
  const before = apiRequests();
  const t0 = performance.now();
  checkList('pims:refreshToday', await invoke(h, 'pims:refreshToday', undefined));
  refresh.time.push(performance.now() - t0);
  refresh.requests.push(total(requestsSince(before)));
}

// 2. Send to Provet, and Update in Provet after an edit: a consult per run, its note removed from
// the double afterwards (outside what is measured) so that the next run writes it afresh.
const cleaner = await signInToDouble(sandbox);
const templateId = await firstTemplateId(core);
const sends = { time: [] as number[], requests: [] as number[], routes: new Map<string, number>() };
const updates = { time: [] as number[], requests: [] as number[], routes: new Map<string, number>() };
const wrongNotes: string[] = [];
const notesOfPatient = () => sandbox.provet.notes().filter((n) => n.patient === PATIENT_ID);
for (let run = 0; run < SEND_RUNS; run++) {
  progress(`send to Provet, run ${run + 1} of ${SEND_RUNS}`);
  const id = await recordThrough(h, PATIENT);
  await invoke(h, 'consults:submit', { id, templateId });
  const job = await waitForJob(core, id, (j) => j.state === 'completed' || j.state === 'failed', 60_000);
  if (job.state !== 'completed') throw new Error(`the consult's note failed: ${job.error?.message ?? '?'}`);
  await until(() => core.access.consultFor(id).stage === 'ready');
  await invoke(h, 'pims:link', { id, appointmentId: APPOINTMENT });
  for (const [side, edit] of [
    [sends, null],
    [updates, `Plan: recheck in ${run + 7} days.`],
  ] as const) {
    if (edit) {
      await invoke(h, 'consults:saveNote', { id, text: `${core.notes.formats(id).text}\n${edit}` });
      const state = await invoke(h, 'pims:noteState', { id });
      if (!state.changedSinceSent) wrongNotes.push(`run ${run + 1}: the edit did not offer an update`);
    }
    await coldLink();
    const before = apiRequests();
    const t0 = performance.now();
    const state = await invoke(h, 'pims:send', { id });
    side.time.push(performance.now() - t0);
    const since = requestsSince(before);
    side.requests.push(total(since));
    for (const [route, n] of since) side.routes.set(route, (side.routes.get(route) ?? 0) + n);
    const held = notesOfPatient();
    if (state.state !== 'sent') wrongNotes.push(`run ${run + 1}: ${state.state} ${state.problem ?? ''}`);
    if (held.length !== 1) wrongNotes.push(`run ${run + 1}: the double holds ${held.length} notes for ${PATIENT}`);
    else if (!held[0]!.text.includes(core.notes.formats(id).text.trimEnd()))
      wrongNotes.push(`run ${run + 1}: the double's note is not the vet's text`);
  }
  for (const note of notesOfPatient())
    await cleaner.tokens.withToken(async (token) => {
      const url = `${cleaner.instance.api}consultation/${note.consultation}/consultationnote/${note.id}/`;
      const answer = await request(url, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
      await answer.body.dump();
      if (answer.statusCode !== 204)
        throw new Error(`the note could not be removed from the double (${answer.statusCode})`);
      return answer.statusCode;
    });
}
const wall = performance.now() - started;
await proxy.close();
await core.stop();
rmSync(core.options.dataDir, { recursive: true, force: true });

const report = new Report(
  LATENCY_MS === 150 ? 'pims' : `pims-latency-${LATENCY_MS}`,
  `The practice-management system ${LATENCY_MS} ms away: today's list and a note sent to Provet`,
);
report.add(
  [
    '## Setup',
    '',
    `- the real AppCore on its built-in sandbox (in this process, as in the app's demo) and the sandbox's Provet double, driven through the IPC handler table; the engine reaches the double through a proxy that makes every answer ${LATENCY_MS} ms late (the rest of the sandbox answers at loopback speed); signed in to the double through its own sign-in page as the demo vet (hale)`,
    "- the double's rate limits are off for the run: the day is read with `page_size=100`, which the double (like Provet) counts as 2 requests of the appointment list's 300 a minute, and the runs below read it often enough to spend that and wait for `Retry-After`",
    "- before each timed call the proxy closes the connections kept open, so each call opens one afresh, as after a vet's minutes away; a real link's TCP and TLS handshakes (one or two more round trips on a new connection) are not simulated",
    `- today's list, ${RUNS} runs, the two sides taking turns: **from the copy**, \`pims:today\` with the copy of the day on disk (its answer, then the \`pims:day\` event with the list read again behind it); **cold start**, the same with the copy removed first (the answer is empty; the event brings the list); and \`pims:refreshToday\` asked directly`,
    `- send, ${SEND_RUNS} runs: a consult of ${PATIENT} recorded and scribed, linked to the checked-in appointment ${APPOINTMENT}, then \`pims:send\` (written, then read back to confirm it) and, after the note was edited (\`consults:saveNote\`), \`pims:send\` again as "Update in Provet"; requests counted by the double per route (REST API only); the note removed from the double through its API after each run, outside the figures`,
    `- wall time ${fixed(wall / 1000)} s`,
  ].join('\n'),
);
report.add("## Today's list");
const reads = (requests: number[]) =>
  Math.min(...requests) === Math.max(...requests)
    ? String(requests[0])
    : `${Math.min(...requests)}–${Math.max(...requests)}`;
report.table(
  ['', 'runs', 'median ms', 'p95 ms', 'goal', 'verdict', 'requests per read'],
  [
    [
      '`pims:today` answered, from the copy',
      warm.answer.length,
      fixed(median(warm.answer)),
      fixed(percentile(warm.answer, 95)),
      `< ${GOAL_COPY_MS} ms (p95)`,
      verdict(percentile(warm.answer, 95) < GOAL_COPY_MS),
      '',
    ],
    [
      'fresh list (`pims:day`), with a copy on screen',
      warm.fresh.length,
      fixed(median(warm.fresh)),
      fixed(percentile(warm.fresh, 95)),
      `< ${GOAL_FRESH_MS} ms (p95)`,
      verdict(percentile(warm.fresh, 95) < GOAL_FRESH_MS),
      reads(warm.requests),
    ],
    [
      '`pims:today` answered, cold start (no copy: empty)',
      cold.answer.length,
      fixed(median(cold.answer)),
      fixed(percentile(cold.answer, 95)),
      '',
      '',
      '',
    ],
    [
      'fresh list (`pims:day`), cold start',
      cold.fresh.length,
      fixed(median(cold.fresh)),
      fixed(percentile(cold.fresh, 95)),
      `< ${GOAL_FRESH_MS} ms (p95)`,
      verdict(percentile(cold.fresh, 95) < GOAL_FRESH_MS),
      reads(cold.requests),
    ],
    [
      '`pims:refreshToday` asked directly',
      refresh.time.length,
      fixed(median(refresh.time)),
      fixed(percentile(refresh.time, 95)),
      '',
      '',
      reads(refresh.requests),
    ],
  ],
);
report.add(
  wrongLists.length === 0
    ? `Every list was the day's ${expected.length} appointments, in the order shown, with no problem said.`
    : `**Lists not as expected** (${wrongLists.length}): ${wrongLists.slice(0, 5).join('; ')}`,
);
report.add('## Send to Provet → confirmed in the record');
const perRoute = (m: Map<string, number>, runs: number) =>
  [...m].map(([route, n]) => `\`${route}\` ×${fixed(n / runs, n % runs === 0 ? 0 : 1)}`).join(', ');
report.table(
  [
    '',
    'runs',
    'median ms',
    'p95 ms',
    'goal',
    'verdict',
    'requests per patient (max)',
    'goal',
    'verdict',
    'requests per send, by route',
  ],
  [sends, updates].map((side) => [
    side === sends ? '"Send to Provet"' : '"Update in Provet" after an edit',
    side.time.length,
    fixed(median(side.time)),
    fixed(percentile(side.time, 95)),
    `< ${GOAL_SEND_MS} ms (p95)`,
    verdict(percentile(side.time, 95) < GOAL_SEND_MS),
    Math.max(...side.requests),
    `≤ ${GOAL_REQUESTS}`,
    verdict(Math.max(...side.requests) <= GOAL_REQUESTS),
    perRoute(side.routes, side.time.length),
  ]),
);
report.add(
  wrongNotes.length === 0
    ? `After each send the double held exactly one note for ${PATIENT}, with the vet's text (the edited one after the update).`
    : `**Notes not as expected** (${wrongNotes.length}): ${wrongNotes.slice(0, 5).join('; ')}`,
);
report.write();
if (wrongLists.length + wrongNotes.length > 0) process.exitCode = 1;
