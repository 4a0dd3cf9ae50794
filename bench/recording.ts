// Recording benchmark: a long consult recorded from the fake microphone in Chromium, through the
// real window and the real core (the browser host of the end-to-end suite). Measures the
// window's JS heap growth (goal < 10 MB), how far the audio on disk lags behind the clock
// (goal <= 2 s), the final file's duration against the time between Start and Stop (goal
// within 1 s), and the CPU the window and the engine take while recording.
//   npm run bench:recording [-- --minutes 10]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { CDPSession, Page } from '@playwright/test';
import type { RecordingMeta } from '../src/main/core/recordings/index.ts';
import { scanWebm } from '../src/main/core/recordings/webm-duration.ts';
import { expect, start } from '../test/e2e/fixtures.ts';
import { probeSeconds, record } from '../test/e2e/support/consults.ts';
import { chromiumType, cpuSeconds, descendants } from './support/browser-proc.ts';
import { openWorld } from './support/browser-session.ts';
import { progress, Report } from './support/report.ts';
import { fixed, median, percentile, verdict } from './support/stats.ts';

const { values: args } = parseArgs({ options: { minutes: { type: 'string', default: '10' } } });
const MINUTES = Number(args.minutes);
if (!(MINUTES > 0)) throw new Error(`--minutes takes a positive number, not "${args.minutes}"`);
const RECORD_MS = MINUTES * 60_000;
const HEAP_GOAL_MB = 10;
const LAG_GOAL_MS = 2000;
const DURATION_GOAL_MS = 1000;
const MB = 1024 * 1024;
/** Reading the whole WebM costs ~80 ms at 10 min; every 10 s keeps the bench's own CPU out of the way. */
const SCAN_EVERY_MS = 10_000;
/** A heap sample forces a GC in the window, so the trend is sampled sparsely. */
const HEAP_EVERY_MS = Math.min(60_000, Math.max(10_000, RECORD_MS / 10));
const SILENCE_TEXT = 'No sound from the microphone';
const FIXTURE = 'test/fixtures/audio/consult.wav';

// Runs in the window before its own scripts: notes the moments Start and Stop are pressed and
// the recorder starts, and counts silence warnings, without touching the app.
const INSTRUMENT = `(() => {
  const b = (window.__bench = { presses: {}, recorderStarts: [], silenceWarnings: 0 });
  const origStart = MediaRecorder.prototype.start;
  MediaRecorder.prototype.start = function (...a) {
    b.recorderStarts.push(Date.now());
    return origStart.apply(this, a);
  };
  document.addEventListener('click', (e) => {
    const button = e.target instanceof Element ? e.target.closest('button') : null;
    const name = button?.textContent?.trim();
    if (name === 'Start recording' || name === 'Stop recording') b.presses[name] = Date.now();
  }, true);
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) if (n.textContent && n.textContent.includes(${JSON.stringify(SILENCE_TEXT)})) b.silenceWarnings++;
  }).observe(document, { childList: true, subtree: true });
})();`;

interface BenchState {
  presses: Record<string, number>;
  recorderStarts: number[];
  silenceWarnings: number;
}
const benchState = (page: Page) => page.evaluate<BenchState>('window.__bench');

interface HeapSample {
  atMs: number;
  usedMB: number;
  totalMB: number;
  backingMB: number | null;
  embedderMB: number | null;
  rendererRssMB: number;
}

function rssMB(pid: number): number {
  try {
    const kb = /^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Two forced GCs, then the heap as V8 counts it. */
async function heap(cdp: CDPSession, rendererPid: number, atMs: number): Promise<HeapSample> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const h = (await cdp.send('Runtime.getHeapUsage')) as {
    usedSize: number;
    totalSize: number;
    backingStorageSize?: number;
    embedderHeapUsedSize?: number;
  };
  return {
    atMs,
    usedMB: h.usedSize / MB,
    totalMB: h.totalSize / MB,
    backingMB: h.backingStorageSize === undefined ? null : h.backingStorageSize / MB,
    embedderMB: h.embedderHeapUsedSize === undefined ? null : h.embedderHeapUsedSize / MB,
    rendererRssMB: rssMB(rendererPid),
  };
}

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = (await cdp.send('Performance.getMetrics')) as {
    metrics: { name: string; value: number }[];
  };
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

/**
 * The renderer process that runs `page`: the one whose CPU time jumps while the page spins for
 * 600 ms (several renderers exist; their command lines do not say which page they hold). On a
 * busy machine the spin may get only part of a core, so the jump is judged against the others.
 */
async function rendererOf(page: Page): Promise<number> {
  // WebUI renderers hold Chromium's own chrome:// pages, never a web page.
  const renderers = () =>
    descendants(process.pid).filter(
      (p) => chromiumType(p.args) === 'renderer' && !p.args.join(' ').includes('--top-chrome-webui'),
    );
  const before = new Map(renderers().map((p) => [p.pid, cpuSeconds(p.pid)]));
  await page.evaluate(() => {
    const until = performance.now() + 600;
    while (performance.now() < until) {
      // spin
    }
  });
  const deltas = renderers()
    .map((p) => ({ pid: p.pid, delta: cpuSeconds(p.pid) - (before.get(p.pid) ?? 0) }))
    .sort((x, y) => y.delta - x.delta);
  const [best, next] = deltas;
  if (!best || best.delta < 0.1 || (next && best.delta < 2 * next.delta)) {
    throw new Error(
      `the renderer process of the page was not found (CPU s during the spin: ${JSON.stringify(deltas)})`,
    );
  }
  return best.pid;
}

/** CPU seconds of every Chromium process by kind, summed. */
function chromiumCpu(): Map<string, number> {
  const byKind = new Map<string, number>();
  for (const p of descendants(process.pid)) {
    if (!p.args[0]?.includes('chromium')) continue;
    const kind = chromiumType(p.args);
    byKind.set(kind, (byKind.get(kind) ?? 0) + (cpuSeconds(p.pid) || 0));
  }
  return byKind;
}

function readMeta(dir: string): RecordingMeta | null {
  try {
    return JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as RecordingMeta;
  } catch {
    // Read while it is being replaced: the next second's sample will have it.
    return null;
  }
}

const report = new Report(
  'recording',
  `Recording benchmark: ${MINUTES} min from the fake microphone through the window and the core`,
);
const world = await openWorld('recording');
report.add(`- Chromium: ${world.chromiumVersion} (${world.browser.browserType().name()}, headless, /usr/bin/chromium)`);

interface LagSample {
  wallMs: number;
  metaLagMs: number;
  bytes: number;
}
const lags: LagSample[] = [];
const scans: { wallMs: number; lagMs: number; audioMs: number }[] = [];
const heaps: HeapSample[] = [];
interface CpuFigures {
  wallS: number;
  renderer: number;
  host: number;
  chromium: Map<string, number>;
  /** Differences of CDP Performance.getMetrics over the recording. */
  metrics: Record<string, number>;
}
const measured: { cpu?: CpuFigures } = {};
let recordingDir = '';

try {
  const page = await world.context.newPage();
  await page.addInitScript(INSTRUMENT);
  const demo = world.host.demo;
  if (!demo) throw new Error('the host runs no sandbox, so it has no demo account');
  await start(page, world.host, demo);
  await expect(page.getByRole('button', { name: 'Start recording', exact: true })).toBeEnabled();
  const rendererPid = await rendererOf(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const recordingsDir = join(world.host.dataDir, 'recordings');
  progress(`host pid ${world.hostPid}, renderer pid ${rendererPid}; recording ${MINUTES} min`);

  await record(page, RECORD_MS / 1000, async () => {
    // record() returns here once the level meter shows sound: the recorder is running.
    const pressed = (await benchState(page)).presses['Start recording'];
    if (pressed === undefined) throw new Error('the press of Start recording was not seen in the window');
    const ids = existsSync(recordingsDir) ? readdirSync(recordingsDir) : [];
    if (ids.length !== 1) throw new Error(`expected one recording folder, found ${ids.length}`);
    recordingDir = join(recordingsDir, ids[0]!);
    const recorderStart = (await benchState(page)).recorderStarts[0];
    if (recorderStart === undefined) throw new Error('MediaRecorder.start was not seen in the window');

    heaps.push(await heap(cdp, rendererPid, Date.now() - recorderStart));
    const m0 = await metrics(cdp);
    const c0 = {
      at: performance.now(),
      renderer: cpuSeconds(rendererPid),
      host: cpuSeconds(world.hostPid),
      chromium: chromiumCpu(),
    };

    const endAt = pressed + RECORD_MS;
    let nextScan = Date.now();
    let nextHeap = Date.now() + HEAP_EVERY_MS;
    let nextNote = Date.now() + 30_000;
    for (let tick = Date.now(); tick < endAt; tick += 1000) {
      await sleep(Math.max(0, tick - Date.now()));
      const now = Date.now();
      const meta = readMeta(recordingDir);
      if (meta) {
        const bytes = statSync(join(recordingDir, 'audio.webm')).size;
        lags.push({ wallMs: now - recorderStart, metaLagMs: now - recorderStart - meta.durationMs, bytes });
      }
      if (now >= nextScan) {
        nextScan += SCAN_EVERY_MS;
        const scan = await scanWebm(join(recordingDir, 'audio.webm'));
        const audioMs = scan.durationMs ?? 0;
        scans.push({ wallMs: now - recorderStart, lagMs: now - recorderStart - audioMs, audioMs });
      }
      if (now >= nextHeap && endAt - now > HEAP_EVERY_MS / 2) {
        nextHeap += HEAP_EVERY_MS;
        heaps.push(await heap(cdp, rendererPid, now - recorderStart));
      }
      if (now >= nextNote) {
        nextNote += 30_000;
        const last = lags.at(-1);
        progress(
          `${fixed((now - pressed) / 60_000, 1)} min: ${last ? `${fixed(last.bytes / 1e6, 2)} MB on disk, lag ${fixed(last.metaLagMs / 1000, 2)} s` : 'no meta yet'}, heap ${fixed(heaps.at(-1)!.usedMB, 2)} MB`,
        );
      }
    }

    const c1 = {
      at: performance.now(),
      renderer: cpuSeconds(rendererPid),
      host: cpuSeconds(world.hostPid),
      chromium: chromiumCpu(),
    };
    const m1 = await metrics(cdp);
    heaps.push(await heap(cdp, rendererPid, Date.now() - recorderStart));
    const chromium = new Map<string, number>();
    for (const [kind, s] of c1.chromium) chromium.set(kind, s - (c0.chromium.get(kind) ?? 0));
    measured.cpu = {
      wallS: (c1.at - c0.at) / 1000,
      renderer: c1.renderer - c0.renderer,
      host: c1.host - c0.host,
      chromium,
      metrics: Object.fromEntries(Object.keys(m1).map((k) => [k, (m1[k] ?? Number.NaN) - (m0[k] ?? Number.NaN)])),
    };
  });

  // The recording is finished once main has every chunk and the WebM got its Duration.
  await expect(page.getByRole('status').filter({ hasText: 'Recording ended' })).toBeVisible({ timeout: 30_000 });
  const state = await benchState(page);
  const meta = readMeta(recordingDir);
  if (!meta || meta.state !== 'finished') throw new Error(`the recording is not finished: ${JSON.stringify(meta)}`);
  const audio = join(recordingDir, 'audio.webm');
  const probedS = probeSeconds(audio);
  const startPress = state.presses['Start recording']!;
  const stopPress = state.presses['Stop recording']!;
  const recorderStart = state.recorderStarts[0]!;
  const pressWallMs = stopPress - startPress;
  const recorderWallMs = stopPress - recorderStart;
  const c = measured.cpu;
  if (!c) throw new Error('the recording ended before it was measured');

  report.add(`## Setup

- the window built by scripts/build-renderer.ts, served by the browser host of the end-to-end suite (test/e2e/support/test-host.ts: src/main/web-host/cli.ts with the real core and the embedded sandbox under Node, own data folder)
- Chromium launched with the suite's switches (playwright.config.ts): fake microphone fed from ${FIXTURE} (${fixed(probeSeconds(FIXTURE), 1)} s, looped by Chromium: about ${Math.round(probedS / probeSeconds(FIXTURE))} passes in this recording), viewport ${JSON.stringify(world.context.pages()[0]?.viewportSize() ?? null)}
- signed in with the demo account, "Start recording" pressed, no template chosen (so Stop starts no upload), "Stop recording" pressed ${MINUTES} min after Start (test/e2e/fixtures.ts start(), test/e2e/support/consults.ts record())
- the moments of the presses and of \`MediaRecorder.start\` are taken in the window (Date.now() in a capture-phase click listener and a wrapper of MediaRecorder.prototype.start, installed by an init script); the bench reads the same wall clock
- silence warnings ("${SILENCE_TEXT}…") shown during the recording: ${state.silenceWarnings}`);

  // Heap
  const first = heaps[0]!;
  const last = heaps.at(-1)!;
  const growth = last.usedMB - first.usedMB;
  report.add(`## Window heap

Taken over CDP on the page: \`HeapProfiler.collectGarbage\` twice, then \`Runtime.getHeapUsage\` (usedSize = V8 JS heap in use; backingStorageSize = ArrayBuffer backing stores outside it). First sample once the recorder runs (level meter above 0), then every ${HEAP_EVERY_MS / 1000} s, last just before Stop. Renderer RSS from /proc/<pid>/status.`);
  report.table(
    [
      'since recorder start',
      'JS heap used MB',
      'JS heap total MB',
      'backing stores MB',
      'embedder heap MB',
      'renderer RSS MB',
    ],
    heaps.map((h) => [
      `${fixed(h.atMs / 1000, 0)} s`,
      fixed(h.usedMB, 2),
      fixed(h.totalMB, 2),
      h.backingMB === null ? 'n/a' : fixed(h.backingMB, 2),
      h.embedderMB === null ? 'n/a' : fixed(h.embedderMB, 2),
      fixed(h.rendererRssMB, 1),
    ]),
  );
  report.table(
    ['JS heap growth (last − first)', 'backing stores growth', 'renderer RSS growth', `goal < ${HEAP_GOAL_MB} MB`],
    [
      [
        `${fixed(growth, 2)} MB`,
        first.backingMB === null || last.backingMB === null
          ? 'n/a'
          : `${fixed(last.backingMB - first.backingMB, 2)} MB`,
        `${fixed(last.rendererRssMB - first.rendererRssMB, 1)} MB`,
        verdict(growth < HEAP_GOAL_MB),
      ],
    ],
  );

  // Lag
  const metaLags = lags.map((l) => l.metaLagMs);
  const scanLags = scans.map((s) => s.lagMs);
  const maxLag = Math.max(...metaLags, ...scanLags);
  report.add(`## Audio on disk behind the clock

Lag = (now − \`MediaRecorder.start\`) − audio on disk. "meta": \`durationMs\` of meta.json, which the core writes after the chunk's bytes are appended and fdatasync'd (src/main/core/recordings/), sampled every second (${metaLags.length} samples). "audio": the end of the last complete Opus block in audio.webm, read with the core's own WebM scanner (scanWebm), every ${SCAN_EVERY_MS / 1000} s (${scanLags.length} samples). The recorder hands over a chunk a second, so a lag of up to about 1 s (plus the time to save the chunk) is inherent.`);
  report.table(
    ['measure', 'median', 'p95', 'max', `goal max <= ${LAG_GOAL_MS / 1000} s`],
    [
      [
        'meta.json durationMs',
        `${fixed(median(metaLags) / 1000, 2)} s`,
        `${fixed(percentile(metaLags, 95) / 1000, 2)} s`,
        `${fixed(Math.max(...metaLags) / 1000, 2)} s`,
        verdict(Math.max(...metaLags) <= LAG_GOAL_MS),
      ],
      [
        'audio blocks in audio.webm',
        `${fixed(median(scanLags) / 1000, 2)} s`,
        `${fixed(percentile(scanLags, 95) / 1000, 2)} s`,
        `${fixed(Math.max(...scanLags) / 1000, 2)} s`,
        verdict(Math.max(...scanLags) <= LAG_GOAL_MS),
      ],
    ],
  );
  const step = Math.max(1, Math.ceil(scans.length / 10));
  report.add(
    'Along the recording (every ' +
      fixed((step * SCAN_EVERY_MS) / 1000, 0) +
      ' s): a lag that grew with time would show a recorder or a disk falling behind.',
  );
  report.table(
    [
      'since MediaRecorder.start',
      'audio in audio.webm',
      'lag (audio)',
      'meta durationMs lag, same second',
      'bytes on disk',
    ],
    scans
      .filter((_, i) => i % step === 0 || i === scans.length - 1)
      .map((sc) => {
        const near = lags.reduce(
          (best, l) => (Math.abs(l.wallMs - sc.wallMs) < Math.abs(best.wallMs - sc.wallMs) ? l : best),
          lags[0]!,
        );
        return [
          `${fixed(sc.wallMs / 1000, 1)} s`,
          `${fixed(sc.audioMs / 1000, 2)} s`,
          `${fixed(sc.lagMs / 1000, 2)} s`,
          `${fixed(near.metaLagMs / 1000, 2)} s`,
          `${fixed(near.bytes / 1e6, 3)} MB`,
        ];
      }),
  );
  report.add(
    `Worst of both: ${fixed(maxLag / 1000, 2)} s. From the press of Start to \`MediaRecorder.start\` (microphone opened, recording created in the core): ${fixed((recorderStart - startPress) / 1000, 2)} s; that time is not audio and not counted as lag.`,
  );

  // Duration
  const diffPress = probedS * 1000 - pressWallMs;
  const diffRecorder = probedS * 1000 - recorderWallMs;
  report.add('## Final file');
  report.table(
    [
      'ffprobe format=duration',
      'Start press → Stop press',
      'difference',
      `goal within ${DURATION_GOAL_MS / 1000} s`,
      'MediaRecorder.start → Stop press',
      'difference',
      'meta durationMs',
      'size',
    ],
    [
      [
        `${fixed(probedS, 2)} s`,
        `${fixed(pressWallMs / 1000, 2)} s`,
        `${fixed(diffPress / 1000, 2)} s`,
        verdict(Math.abs(diffPress) <= DURATION_GOAL_MS),
        `${fixed(recorderWallMs / 1000, 2)} s`,
        `${fixed(diffRecorder / 1000, 2)} s`,
        `${fixed(meta.durationMs / 1000, 2)} s`,
        `${fixed(meta.bytes / 1e6, 2)} MB (${fixed((meta.bytes * 8) / probedS / 1000, 1)} kbit/s), ${meta.chunks} chunks, Duration written: ${meta.durationFixed}`,
      ],
    ],
  );

  // CPU
  const pct = (s: number) => `${fixed((s / c.wallS) * 100, 1)} %`;
  report.add(`## CPU while recording

Share of one core over ${fixed(c.wallS, 1)} s of recording (from the first heap sample to the last, whose forced GCs are outside). Process CPU is utime + stime of all its threads from /proc/<pid>/stat. The window's main thread from CDP \`Performance.getMetrics\`: ThreadTime is its CPU time; the *Duration figures are wall time spent in tasks, so on a busy machine they include time the thread waited for a core.`);
  const chromiumRows = [...c.chromium.entries()].filter(([, s]) => s > 0).sort((a, b) => b[1] - a[1]);
  const mt = (name: string) => c.metrics[name] ?? Number.NaN;
  report.table(
    ['process', 'CPU s', '% of one core'],
    [
      ['window: renderer process of the page (all threads)', fixed(c.renderer, 2), pct(c.renderer)],
      ['window: main thread CPU (ThreadTime)', fixed(mt('ThreadTime'), 2), pct(mt('ThreadTime'))],
      ['core: browser host process (core + idle embedded sandbox + HTTP bridge)', fixed(c.host, 2), pct(c.host)],
      ...chromiumRows.map(([kind, s]) => [`Chromium ${kind} (all of that kind)`, fixed(s, 2), pct(s)]),
    ],
  );
  const perSecond = (n: number) => fixed(n / c.wallS, 1);
  report.add("The window's main thread in tasks (wall time):");
  report.table(
    ['in tasks (TaskDuration)', 'script', 'style recalculation', 'layout', 'other', 'style recalcs / s', 'layouts / s'],
    [
      [
        pct(mt('TaskDuration')),
        pct(mt('ScriptDuration')),
        pct(mt('RecalcStyleDuration')),
        pct(mt('LayoutDuration')),
        pct(mt('TaskOtherDuration')),
        perSecond(mt('RecalcStyleCount')),
        perSecond(mt('LayoutCount')),
      ],
    ],
  );
} finally {
  await world.close();
}
report.write();
