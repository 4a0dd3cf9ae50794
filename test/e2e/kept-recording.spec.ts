// A recording kept going through Switch user, end to end in the browser host: with no one signed
// in the header names whose recording it is and offers only Sign in; Stop says the recording is
// kept as its vet's, with no red error; the colleague who signs in next finds an empty recorder.
// Screenshots of the header during the recording and of the recorder after the switch, at
// 1280×800 and 1024×700, light and dark.
import { COLLEAGUE_ACCOUNT, OTHER_ACCOUNT } from '../../src/sandbox/index.ts';
import { expect, shot, signIn, start, test, type Demo, type TestHost } from './fixtures.ts';
import { pickTemplate, typePatient } from './support/consults.ts';
import type { Locator, Page } from '@playwright/test';

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1024, height: 700 },
] as const;

/** What the vet sees first, at each size and in each scheme. */
async function shots(page: Page, name: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme, media: 'screen' });
      await shot(page, `${name}-${size.width}x${size.height}-${scheme}`, { fullPage: false });
    }
  }
  await page.setViewportSize(SIZES[0]);
  await page.emulateMedia({ colorScheme: 'light', media: 'screen' });
}

/**
 * The demo vet signs in and starts recording Bella, then Switch user, and keeps the recording
 * going; the Dismiss buttons of the notices, to put them away before a picture.
 */
async function keepRecordingBella(page: Page, host: TestHost, demo: Demo): Promise<Locator> {
  await start(page, host, demo);
  // The pictures are of the recorder: the browser host's notice about its keychain is put away.
  const dismiss = page.getByRole('button', { name: 'Dismiss notice', exact: true });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
  await pickTemplate(page, 'SOAP');
  await typePatient(page, { name: 'Bella', description: 'Vomiting 2 days' });
  await page.getByRole('button', { name: 'Start recording', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Stop recording', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Switch user', exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Keep recording' }).click();
  return dismiss;
}

test('Keep recording: the header offers only Sign in and names whose recording it is; Stop keeps it as theirs with no error', async ({
  page,
  host,
  demo,
}) => {
  const dismiss = await keepRecordingBella(page, host, demo);
  const header = page.getByRole('banner');
  await expect(header).toContainText('Recording for Dr. Demo Vet · no one signed in');
  await expect(header.getByRole('button', { name: 'Switch user' })).toHaveCount(0);
  await expect(header.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
  await expect(header.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(page.getByRole('textbox', { name: "Patient's name" })).toHaveValue('Bella');
  await shots(page, 'kept-recording-header');

  // Sign in from the header: the screen says the recording goes on, and leads back to it.
  await header.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Dr. Demo Vet’s recording goes on.')).toBeVisible();
  await shots(page, 'kept-recording-sign-in');
  await page.getByRole('button', { name: 'Back to the recording' }).click();

  // Stopped with no one signed in: kept as its vet's; the next vet signs in to an empty recorder.
  await page.getByRole('button', { name: 'Stop recording', exact: true }).click();
  await expect(page.getByLabel('Email', { exact: true })).toBeVisible();
  await expect(page.getByText(/could not be finished|belongs to the vet/)).toHaveCount(0);
  await signIn(page, COLLEAGUE_ACCOUNT);
  await expect(page.getByRole('textbox', { name: "Patient's name" })).toHaveValue('');
  await expect(
    page.getByText(/Recorded for|kept on this computer as|could not be finished|belongs to the vet/),
  ).toHaveCount(0);
  while ((await dismiss.count()) > 0) await dismiss.first().click();
  await shots(page, 'after-switch-recorder');
});

test('a vet who signs in during a recording kept going sees it as its vet’s: details read-only, and a neutral line at Stop', async ({
  page,
  host,
  demo,
}) => {
  const dismiss = await keepRecordingBella(page, host, demo);

  // A vet of another clinic signs in from the header while it goes on.
  await page.getByRole('banner').getByRole('button', { name: 'Sign in', exact: true }).click();
  await signIn(page, OTHER_ACCOUNT);
  await expect(page.getByText('Recording for Dr. Demo Vet', { exact: true })).toBeVisible();
  await expect(page.getByRole('textbox', { name: "Patient's name" })).not.toBeEditable();
  await page.getByRole('button', { name: 'Stop recording', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Start recording', exact: true })).toBeVisible();
  await expect(page.getByText("The recording is kept on this computer as Dr. Demo Vet's")).toBeVisible();
  await expect(page.getByText(/could not be finished|belongs to the vet/)).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: "Patient's name" })).toHaveValue('');
  // The template was its vet's choice: not carried to this vet's next consult.
  await expect(page.getByText('Template: SOAP')).toHaveCount(0);
  while ((await dismiss.count()) > 0) await dismiss.first().click();
  await shots(page, 'recorder-kept-for-its-vet');
});
