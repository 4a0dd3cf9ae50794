// The window follows its engine (the browser host, whose engine can stop while the window stays
// open): a lost engine is said within 5 s, and once it is back the window loads its state again,
// including what changed while it was away. Electron's window lives and dies with its engine.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, go, mainNav, signIn, start, test } from './fixtures.ts';
import { BrowserHost } from './support/test-host.ts';

test('a lost engine is said within 5 s; when it is back the window loads session and settings again', async ({
  page,
  host,
  demo,
}) => {
  // The browser project only (playwright.config.ts): Electron's window lives and dies with its engine.
  if (!(host instanceof BrowserHost)) throw new Error('this spec drives the browser host');
  const browserHost = host;
  await start(page, host, demo);
  await go(page, 'Settings');
  const length = page.getByRole('combobox', { name: 'Stop a recording left running after' });
  await expect(length).toHaveValue('90');

  await browserHost.kill();
  // The window's own notice (a section whose call failed meanwhile may quote the bridge's words too).
  const lost = page
    .getByRole('alert')
    .filter({ hasText: 'The app engine is not answering. Recordings on this computer are kept' });
  await expect(lost).toBeVisible({ timeout: 5_000 });

  // While it is away, its settings change on disk: the window cannot have heard of it.
  const file = join(host.dataDir, 'settings.json');
  const saved = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as object) : { version: 1 };
  writeFileSync(file, JSON.stringify({ ...saved, maxRecordingMinutes: 120 }));
  await browserHost.start();
  await expect(lost).toHaveCount(0, { timeout: 15_000 });

  // The window shows what the engine says now: signed in (a kept sign-in) or the sign-in screen.
  const session = await host.call('session:get');
  if (!session.signedIn) {
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    await signIn(page, demo);
    await go(page, 'Settings');
  } else {
    await expect(mainNav(page)).toBeVisible();
  }
  await expect(page.getByRole('combobox', { name: 'Stop a recording left running after' })).toHaveValue('120');
});
