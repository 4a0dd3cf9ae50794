// End-to-end suite, `browser` target (DESIGN.md "Testing without an Electron binary"): each
// test starts its own browser host (the real core and sandbox under Node) and drives the
// window in the system Chromium, with a fake microphone fed from a WAV fixture.
import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';

const fakeAudio = resolve(import.meta.dirname, 'test/fixtures/audio/consult.wav');

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  globalSetup: './test/e2e/global-setup.ts',
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
          executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
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
  ],
});
