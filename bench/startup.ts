// Startup benchmark: (a) the JavaScript the window loads before it can show anything, gzipped
// (goal < 250 KB), and (b) the time from navigation to the sign-in view and, signed in, to the
// recorder view being usable (goal: median and p95 < 300 ms), in Chromium through the browser
// host of the end-to-end suite; (c) the engine's start on a clinic's years of consults (10,000
// by default; goal ≤ 1 s), beside a baseline commit's when one is given.
//   npm run bench:startup [-- --runs 20 --engine-consults 10000 --engine-runs 5 --baseline HEAD~3 --only engine]
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, extname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { constants, gzipSync } from 'node:zlib';
import type { BrowserContext, CDPSession, Page } from '@playwright/test';
import { signIn } from '../test/e2e/fixtures.ts';
import { buildWithSourceMaps, bytesByOwner, scriptsIn } from './support/browser-bundle.ts';
import { buildRenderer, openWorld } from './support/browser-session.ts';
import { engineStart } from './support/engine-start.ts';
import { progress, Report } from './support/report.ts';
import { buildWindow, sourceAt, workingTree, type Source } from './support/source-at.ts';
import { fixed, median, percentile, verdict } from './support/stats.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    'engine-consults': { type: 'string', default: '10000' },
    'engine-runs': { type: 'string', default: '5' },
    baseline: { type: 'string' },
    only: { type: 'string' },
  },
});
const whole = (name: 'runs' | 'engine-consults' | 'engine-runs', min: number): number => {
  const n = Number(args[name]);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`--${name} takes a whole number of at least ${min}, not "${String(args[name])}"`);
  return n;
};
const RUNS = whole('runs', 1);
const ENGINE_CONSULTS = whole('engine-consults', 0);
const ENGINE_RUNS = whole('engine-runs', 1);
if (args.only !== undefined && args.only !== 'engine' && args.only !== 'window')
  throw new Error(`--only takes "engine" or "window", not "${args.only}"`);
const SIZE_GOAL_KB = 250;
const TIME_GOAL_MS = 300;
const GZIP_LEVEL = constants.Z_BEST_COMPRESSION;
const KB = 1024;

// ---- (a) what the window loads first ----

const gz = (file: string) => gzipSync(readFileSync(file), { level: GZIP_LEVEL }).length;

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** Scripts and module preloads named in index.html: what the browser fetches before any `import()`. */
function initialScripts(rendererDir: string): string[] {
  const html = readFileSync(join(rendererDir, 'index.html'), 'utf8');
  const refs = new Set<string>();
  for (const tag of html.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    const attr = (name: string) => new RegExp(`\\b${name}\\s*=\\s*["']([^"']+)["']`, 'i').exec(tag)?.[1];
    if (/^<script/i.test(tag)) {
      const src = attr('src');
      if (src) refs.add(src);
    } else if (attr('rel')?.toLowerCase() === 'modulepreload') {
      const href = attr('href');
      if (href) refs.add(href);
    }
  }
  return [...refs].map((ref) => resolve(rendererDir, ref.replace(/^\//, '')));
}

// A run of the engine part alone writes a report of its own, so the whole one is not overwritten.
const report = new Report(
  args.only === 'engine' ? 'startup-engine' : 'startup',
  "Startup benchmark: initial JavaScript of the window, time to a usable sign-in and recorder view, and the engine's start",
);

// ---- (c) the engine's start, first: it needs no window, and `--only engine` stops after it ----

if (args.only !== 'window' && ENGINE_CONSULTS > 0) {
  const sources: { label: string; source: Source }[] = [];
  if (args.baseline) sources.push({ label: 'baseline', source: sourceAt(args.baseline) });
  sources.push({ label: 'this tree', source: workingTree() });
  try {
    await engineStart(report, sources, { consults: ENGINE_CONSULTS, runs: ENGINE_RUNS, seed: 1 });
  } finally {
    for (const { source } of sources) source.close();
  }
}
if (args.only === 'engine') {
  report.add('(a) and (b) were not measured in this run (`--only engine`).');
  report.write();
  process.exit(0);
}

const buildDir = mkdtempSync(join(tmpdir(), 'vet-scribe-bench-startup-build-'));
const rendererDir = join(buildDir, 'renderer');
const buildMs = buildRenderer(rendererDir);
const initial = initialScripts(rendererDir);
const assets = listFiles(rendererDir).filter((f) => ['.js', '.css'].includes(extname(f)));
const initialSet = new Set(initial);
const initialGz = initial.reduce((sum, f) => sum + gz(f), 0);
const sum = (files: string[], size: (f: string) => number) => files.reduce((s, f) => s + size(f), 0);
const raw = (f: string) => statSync(f).size;
const js = assets.filter((f) => f.endsWith('.js'));
const css = assets.filter((f) => f.endsWith('.css'));

report.add(`## (a) Initial JavaScript

The window built by \`node scripts/build-renderer.ts <temp dir>\` (the same Vite settings as electron-vite's renderer build; ${fixed(buildMs / 1000, 1)} s). "Initial" = the \`<script src>\` and \`<link rel="modulepreload">\` files that index.html names, which the browser loads before anything runs; chunks reached only through \`import()\` are not counted. Gzip by node:zlib at level ${GZIP_LEVEL} (best compression). 1 KB = 1024 bytes.`);
report.table(
  ['file', 'initial', 'raw KB', 'gzip KB'],
  assets
    .sort((a, b) => raw(b) - raw(a))
    .map((f) => [
      relative(rendererDir, f),
      initialSet.has(f) ? 'yes' : 'no',
      fixed(raw(f) / KB, 1),
      fixed(gz(f) / KB, 1),
    ]),
);
report.table(
  ['measure', 'raw KB', 'gzip KB', `goal < ${SIZE_GOAL_KB} KB gzip`],
  [
    [
      `initial JS (${initial.length} file${initial.length === 1 ? '' : 's'})`,
      fixed(sum(initial, raw) / KB, 1),
      fixed(initialGz / KB, 1),
      verdict(initialGz / KB < SIZE_GOAL_KB),
    ],
    [`all JS (${js.length} files)`, fixed(sum(js, raw) / KB, 1), fixed(sum(js, gz) / KB, 1), ''],
    [`all CSS (${css.length} files)`, fixed(sum(css, raw) / KB, 1), fixed(sum(css, gz) / KB, 1), ''],
    ['all JS and CSS', fixed(sum(assets, raw) / KB, 1), fixed(sum(assets, gz) / KB, 1), ''],
  ],
);

// Where the initial JS comes from, by a second build with source maps (same settings).
const mappedDir = join(buildDir, 'mapped');
await buildWithSourceMaps(mappedDir);
const mappedScripts = scriptsIn(mappedDir);
const initialNames = new Set(initial.map((f) => basename(f)));
const sameFiles = mappedScripts.filter((f) => initialNames.has(basename(f)));
const attributed = sameFiles.length === initial.length ? sameFiles : mappedScripts;
const owners = new Map<string, number>();
for (const f of attributed) for (const [k, n] of bytesByOwner(f)) owners.set(k, (owners.get(k) ?? 0) + n);
const ownedTotal = [...owners.values()].reduce((a, b) => a + b, 0);
report.add(
  `Where the ${attributed === sameFiles ? 'initial' : 'whole'} JS comes from: minified bytes charged through the source map of a second build with the same settings and \`sourcemap: true\` (${attributed === sameFiles ? 'same file names as above' : 'its file names differ from the first build, so all of its JS is shown'}).`,
);
report.table(
  ['package or folder', 'minified KB', 'share'],
  [...owners.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => [k, fixed(n / KB, 1), `${fixed((n / ownedTotal) * 100, 1)} %`]),
);

// ---- (b) time to a usable view ----

// Runs in every page before its own scripts. A MutationObserver checks, after each change of
// the DOM or of a `disabled` attribute, whether the view is usable, and notes performance.now()
// (milliseconds since the navigation started: the document's time origin) when it first is.
// The moment is taken in the page, so no round trip to Playwright is in it.
const WATCH = `(() => {
  const ready = (window.__ready = {});
  const usable = (el) => !!el && !el.disabled && !el.closest('[inert]') && el.getClientRects().length > 0 && el.tabIndex >= 0;
  const button = (name) => [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === name);
  const labelled = (name) => [...document.querySelectorAll('label')].find((l) => l.textContent.trim() === name)?.control ?? null;
  const check = () => {
    const now = performance.now();
    if (ready.signIn === undefined && usable(button('Sign in')) && usable(labelled('Email'))) {
      ready.signIn = now;
      requestAnimationFrame(() => (ready.signInFrame = performance.now()));
    }
    if (ready.recorder === undefined && usable(button('Start recording'))) {
      ready.recorder = now;
      requestAnimationFrame(() => (ready.recorderFrame = performance.now()));
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['disabled', 'inert', 'hidden', 'class', 'style'] });
})();`;

type ViewName = 'signIn' | 'recorder';
interface Load {
  /** In the page: navigation start → the view usable in the DOM. */
  readyMs: number;
  /** In the page: navigation start → the next animation frame after that. */
  frameMs: number;
  /** Playwright: before page.goto → waitForFunction saw it. */
  outsideMs: number;
  domContentLoadedMs: number;
  /** Navigation start → index.html fully received. */
  htmlMs: number;
  /** Navigation start → the last initial script fully received. */
  scriptMs: number;
  /** Navigation start → the first call to the host (the window's code is running). */
  firstCallMs: number;
  /** Navigation start → the last answer of the host received before the view was usable. */
  lastAnswerMs: number;
  /** Calls to the host made before the view was usable. */
  calls: string[];
  /** CPU time of the tab's main thread (CDP ThreadTime) over the load, in ms; see the report. */
  threadMs: number;
  /** 1-minute load average of the machine just before the load. */
  load1: number;
}

// A new tab keeps Chromium busy for a moment with pages of its own (chrome:// resources in a
// WebUI renderer, seen in traces of this benchmark); on two cores that work would be timed
// with the window, so a new tab waits before it navigates.
const NEW_TAB_SETTLE_MS = 1000;

async function threadSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  return metrics.find((m) => m.name === 'ThreadTime')?.value ?? Number.NaN;
}

async function load(page: Page, url: string, view: ViewName): Promise<Load> {
  const load1 = loadavg()[0] ?? Number.NaN;
  // ThreadTime counts from Performance.enable, and the session lives on across the navigation.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const threadBefore = await threadSeconds(cdp);
  const began = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  // A function, not a string: the window's CSP forbids eval, which a string predicate needs.
  await page.waitForFunction(
    (v) => (globalThis as unknown as { __ready: Record<string, number> }).__ready[`${v}Frame`] !== undefined,
    view,
    { polling: 'raf', timeout: 30_000 },
  );
  const outsideMs = performance.now() - began;
  const threadMs = ((await threadSeconds(cdp)) - threadBefore) * 1000;
  await cdp.detach();
  const inPage = await page.evaluate<Omit<Load, 'outsideMs' | 'threadMs' | 'load1'>>(`(() => {
    const r = window.__ready;
    const nav = performance.getEntriesByType('navigation')[0];
    const readyMs = r.${view};
    const resources = performance.getEntriesByType('resource');
    // The initial scripts: those asked for while index.html was parsed, not the chunks of views
    // loaded later through import().
    const scripts = resources.filter((e) => (e.initiatorType === 'script' || e.name.endsWith('.js')) && (!nav || e.startTime < nav.domInteractive));
    const calls = resources.filter((e) => e.name.includes('/ipc/') && e.startTime < readyMs);
    return {
      readyMs,
      frameMs: r.${view}Frame,
      domContentLoadedMs: nav ? nav.domContentLoadedEventEnd : NaN,
      htmlMs: nav ? nav.responseEnd : NaN,
      scriptMs: Math.max(...scripts.map((e) => e.responseEnd)),
      firstCallMs: Math.min(...calls.map((e) => e.startTime)),
      lastAnswerMs: Math.max(...calls.filter((e) => e.responseEnd <= readyMs).map((e) => e.responseEnd)),
      calls: calls.map((e) => decodeURIComponent(e.name.slice(e.name.indexOf('/ipc/') + 5))),
    };
  })()`);
  return { ...inPage, outsideMs, threadMs, load1 };
}

interface Series {
  name: string;
  /** "this tree", or the baseline's short hash. */
  source: string;
  view: ViewName;
  url: string;
  /** The tab that a `reload` series navigates again and again; null: a new tab per load. */
  kept: Page | null;
  loads: Load[];
}

async function once(context: BrowserContext, s: Series): Promise<Load> {
  const page = s.kept ?? (await context.newPage());
  try {
    if (!s.kept) await page.waitForTimeout(NEW_TAB_SETTLE_MS);
    return await load(page, s.url, s.view);
  } finally {
    if (!s.kept) await page.close();
  }
}

// With --baseline, the baseline's window is built too and served by hosts of its own, and its
// series take turns with this tree's, so both meet the same load on the machine.
const baseline = args.baseline ? sourceAt(args.baseline) : null;
const baselineDir = join(buildDir, 'baseline-renderer');
if (baseline) await buildWindow(baseline, baselineDir);
const world = await openWorld('startup', { rendererDir });
report.add(`- Chromium: ${world.chromiumVersion} (headless, /usr/bin/chromium)`);
try {
  const context = world.context;
  await context.addInitScript(WATCH);
  // Two hosts on each window (this tree's, and the baseline's with --baseline): one never signed
  // in, one signed in once, so the series can take turns and a burst of other work on the
  // machine falls on all of them alike.
  const seriesOf = async (source: string, signedOut: typeof world.host, windowDir?: string): Promise<Series[]> => {
    const signedIn = await world.addHost(windowDir);
    const demo = signedIn.demo;
    if (!demo) throw new Error('the host runs no sandbox, so it has no demo account');
    const first = await context.newPage();
    await first.goto(signedIn.url);
    await signIn(first, demo);
    await first.close();
    const prefix = baseline ? `${source}: ` : '';
    return [
      { name: `${prefix}sign-in, new tab`, source, view: 'signIn', url: signedOut.url, kept: null, loads: [] },
      { name: `${prefix}recorder, new tab`, source, view: 'recorder', url: signedIn.url, kept: null, loads: [] },
      {
        name: `${prefix}sign-in, reload`,
        source,
        view: 'signIn',
        url: signedOut.url,
        kept: await context.newPage(),
        loads: [],
      },
      {
        name: `${prefix}recorder, reload`,
        source,
        view: 'recorder',
        url: signedIn.url,
        kept: await context.newPage(),
        loads: [],
      },
    ];
  };
  const all: Series[] = [
    ...(baseline ? await seriesOf(`baseline ${baseline.commit}`, await world.addHost(baselineDir), baselineDir) : []),
    ...(await seriesOf('this tree', world.host)),
  ];
  const info = await world.host.call('app:info');
  // Round 0 warms Chromium, the hosts and the disk cache for every series; it is not counted.
  for (let round = 0; round <= RUNS; round++) {
    for (const s of all) {
      const l = await once(context, s);
      if (round > 0) s.loads.push(l);
    }
    progress(
      `${round === 0 ? 'warm-up' : `round ${round}/${RUNS}`}: ${all.map((s) => `${s.name} ${fixed(s.loads.at(-1)?.readyMs ?? Number.NaN)} ms`).join(', ')}`,
    );
  }
  for (const s of all) await s.kept?.close();

  const loads1 = all.flatMap((s) => s.loads.map((l) => l.load1));
  report.add(`## (b) Time to a usable view

- ${baseline ? `for each window (the baseline's, ${baseline.commit}, and this tree's), ` : ''}two browser hosts of the end-to-end suite (test/e2e/support/test-host.ts: src/main/web-host/cli.ts, the real core and the embedded sandbox under Node, each with its own data folder) serving that build on loopback, one never signed in and one signed in once with the demo account (its session lives in the host process between loads; secret store: ${info.secretStore.kind}${info.secretStore.persistent ? '' : ', not kept after the host stops'}). Each answers every file with \`cache-control: no-store\`, so each load fetches the whole window again
- Chromium launched with the suite's switches (playwright.config.ts), one browser context. "new tab": each load in a new tab (a renderer process of its own, nothing compiled yet, as when the app opens its window), which waits ${NEW_TAB_SETTLE_MS / 1000} s after it opens (Chromium's own start-up work for a tab would otherwise be timed too) and is closed after the load; "reload": one tab navigated to the window again and again
- ${RUNS} loads per series after one warm-up load each that is not counted; the ${baseline ? 'eight' : 'four'} series take turns, load by load
- measured in the page: an init script's MutationObserver notes \`performance.now()\` (ms since the navigation started: the document's time origin) at the first DOM change after which the view is usable; "next frame" is the first requestAnimationFrame after that. "Playwright" is the time from before \`page.goto\` to \`waitForFunction\` seeing it, round trips included, for comparison only
- sign-in view usable: the "Sign in" button enabled, and the Email field enabled, laid out and in the tab order; recorder view usable: "Start recording" enabled
- main-thread CPU: CDP \`Performance.getMetrics\` ThreadTime (CPU time of the tab's renderer main thread) from just before \`page.goto\` to when Playwright saw the view usable, so it also holds the few ms of work after that and of Playwright's own polling. Unlike the times above it does not grow when the machine is busy, so it tells what the load costs on an idle machine
- 1-minute load average of the machine before each load: median ${fixed(median(loads1), 2)}, from ${fixed(Math.min(...loads1), 2)} to ${fixed(Math.max(...loads1), 2)} (2 cores: above 2, work waits for a core)`);
  const ms = (values: number[]) => `${fixed(median(values))} / ${fixed(percentile(values, 95))}`;
  if (baseline) {
    report.add(
      `Side by side: the baseline's window (${baseline.commit}, "${baseline.subject}", built by the same settings from its \`src\`) and this tree's, served by hosts of their own, their loads taking turns. In page, usable, median / p95 ms:`,
    );
    const views = ['sign-in, new tab', 'recorder, new tab', 'sign-in, reload', 'recorder, reload'];
    const of = (source: string, view: string) => all.find((s) => s.source === source && s.name.endsWith(view));
    report.table(
      ['view', `baseline ${baseline.commit}`, 'this tree', `goal < ${TIME_GOAL_MS} ms (this tree)`],
      views.map((v) => {
        const b = of(`baseline ${baseline.commit}`, v)?.loads.map((l) => l.readyMs) ?? [];
        const t = of('this tree', v)?.loads.map((l) => l.readyMs) ?? [];
        return [v, ms(b), ms(t), verdict(median(t) < TIME_GOAL_MS && percentile(t, 95) < TIME_GOAL_MS)];
      }),
    );
  }
  report.table(
    [
      'series',
      'in page: usable, median / p95 ms',
      'next frame, median / p95',
      'Playwright, median / p95',
      'main-thread CPU, median / p95',
      'usable, min–max',
      `goal < ${TIME_GOAL_MS} ms (in page, median and p95)`,
    ],
    all.map(({ name, loads }) => {
      const ready = loads.map((l) => l.readyMs);
      return [
        name,
        ms(ready),
        ms(loads.map((l) => l.frameMs)),
        ms(loads.map((l) => l.outsideMs)),
        ms(loads.map((l) => l.threadMs)),
        `${fixed(Math.min(...ready))}–${fixed(Math.max(...ready))}`,
        verdict(median(ready) < TIME_GOAL_MS && percentile(ready, 95) < TIME_GOAL_MS),
      ];
    }),
  );
  report.add(
    'Where the time goes: medians of each phase in ms, from Navigation and Resource Timing in the page (the phases of one load add up to its time; their medians need not).',
  );
  report.table(
    [
      'series',
      'index.html received',
      '→ initial JS received',
      '→ first call to the host (JS run)',
      '→ last answer before usable',
      '→ usable (render)',
      'total',
      'DOMContentLoaded',
      'calls before usable',
    ],
    all.map(({ name, loads }) => {
      const m = (f: (l: Load) => number) => fixed(median(loads.map(f)));
      return [
        name,
        m((l) => l.htmlMs),
        m((l) => l.scriptMs - l.htmlMs),
        m((l) => l.firstCallMs - l.scriptMs),
        m((l) => l.lastAnswerMs - l.firstCallMs),
        m((l) => l.readyMs - l.lastAnswerMs),
        m((l) => l.readyMs),
        m((l) => l.domContentLoadedMs),
        [...new Set(loads.flatMap((l) => l.calls))].join(', '),
      ];
    }),
  );
  report.add(
    `Every load (in page, usable, ms; load average before it in brackets):\n\n${all.map(({ name, loads }) => `- ${name}: ${loads.map((l) => `${fixed(l.readyMs)} (${fixed(l.load1, 1)})`).join(', ')}`).join('\n')}`,
  );
} finally {
  await world.close();
  baseline?.close();
  rmSync(buildDir, { recursive: true, force: true });
}
report.write();
