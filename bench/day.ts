// A clinic PC's day, compressed: 200 consults (`--consults`) recorded through the real window
// (the browser host: the engine under Node, the window in Chromium with the fake microphone),
// one after the other as one exam room works. For each the vet types the name, records a few
// seconds, stops, waits for the Record view's card to say "Note ready", opens the note and
// scrolls through it; every tenth consult a former patient is searched for and opened, and every
// tenth (offset five) the note is edited and saved. The service is the sandbox in a process of
// its own, behind a pass-through proxy that notes when each request arrives; the app talks to it
// as "other addresses", so the engine's process holds the app alone.
//
// Measured every 20 consults: the engine's RSS (/proc) and V8 heap after a full collection (its
// own inspector), its open file handles (/proc/<pid>/fd) and the resources keeping its event loop
// alive (process.getActiveResourcesInfo); the window's JS heap after a full collection and its
// DOM counters (nodes, JS event listeners) over CDP. And for each consult, Stop (the click, as the
// window saw it) -> the scribe request arriving at the service.
//   npm run bench:day [-- --consults 200 --record-seconds 3 --scribe-seconds 2]
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type CDPSession, type Page } from '@playwright/test';
import config from '../playwright.config.ts';
import { expect, go, signIn } from '../test/e2e/fixtures.ts';
import { shownSeconds } from '../test/e2e/support/consults.ts';
import { BrowserHost } from '../test/e2e/support/test-host.ts';
import { childWith } from './support/browser-proc.ts';
import { buildRenderer, CHROMIUM_PATH } from './support/browser-session.ts';
import { NodeInspector } from './support/node-inspector.ts';
import { progress, Report } from './support/report.ts';
import { startSandboxProcess } from './support/sandbox-process.ts';
import { fixed, median, percentile, verdict } from './support/stats.ts';
import { startTimingProxy } from './support/timing-proxy.ts';

const { values: args } = parseArgs({
  options: {
    consults: { type: 'string', default: '200' },
    'record-seconds': { type: 'string', default: '3' },
    'scribe-seconds': { type: 'string', default: '2' },
    every: { type: 'string', default: '20' },
  },
});
const whole = (name: keyof typeof args, min: number): number => {
  const n = Number(args[name]);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`--${name} takes a whole number of at least ${min}, not "${String(args[name])}"`);
  return n;
};
const COUNT = whole('consults', 40);
const RECORD_S = whole('record-seconds', 1);
const SCRIBE_S = whole('scribe-seconds', 0);
const EVERY = whole('every', 5);
// The two points the goals compare: early in the day (after the first 20) and at its end.
const EARLY = EVERY;
const MB = 1024 * 1024;

// Goals: a day costs no more than a few early consults. Memory: within 30 MB (engine RSS and heap)
// and 20 MB (window heap) of where it stood after consult 20. Handles and listeners "flat": a leak
// of one per consult would add 180; the margins allow what a few open notes legitimately hold.
const ENGINE_GOAL_MB = 30;
const WINDOW_GOAL_MB = 20;
const FD_MARGIN = 10;
const LISTENER_MARGIN = 100;
const RESOURCE_MARGIN = 10;
// Stop -> scribe request: the p95 of the day's last 20 consults against that of consults 1-20,
// with 20 % and 50 ms of room for a busy machine's noise.
const STOP_RATIO = 1.2;
const STOP_SLACK_MS = 50;

const NAMES = ['Bella', 'Max', 'Luna', 'Charlie', 'Milo', 'Daisy', 'Rocky', 'Coco', 'Oscar', 'Pepper'];
const patientOf = (i: number) => `${NAMES[i % NAMES.length]} ${i}`;

// Runs in the window before its own scripts: the moment of each Stop press, as the window saw it.
const INSTRUMENT = `(() => {
  const stops = (window.__stops = []);
  document.addEventListener('click', (e) => {
    const button = e.target instanceof Element ? e.target.closest('button') : null;
    if (button && button.textContent && button.textContent.trim() === 'Stop recording') stops.push(Date.now());
  }, true);
})();`;

interface Sample {
  consult: number;
  engineRssMb: number;
  engineHeapMb: number;
  engineFds: number;
  engineResources: number;
  windowHeapMb: number;
  windowNodes: number;
  windowListeners: number;
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

async function sample(consult: number, pid: number, engine: NodeInspector, cdp: CDPSession): Promise<Sample> {
  const engineHeap = await engine.heapUsedAfterGc();
  const engineResources = await engine.evaluate<number>('process.getActiveResourcesInfo().length');
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const counters = await cdp.send('Memory.getDOMCounters');
  return {
    consult,
    engineRssMb: rssMb(pid),
    engineHeapMb: engineHeap / MB,
    engineFds: readdirSync(`/proc/${pid}/fd`).length,
    engineResources,
    windowHeapMb: usedSize / MB,
    windowNodes: counters.nodes,
    windowListeners: counters.jsEventListeners,
  };
}

/** One consult as a vet records it from the Record view, up to the note open on screen. */
async function oneConsult(page: Page, i: number): Promise<void> {
  await go(page, 'Record');
  await page.getByRole('textbox', { name: "Patient's name" }).fill(patientOf(i));
  await page.getByRole('button', { name: 'Start recording', exact: true }).click();
  await expect
    .poll(() => shownSeconds(page), { timeout: RECORD_S * 1000 + 30_000, intervals: [200] })
    .toBeGreaterThanOrEqual(RECORD_S);
  await page.getByRole('button', { name: 'Stop recording', exact: true }).click();
  const card = page.getByRole('region', { name: 'Note ready' });
  await expect(card).toBeVisible({ timeout: SCRIBE_S * 1000 + 120_000 });
  await card.getByRole('button', { name: 'Open note', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Note' })).toBeVisible();
  // Reading: down the note and back.
  for (let k = 0; k < 4; k++) await page.mouse.wheel(0, 400);
  await page.mouse.wheel(0, -1600);
  if (i % 10 === 5) {
    await page.getByRole('button', { name: 'More', exact: true }).click();
    await page.getByRole('button', { name: 'Edit note' }).click();
    await page
      .getByRole('group', { name: 'Edit note' })
      .getByRole('textbox')
      .first()
      .fill(`Carprofen 4 mg/kg once daily. Recheck in ${i % 14} days.`);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.locator('.note-view .row .badge')).toHaveText(/^Edited by you at /);
  }
  if (i % 10 === 0 && i > 5) {
    const former = patientOf(i - 5);
    await go(page, 'Consults');
    await page.getByRole('searchbox', { name: 'Search' }).fill(former);
    const row = page.getByRole('main').getByRole('article', { name: new RegExp(`^${former}\\b`) });
    await row.getByRole('button', { name: 'Open note' }).click();
    await expect(page.getByRole('heading', { name: new RegExp(former) }).first()).toBeVisible();
    await go(page, 'Consults');
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
  }
}

const report = new Report('day', `A day at the exam-room PC: ${COUNT} consults through the window and the engine`);
const work = mkdtempSync(join(tmpdir(), 'vet-scribe-bench-day-'));
const sandbox = await startSandboxProcess({ scribeSeconds: SCRIBE_S });
const proxy = await startTimingProxy(sandbox.origin);
const viaProxy = (url: string) => url.replace(sandbox.origin, proxy.origin);
const dataDir = join(work, 'data');
mkdirSync(dataDir);
const logFile = join(work, 'host.log');
writeFileSync(logFile, '');
const rendererDir = join(work, 'renderer');
progress('building the window…');
buildRenderer(rendererDir);
const host = new BrowserHost({
  dataDir,
  rendererDir,
  sandbox: {},
  logFile,
  tokenLog: join(work, 'tokens.txt'),
  nodeArgs: ['--inspect=127.0.0.1:0'],
});
const samples: Sample[] = [];
let stops: number[] | undefined;
try {
  await host.start();
  const pid = childWith(dataDir);
  if (pid === null) throw new Error(`the host process for ${dataDir} was not found in /proc`);
  const engine = await NodeInspector.connect(() => host.stderr);
  await host.call('settings:update', {
    useSandbox: false,
    serviceUrls: {
      agentsUrl: viaProxy(sandbox.urls.agents_url),
      scribeUrl: viaProxy(sandbox.urls.scribe_url),
      agentsApiUrl: viaProxy(sandbox.urls.agents_api_url),
    },
  });
  const project = config.projects?.find((p) => p.name === 'browser');
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: project?.use?.launchOptions?.args ?? [],
  });
  try {
    const context = await browser.newContext({
      permissions: project?.use?.permissions ?? [],
      viewport: config.use?.viewport ?? null,
    });
    await context.addInitScript(INSTRUMENT);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await host.open(page);
    await signIn(page, sandbox.demo);
    // The first consult's template; the window remembers it for the vet from then on.
    await go(page, 'Record');
    await page.getByRole('combobox', { name: 'Template' }).selectOption({ label: 'SOAP' });
    const began = Date.now();
    for (let i = 1; i <= COUNT; i++) {
      await oneConsult(page, i);
      if (i % EVERY === 0) {
        const s = await sample(i, pid, engine, cdp);
        samples.push(s);
        progress(
          `consult ${i}: engine ${fixed(s.engineRssMb)} MB RSS, heap ${fixed(s.engineHeapMb)} MB, ${s.engineFds} fds; window heap ${fixed(s.windowHeapMb)} MB, ${s.windowListeners} listeners (${fixed((Date.now() - began) / 60_000)} min)`,
        );
      }
    }
    stops = await page.evaluate<number[]>('window.__stops');
  } finally {
    await browser.close();
    engine.close();
  }
} finally {
  await host.stop();
  await proxy.close();
  await sandbox.close();
}

// Each consult's scribe request, in order: the day records one consult at a time.
const requests = proxy.arrived
  .filter((r) => r.method === 'POST' && r.path.endsWith('/scribe/request'))
  .map((r) => r.at);
if (!stops || requests.length !== COUNT || stops.length !== COUNT)
  throw new Error(`${COUNT} consults gave ${stops?.length ?? 0} Stop presses and ${requests.length} scribe requests`);
const stopToScribe = stops.map((at, i) => requests[i]! - at);
const early = stopToScribe.slice(0, EARLY);
const late = stopToScribe.slice(-EARLY);

report.table(
  [
    'after consult',
    'engine RSS (MB)',
    'engine heap (MB)',
    'engine fds',
    'engine active resources',
    'window JS heap (MB)',
    'window DOM nodes',
    'window JS listeners',
  ],
  samples.map((s) => [
    s.consult,
    fixed(s.engineRssMb),
    fixed(s.engineHeapMb),
    s.engineFds,
    s.engineResources,
    fixed(s.windowHeapMb),
    s.windowNodes,
    s.windowListeners,
  ]),
);

const first = samples.find((s) => s.consult === EARLY)!;
const last = samples.at(-1)!;
const rows: (string | number)[][] = [
  [
    'engine RSS',
    `${fixed(last.engineRssMb - first.engineRssMb)} MB`,
    `≤ ${ENGINE_GOAL_MB} MB`,
    verdict(last.engineRssMb - first.engineRssMb <= ENGINE_GOAL_MB),
  ],
  [
    'engine heap',
    `${fixed(last.engineHeapMb - first.engineHeapMb)} MB`,
    `≤ ${ENGINE_GOAL_MB} MB`,
    verdict(last.engineHeapMb - first.engineHeapMb <= ENGINE_GOAL_MB),
  ],
  [
    'window JS heap',
    `${fixed(last.windowHeapMb - first.windowHeapMb)} MB`,
    `≤ ${WINDOW_GOAL_MB} MB`,
    verdict(last.windowHeapMb - first.windowHeapMb <= WINDOW_GOAL_MB),
  ],
  [
    'engine open files',
    `${last.engineFds - first.engineFds}`,
    `≤ ${FD_MARGIN}`,
    verdict(last.engineFds - first.engineFds <= FD_MARGIN),
  ],
  [
    'engine active resources',
    `${last.engineResources - first.engineResources}`,
    `≤ ${RESOURCE_MARGIN}`,
    verdict(last.engineResources - first.engineResources <= RESOURCE_MARGIN),
  ],
  [
    'window JS event listeners',
    `${last.windowListeners - first.windowListeners}`,
    `≤ ${LISTENER_MARGIN}`,
    verdict(last.windowListeners - first.windowListeners <= LISTENER_MARGIN),
  ],
];
const earlyP95 = percentile(early, 95);
const lateP95 = percentile(late, 95);
rows.push([
  'Stop → scribe request, p95',
  `${fixed(earlyP95, 0)} ms (consults 1–${EARLY}) → ${fixed(lateP95, 0)} ms (last ${EARLY})`,
  `≤ ×${STOP_RATIO} + ${STOP_SLACK_MS} ms`,
  verdict(lateP95 <= earlyP95 * STOP_RATIO + STOP_SLACK_MS),
]);
report.add(`## Consult ${EARLY} against consult ${last.consult}`);
report.table(['figure', `change from consult ${EARLY} to ${last.consult}`, 'goal', 'verdict'], rows);
report.add(
  `Stop → scribe request over the whole day: median ${fixed(median(stopToScribe), 0)} ms, p95 ${fixed(percentile(stopToScribe, 95), 0)} ms, max ${fixed(Math.max(...stopToScribe), 0)} ms (${COUNT} consults, ${RECORD_S} s recorded each, notes ready ${SCRIBE_S} s after the request).

How: the browser host on a data folder of its own, started with \`--inspect=127.0.0.1:0\`; the engine's V8 heap from its inspector (\`HeapProfiler.collectGarbage\` twice, then \`Runtime.getHeapUsage\`), its RSS from /proc/<pid>/status, open files from /proc/<pid>/fd, active resources from \`process.getActiveResourcesInfo()\`. The window's heap over CDP after two collections, its DOM counters from \`Memory.getDOMCounters\`. The service is the sandbox in its own process behind a pass-through proxy (bench/support/timing-proxy.ts) that notes the arrival of each request; Stop is the click as the window saw it (a capture listener), on the same machine's clock.`,
);
report.write();
rmSync(work, { recursive: true, force: true });
