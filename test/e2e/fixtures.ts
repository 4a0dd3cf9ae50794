// Each test owns its world (docs/testing.md): a fresh data folder and its own app with its own
// sandbox, whose faults are fixture options set the same way every run:
//   test.use({ sandbox: { latencyMs: 1500 } });
// The same specs run on two targets (the project's `target` option): `browser`, a browser
// host (the core under Node) driven in Chromium, and `electron`, the built app launched by
// Playwright, whose window is then the test's `page`. After the test the app is stopped, and
// no token the sandbox issued may appear in the core's debug log. On failure the app's
// stderr and log are attached to the report.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { RENDERER_DIR } from './global-setup.ts';
import { electronTarget } from './support/electron-binary.ts';
import { ElectronHost } from './support/electron-host.ts';
import { BrowserHost, type Demo, type SandboxFaults, type TestHost } from './support/test-host.ts';

export { expect };
export { eachLook, shot } from './support/shots.ts';
export { expectAccessible } from './support/a11y.ts';
export type { Demo, SandboxFaults, TestHost };

interface Fixtures {
  /** The running host of this test: `url`, `demo`, `dataDir`, `restart()`, `call()`. */
  host: TestHost;
  /** The demo account of this test's sandbox. */
  demo: Demo;
}
export type Target = 'browser' | 'electron';

export interface Options {
  sandbox: SandboxFaults;
  target: Target;
}

const FAKE_AUDIO = resolve(import.meta.dirname, '../fixtures/audio/consult.wav');

function leakedTokens(tokenLog: string, logFile: string): number {
  const issued = existsSync(tokenLog) ? [...new Set(readFileSync(tokenLog, 'utf8').split('\n').filter(Boolean))] : [];
  const text = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
  // A token's signature alone is as good as the token to whoever reads the log.
  return issued.filter((t) => text.includes(t) || text.includes(t.split('.')[2] ?? '\u0000')).length;
}

export const test = base.extend<Fixtures & Options>({
  sandbox: [{}, { option: true }],
  target: ['browser', { option: true }],

  host: async ({ sandbox, target }, use, testInfo) => {
    if (target === 'electron') {
      const can = electronTarget();
      testInfo.skip(!can.ok, can.ok ? '' : can.reason);
    }
    const dataDir = mkdtempSync(join(tmpdir(), 'vet-scribe-e2e-'));
    mkdirSync(testInfo.outputDir, { recursive: true });
    const logFile = testInfo.outputPath('host.log');
    const tokenLog = testInfo.outputPath('tokens.txt');
    writeFileSync(logFile, '');
    const host =
      target === 'electron'
        ? new ElectronHost({
            dataDir,
            sandbox,
            logFile,
            tokenLog,
            fakeAudio: FAKE_AUDIO,
            artifactsDir: testInfo.outputDir,
          })
        : new BrowserHost({ dataDir, rendererDir: RENDERER_DIR, sandbox, logFile, tokenLog });
    await host.start();
    try {
      await use(host);
    } finally {
      const failed = testInfo.status !== testInfo.expectedStatus;
      if (failed && host instanceof ElectronHost) {
        // Playwright's own screenshot on failure sees its browser, not the app's window.
        const window = testInfo.outputPath('window.png');
        try {
          await host.page.screenshot({ path: window });
          await testInfo.attach('window', { path: window, contentType: 'image/png' });
        } catch {
          // The app is gone (killed or crashed): its trace holds its last frames.
        }
      }
      await host.stop();
      if (failed) {
        await testInfo.attach('host-stderr.txt', { body: host.stderr || '(empty)', contentType: 'text/plain' });
        await testInfo.attach('host.log', { path: logFile, contentType: 'text/plain' });
        await testInfo.attach('data-dir.txt', { body: dataDir, contentType: 'text/plain' });
        if (host instanceof ElectronHost)
          for (const trace of host.traces)
            await testInfo.attach('trace', { path: trace, contentType: 'application/zip' });
      } else {
        rmSync(dataDir, { recursive: true, force: true });
        if (host instanceof ElectronHost) for (const trace of host.traces) rmSync(trace, { force: true });
      }
    }
    const leaked = leakedTokens(tokenLog, logFile);
    if (leaked > 0)
      throw new Error(`${leaked} token(s) issued by the sandbox appear in the core's debug log (${logFile})`);
  },

  // On the electron target the window of the app is the page. The host comes first, so a
  // skipped electron test launches nothing.
  page: async ({ host, page }, use) => {
    await use(host instanceof ElectronHost ? host.page : page);
  },

  demo: async ({ host }, use) => {
    if (!host.demo) throw new Error('the host runs no sandbox, so it has no demo account');
    await use(host.demo);
  },
});

/** Opens the window of the host and waits until it has started (sign-in or the main screen). */
export async function openApp(page: Page, host: TestHost): Promise<void> {
  await host.open(page);
  await expect(page.getByRole('button', { name: 'Sign in', exact: true }).or(mainNav(page))).toBeVisible();
}

export function mainNav(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Main' });
}

/** Signs in on the sign-in screen and waits for the main screen. */
export async function signIn(page: Page, demo: Demo): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(demo.email);
  await page.getByLabel('Password', { exact: true }).fill(demo.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(mainNav(page)).toBeVisible();
}

/** Opens the app and signs in with the demo account. */
export async function start(page: Page, host: TestHost, demo: Demo): Promise<void> {
  await openApp(page, host);
  await signIn(page, demo);
}

/** A view of the sidebar: "Record", "Consults", "Differentials", "Treatment plans", "Settings". */
export async function go(page: Page, label: string): Promise<void> {
  // The Differentials item also shows its shortcut, which is part of its name.
  const name = new RegExp(`^${label}\\b`);
  await mainNav(page).getByRole('button', { name }).click();
}
