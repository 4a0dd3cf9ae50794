// The world of a browser benchmark, made of the end-to-end suite's own parts: the window built
// by scripts/build-renderer.ts, the browser host (BrowserHost: the real core and the embedded
// sandbox under Node, on a data folder of its own) and the system Chromium launched with the
// suite's switches (playwright.config.ts: fake microphone fed from the WAV fixture).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import config from '../../playwright.config.ts';
import { BrowserHost, type SandboxFaults } from '../../test/e2e/support/test-host.ts';
import { childWith } from './browser-proc.ts';

const ROOT = resolve(import.meta.dirname, '../..');
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Builds the window into `outDir`, as the suite's global setup does; answers the build's wall time in ms. */
export function buildRenderer(outDir: string): number {
  const began = performance.now();
  const r = spawnSync(process.execPath, ['scripts/build-renderer.ts', outDir], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`building the window failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return performance.now() - began;
}

/** The suite's launch options and context options of its `browser` project, headless. */
function suiteBrowserOptions() {
  const project = config.projects?.find((p) => p.name === 'browser');
  const use = project?.use ?? {};
  const args = use.launchOptions?.args;
  if (!args) throw new Error('playwright.config.ts has no launch switches for the browser project');
  return { args, permissions: use.permissions ?? [], viewport: config.use?.viewport ?? null };
}

export interface BrowserWorld {
  work: string;
  rendererDir: string;
  host: BrowserHost;
  /** Pid of the host process (the core and its embedded sandbox). */
  hostPid: number;
  browser: Browser;
  context: BrowserContext;
  chromiumVersion: string;
  /** Chromium's own launch switches, for the report. */
  switches: string[];
  /**
   * Starts another host with a data folder of its own (closed with the world), on the same window
   * or on another build of it (a baseline's, measured beside this tree's).
   */
  addHost(rendererDir?: string): Promise<BrowserHost>;
  close(): Promise<void>;
}

export interface WorldOptions {
  /** A window already built; otherwise it is built into the world's temporary folder. */
  rendererDir?: string;
  sandbox?: SandboxFaults;
}

export async function openWorld(name: string, options: WorldOptions = {}): Promise<BrowserWorld> {
  const work = mkdtempSync(join(tmpdir(), `vet-scribe-bench-${name}-`));
  const rendererDir = options.rendererDir ?? join(work, 'renderer');
  if (!options.rendererDir) buildRenderer(rendererDir);
  const hosts: BrowserHost[] = [];
  const startHost = async (dataDir: string, windowDir = rendererDir) => {
    const logFile = `${dataDir}.log`;
    writeFileSync(logFile, '');
    const h = new BrowserHost({
      dataDir,
      rendererDir: windowDir,
      sandbox: options.sandbox ?? {},
      logFile,
      tokenLog: `${dataDir}.tokens`,
    });
    hosts.push(h);
    await h.start();
    return h;
  };
  const dataDir = join(work, 'data');
  const host = await startHost(dataDir);
  const hostPid = childWith(dataDir);
  if (hostPid === null) throw new Error(`the host process for ${dataDir} was not found in /proc`);
  const { args, permissions, viewport } = suiteBrowserOptions();
  let browser: Browser;
  let context: BrowserContext;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args });
    context = await browser.newContext({ permissions, viewport });
  } catch (e) {
    await host.stop();
    throw e;
  }
  return {
    work,
    rendererDir,
    host,
    hostPid,
    browser,
    context,
    chromiumVersion: browser.version(),
    switches: args,
    addHost: (windowDir?: string) => startHost(join(work, `data-${hosts.length + 1}`), windowDir),
    async close() {
      await context.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      for (const h of hosts) await h.stop();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
