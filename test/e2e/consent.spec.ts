// The pet owner's consent, when Settings asks for it: Start asks first; "No" records nothing and
// says so; "Yes" records, and the consult keeps "Pet owner consented to recording" with the time.
import { expect, go, shot, start, test } from './fixtures.ts';
import { onlyConsult, typePatient } from './support/consults.ts';

test('with consent asked for, Start asks first: No records nothing and says so; Yes records and the consult keeps the time', async ({
  page,
  host,
  demo,
}) => {
  await host.call('settings:update', { askPetOwnerConsent: true });
  await start(page, host, demo);
  await typePatient(page, { name: 'Bella', description: 'Vomiting' });
  const startButton = page.getByRole('button', { name: 'Start recording', exact: true });

  await startButton.click();
  const ask = page.getByRole('alertdialog', { name: 'Has the pet owner agreed to this consult being recorded?' });
  await expect(ask).toBeVisible();
  await expect(ask.getByRole('button', { name: 'Yes, the pet owner agreed: record' })).toBeFocused();
  await shot(page, 'consent-ask');
  await ask.getByRole('button', { name: 'No, do not record' }).click();
  await expect(page.getByText('Not recorded: the owner did not consent. Nothing was recorded.')).toBeVisible();
  await expect(startButton).toBeFocused();
  expect(await host.call('consults:list')).toEqual([]);

  await startButton.click();
  await ask.getByRole('button', { name: 'Yes, the pet owner agreed: record' }).click();
  const pause = page.getByRole('button', { name: 'Pause', exact: true });
  await expect(pause).toBeVisible();
  await page.waitForTimeout(1_500);
  await page.getByRole('button', { name: 'Stop recording', exact: true }).click();
  await expect(startButton).toBeVisible();
  const consult = await onlyConsult(host);
  expect(consult.recording.consentAt).toBe(consult.recording.startedAt);
  await go(page, 'Consults');
  await expect(page.getByRole('article', { name: 'Bella — Vomiting' })).toContainText(
    /Pet owner consented to recording at \d{1,2}:\d{2}/,
  );
});

test('consent is not asked for by default: Start records at once', async ({ page, host, demo }) => {
  await start(page, host, demo);
  await typePatient(page, { name: 'Rex' });
  await page.getByRole('button', { name: 'Start recording', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await page.getByRole('button', { name: 'Stop recording', exact: true }).click();
  expect((await onlyConsult(host)).recording.consentAt).toBeNull();
});
