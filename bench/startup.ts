// Startup benchmark: (a) the JavaScript the window loads before it can show anything, gzipped
// (goal < 250 KB), and (b) the time from navigation to the sign-in view and, signed in, to the
// recorder view being usable (goal: median and p95 < 300 ms), in Chromium through the browser
// host of the end-to-end suite.
//   npm run bench:startup [-- --runs 20]
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, extname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { constants, gzipSync } from 'node:zlib';
import type { BrowserContext, Page } from '@playwright/test';
import { signIn } from '../test/e2e/fixtures.ts';
import { buildWithSourceMaps, bytesByOwner, scriptsIn } from './support/browser-bundle.ts';
import { buildRenderer, openWorld } from './support/browser-session.ts';
import { progress, Report } from './support/report.ts';
import { fixed, median, percentile, verdict } from './support/stats.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '20' } } });
const RUNS = Number(args.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs takes a whole number of at least 1, not "${args.runs}"`);
const SIZE_GOAL_KB = 250;
const TIME_GOAL_MS = 300;
const GZIP_LEVEL = constants.Z_BEST_COMPRESSION;
const KB = 1024;

// ---- (a) what the window loads first ----

const gz = (file: string) => gzipSync(readFileSync(file), { level: GZIP_LEVEL }).length;

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)]));
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

const report = new Report('startup', 'Startup benchmark: initial JavaScript of the window, and time to a usable sign-in and recorder view');

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
    .map((f) => [relative(rendererDir, f), initialSet.has(f) ? 'yes' : 'no', fixed(raw(f) / KB, 1), fixed(gz(f) / KB, 1)]),
);
report.table(
  ['measure', 'raw KB', 'gzip KB', `goal < ${SIZE_GOAL_KB} KB gzip`],
  [
    [`initial JS (${initial.length} file${initial.length === 1 ? '' : 's'})`, fixed(sum(initial, raw) / KB, 1), fixed(initialGz / KB, 1), verdict(initialGz / KB < SIZE_GOAL_KB)],
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
report.add(`Where the ${attributed === sameFiles ? 'initial' : 'whole'} JS comes from: minified bytes charged through the source map of a second build with the same settings and \`sourcemap: true\` (${attributed === sameFiles ? 'same file names as above' : 'its file names differ from the first build, so all of its JS is shown'}).`);
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
type Mode = 'tab' | 'reload';
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
}

// A new tab keeps Chromium busy for a moment with pages of its own (chrome:// resources in a
// WebUI renderer, seen in traces of this benchmark); on two cores that work would be timed
// with the window, so a new tab waits before it navigates.
const NEW_TAB_SETTLE_MS = 1000;

async function load(page: Page, url: string, view: ViewName): Promise<Load> {
  const began = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  // A function, not a string: the window's CSP forbids eval, which a string predicate needs.
  await page.waitForFunction((v) => (globalThis as unknown as { __ready: Record<string, number> }).__ready[`${v}Frame`] !== undefined, view, { polling: 'raf', timeout: 30_000 });
  const outsideMs = performance.now() - began;
  const inPage = await page.evaluate<Omit<Load, 'outsideMs'>>(`(() => {
    const r = window.__ready;
    const nav = performance.getEntriesByType('navigation')[0];
    const readyMs = r.${view};
    const resources = performance.getEntriesByType('resource');
    const scripts = resources.filter((e) => e.initiatorType === 'script' || e.name.endsWith('.js'));
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
  return { ...inPage, outsideMs };
}

/**
 * `tab`: every load in a new tab (a renderer process of its own, nothing compiled yet), as
 * when the app opens its window. `reload`: the same tab navigated to the window again.
 */
async function series(context: BrowserContext, url: string, view: ViewName, mode: Mode): Promise<Load[]> {
  const loads: Load[] = [];
  const kept = mode === 'reload' ? await context.newPage() : null;
  try {
    // The first load warms Chromium, the host and the disk cache; it is not counted.
    for (let i = 0; i <= RUNS; i++) {
      const page = kept ?? (await context.newPage());
      try {
        if (!kept) await page.waitForTimeout(NEW_TAB_SETTLE_MS);
        const l = await load(page, url, view);
        if (i > 0) loads.push(l);
        progress(`${view}, ${mode}: ${i === 0 ? 'warm-up' : `${i}/${RUNS}`} ${fixed(l.readyMs, 1)} ms`);
      } finally {
        if (!kept) await page.close();
      }
    }
  } finally {
    await kept?.close();
  }
  return loads;
}

const world = await openWorld('startup', { rendererDir });
report.add(`- Chromium: ${world.chromiumVersion} (headless, /usr/bin/chromium)`);
try {
  await world.context.addInitScript(WATCH);
  const url = world.host.url;
  const results: { name: string; loads: Load[] }[] = [];
  results.push({ name: 'sign-in, new tab', loads: await series(world.context, url, 'signIn', 'tab') });
  results.push({ name: 'sign-in, reload', loads: await series(world.context, url, 'signIn', 'reload') });

  const demo = world.host.demo;
  if (!demo) throw new Error('the host runs no sandbox, so it has no demo account');
  const first = await world.context.newPage();
  await first.goto(url);
  await signIn(first, demo);
  await first.close();
  const info = await world.host.call('app:info');
  results.push({ name: 'recorder, new tab', loads: await series(world.context, url, 'recorder', 'tab') });
  results.push({ name: 'recorder, reload', loads: await series(world.context, url, 'recorder', 'reload') });

  report.add(`## (b) Time to a usable view

- the browser host of the end-to-end suite (test/e2e/support/test-host.ts: src/main/web-host/cli.ts, the real core and the embedded sandbox under Node, own data folder) serving that build on loopback; it answers every file with \`cache-control: no-store\`, so each load fetches the whole window again
- Chromium launched with the suite's switches (playwright.config.ts), one browser context. "new tab": each load in a new tab (its own renderer process, so nothing is compiled yet), which waits ${NEW_TAB_SETTLE_MS / 1000} s after it opens (Chromium's own start-up work for a tab would otherwise be timed too) and is closed after the load; "reload": one tab navigated to the window again and again
- ${RUNS} loads per series, after one warm-up load that is not counted
- measured in the page: an init script's MutationObserver notes \`performance.now()\` (ms since the navigation started: the document's time origin) at the first DOM change after which the view is usable; "next frame" is the first requestAnimationFrame after that. "Playwright" is the time from before \`page.goto\` to \`waitForFunction\` seeing it, round trips included, for comparison only
- sign-in view usable: the "Sign in" button enabled, and the Email field enabled, laid out and in the tab order
- recorder view usable: "Start recording" enabled. The session: signed in once with the demo account in another tab; it lives in the host process between loads (secret store: ${info.secretStore.kind}${info.secretStore.persistent ? '' : ', not kept after the host stops'})
- load average (1 min) at the end: ${fixed(loadavg()[0] ?? Number.NaN, 2)}`);
  const ms = (values: number[]) => `${fixed(median(values))} / ${fixed(percentile(values, 95))}`;
  report.table(
    ['series', 'in page: usable, median / p95 ms', 'next frame, median / p95', 'Playwright, median / p95', 'DOMContentLoaded, median', 'usable, min–max', `goal < ${TIME_GOAL_MS} ms (in page, median and p95)`],
    results.map(({ name, loads }) => {
      const ready = loads.map((l) => l.readyMs);
      return [
        name,
        ms(ready),
        ms(loads.map((l) => l.frameMs)),
        ms(loads.map((l) => l.outsideMs)),
        fixed(median(loads.map((l) => l.domContentLoadedMs))),
        `${fixed(Math.min(...ready))}–${fixed(Math.max(...ready))}`,
        verdict(median(ready) < TIME_GOAL_MS && percentile(ready, 95) < TIME_GOAL_MS),
      ];
    }),
  );
  report.add('Where the time goes: medians of each phase in ms, from Navigation and Resource Timing in the page (the phases of one load add up to its time; their medians need not).');
  report.table(
    ['series', 'index.html received', '→ initial JS received', '→ first call to the host (JS run, first render)', '→ last answer before usable', '→ usable (render)', 'total', 'calls before usable'],
    results.map(({ name, loads }) => {
      const m = (f: (l: Load) => number) => fixed(median(loads.map(f)));
      return [
        name,
        m((l) => l.htmlMs),
        m((l) => l.scriptMs - l.htmlMs),
        m((l) => l.firstCallMs - l.scriptMs),
        m((l) => l.lastAnswerMs - l.firstCallMs),
        m((l) => l.readyMs - l.lastAnswerMs),
        m((l) => l.readyMs),
        [...new Set(loads.flatMap((l) => l.calls))].join(', '),
      ];
    }),
  );
  report.add(`Every load (in page, usable, ms):\n\n${results.map(({ name, loads }) => `- ${name}: ${loads.map((l) => fixed(l.readyMs)).join(', ')}`).join('\n')}`);
} finally {
  await world.close();
  rmSync(buildDir, { recursive: true, force: true });
}
report.write();
