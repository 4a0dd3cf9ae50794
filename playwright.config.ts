// End-to-end suite (docs/testing.md, "Playwright"), one set of specs on two
// targets:
// - `browser`: each test starts its own browser host (the real core and sandbox under Node)
//   and drives the window in the system Chromium, with a fake microphone fed from a WAV fixture.
// - `electron`: each test launches the built app with Playwright's _electron.launch, on its own
//   user-data folder, with the same fake microphone (test/e2e/support/electron-host.ts). It
//   runs only when asked for, on Linux under a display:
//     xvfb-run --auto-servernum npx playwright test --project electron
//   Where the Electron binary is not installed, it prints why and its tests are skipped.
import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import type { Options } from './test/e2e/fixtures.ts';

const fakeAudio = resolve(import.meta.dirname, 'test/fixtures/audio/consult.wav');
const chromium = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export default defineConfig<Options>({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  globalSetup: ['./test/e2e/global-setup.ts', './test/e2e/support/electron-setup.ts'],
  // Two cores: one test per core; each test's host and browser then share one.
  workers: 2,
  fullyParallel: true,
  // A flaky end-to-end test is a bug to fix, not a run to repeat.
  retries: 0,
  forbidOnly: !!process.env['CI'],
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    viewport: { width: 1280, height: 800 },
    colorScheme: 'light',
    locale: 'en-GB',
    timezoneId: 'UTC',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
  },
  projects: [
    {
      name: 'browser',
      use: {
        browserName: 'chromium',
        headless: true,
        // The system Chromium: the suite never downloads a browser.
        launchOptions: {
          executablePath: chromium,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--no-first-run',
            '--disable-sync',
            '--use-fake-ui-for-media-stream',
            '--use-fake-device-for-media-stream',
            `--use-file-for-fake-audio-capture=${fakeAudio}`,
            '--autoplay-policy=no-user-gesture-required',
          ],
        },
        permissions: ['microphone', 'clipboard-read', 'clipboard-write'],
      },
    },
    {
      name: 'electron',
      // `npx playwright test` and `npm test` run the browser target; this one when named.
      default: false,
      // An engine lost under an open window happens only in the browser host: Electron's
      // window lives and dies with its engine.
      testIgnore: /engine-link\.spec\.ts$/,
      use: {
        target: 'electron',
        // Playwright's traces and screenshots follow its own browser, which the specs do not
        // use on this target: the host records the app's window itself.
        trace: 'off',
        screenshot: 'off',
        // Playwright still opens a page in a browser for every test; the system Chromium.
        browserName: 'chromium',
        headless: true,
        launchOptions: { executablePath: chromium, args: ['--no-sandbox', '--disable-gpu'] },
      },
    },
  ],
});
