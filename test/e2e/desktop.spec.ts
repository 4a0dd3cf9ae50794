// The window's side of the desktop conventions: the tray's and the global shortcut's commands
// drive the recorder as its buttons do (the host sends them as main would: the browser host
// takes them on its input), and Settings takes a new recording shortcut from the keys pressed.
import type { Locator, Page } from '@playwright/test';
import { expect, go, shot, start, test, type Demo, type TestHost } from './fixtures.ts';
import { DEFAULT_PATIENT, onlyConsult, typePatient } from './support/consults.ts';

const startButton = (page: Page) => page.getByRole('button', { name: 'Start recording', exact: true });

/** Signs in and opens Settings: the section named, where the desktop's settings are taken. */
async function signedInSettings(page: Page, host: TestHost, demo: Demo, name: string): Promise<Locator> {
  await start(page, host, demo);
  await go(page, 'Settings');
  return page.getByRole('region', { name });
}

test("the tray's and the shortcut's commands drive the recorder; a start without a patient's name records at once", async ({
  page,
  host,
  demo,
}) => {
  // From another view (Settings), with no name typed: the recorder is shown and records.
  await signedInSettings(page, host, demo, 'Recording shortcut');
  await host.recorderCommand('toggle');
  const name = page.getByRole('textbox', { name: "Patient's name" });
  const pause = page.getByRole('button', { name: 'Pause', exact: true });
  await expect(pause).toBeVisible();
  await expect
    .poll(async () => (await host.call('consults:list')).filter((c) => c.recording.state === 'recording'))
    .toHaveLength(1);
  // The name, typed while it records, reaches the consult.
  await expect(name).toBeEditable();
  await typePatient(page, DEFAULT_PATIENT);

  await host.recorderCommand('pause');
  await expect(page.getByRole('button', { name: 'Resume', exact: true })).toBeVisible();
  await host.recorderCommand('resume');
  await expect(pause).toBeVisible();
  // A start while recording does nothing; toggle stops.
  await host.recorderCommand('start');
  await expect(pause).toBeVisible();
  await page.waitForTimeout(1_200);
  await host.recorderCommand('toggle');
  await expect(startButton(page)).toBeVisible();
  const consult = await onlyConsult(host);
  expect(consult.recording).toMatchObject({ state: 'finished', patientName: DEFAULT_PATIENT.name });
  await shot(page, 'desktop-commands');
});

test('Settings takes a new recording shortcut from the keys pressed, refuses keys without Ctrl, Alt or Cmd, and can turn it off', async ({
  page,
  host,
  demo,
}) => {
  const section = await signedInSettings(page, host, demo, 'Recording shortcut');
  await expect(section.getByText('Ctrl+Shift+R')).toBeVisible();
  await expect(
    section.getByText('The shortcut and the tray icon work in the desktop app', { exact: false }),
  ).toBeVisible();

  await section.getByRole('button', { name: 'Change shortcut…' }).click();
  const keys = section.getByRole('textbox', { name: 'Press the new keys' });
  await expect(keys).toBeFocused();
  // Shift alone with a letter would take that letter from every app.
  await page.keyboard.press('Shift+KeyK');
  await expect(section.getByRole('alert')).toHaveText(
    'The shortcut was not changed. Shift+K needs Ctrl, Alt or Cmd with K, or every app would lose that key.',
  );
  expect((await host.call('settings:get')).recordShortcut).toBe('CommandOrControl+Shift+R');

  await page.keyboard.press('Control+Alt+KeyK');
  await expect(section.getByRole('status')).toHaveText('Saved. Ctrl+Alt+K starts and stops recording.');
  expect((await host.call('settings:get')).recordShortcut).toBe('CommandOrControl+Alt+K');
  await expect(section.getByRole('button', { name: 'Change shortcut…' })).toBeFocused();

  // Escape gives up without a change.
  await section.getByRole('button', { name: 'Change shortcut…' }).click();
  await page.keyboard.press('Escape');
  await expect(section.getByRole('button', { name: 'Change shortcut…' })).toBeFocused();
  expect((await host.call('settings:get')).recordShortcut).toBe('CommandOrControl+Alt+K');

  await section.getByRole('button', { name: 'Turn off' }).click();
  await expect(section.getByRole('status')).toHaveText('Saved. No shortcut starts recording.');
  await section.getByRole('button', { name: 'Use Ctrl+Shift+R' }).click();
  await expect(section.getByRole('status')).toHaveText('Saved. Ctrl+Shift+R starts and stops recording.');
  // Kept across a reload.
  await page.reload();
  await go(page, 'Settings');
  await expect(page.getByRole('region', { name: 'Recording shortcut' }).getByText('Ctrl+Shift+R')).toBeVisible();
  await shot(page, 'settings-shortcut');
});

test('Settings: the update feed is off in the browser host, an address that is not https is refused with a sentence, an https one is saved', async ({
  page,
  host,
  demo,
}) => {
  const section = await signedInSettings(page, host, demo, 'Updates');
  await expect(section.getByText('Off. Updates come with the installed desktop app.')).toBeVisible();
  const field = section.getByRole('textbox', { name: 'Update feed address' });
  await field.fill('http://updates.clinic.example/vet-scribe/');
  await section.getByRole('button', { name: 'Save' }).click();
  await expect(section.getByRole('alert')).toHaveText(
    'The update feed was not changed. The address must be an https:// address (http:// only for this computer).',
  );
  expect((await host.call('settings:get')).updateFeedUrl).toBe('');
  await field.fill('https://updates.clinic.example/vet-scribe/');
  await section.getByRole('button', { name: 'Save' }).click();
  await expect(section.getByRole('status')).toHaveText(
    'Saved. The app looks for new versions there now and every 4 hours.',
  );
  expect((await host.call('settings:get')).updateFeedUrl).toBe('https://updates.clinic.example/vet-scribe/');
  // No banner: nothing was downloaded.
  await expect(page.getByText(/^Update ready/)).toHaveCount(0);
});
