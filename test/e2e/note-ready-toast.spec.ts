// A note that becomes ready while the vet is on another view: a toast names the patient and is a
// button that opens that consult's note, gone once the note is on screen; until the note is
// opened, Consults counts it.
import type { Page } from '@playwright/test';
import { expect, go, shot, start, test, type Demo, type TestHost } from './fixtures.ts';
import { pickTemplate, typePatient } from './support/consults.ts';

/**
 * Signs in and records a consult of `patient`, then moves to Differentials and stops it there
 * from the tray, as main would: its note becomes ready while another view is shown.
 */
async function noteReadyElsewhere(page: Page, host: TestHost, demo: Demo, patient: string): Promise<void> {
  await start(page, host, demo);
  await pickTemplate(page, 'SOAP');
  await typePatient(page, { name: patient });
  await page.getByRole('button', { name: 'Start recording', exact: true }).click();
  const meter = page.getByRole('meter', { name: 'Input level' });
  await expect
    .poll(async () => Number(await meter.getAttribute('aria-valuenow')), { timeout: 15_000 })
    .toBeGreaterThan(0);
  await go(page, 'Differentials');
  await page.waitForTimeout(2_000);
  await host.recorderCommand('stop');
}

test("the note-ready toast opens that consult's note", async ({ page, host, demo }) => {
  await noteReadyElsewhere(page, host, demo, 'Bella');
  const toast = page.getByRole('button', { name: 'Note ready: Bella — Open note' });
  await expect(toast).toBeVisible({ timeout: 45_000 });
  await toast.click();
  await expect(page.getByRole('heading', { level: 1, name: /Bella/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Note' })).toBeVisible();
  await expect(toast).toHaveCount(0);
  await expect(page.getByLabel(/new note/)).toHaveCount(0);
});

test('a note ready while the vet is on another view: a toast names the patient, Consults counts it until opened', async ({
  page,
  host,
  demo,
}) => {
  await noteReadyElsewhere(page, host, demo, 'Biscuit');
  await expect(page.getByRole('button', { name: 'Note ready: Biscuit — Open note' })).toBeVisible({ timeout: 45_000 });
  const consults = page.getByRole('button', { name: /^Consults/ });
  await expect(consults.getByLabel('1 new note')).toBeVisible();
  await shot(page, 'note-ready-toast');
  await consults.click();
  await expect(
    page.getByRole('main').getByRole('article').getByText('Note ready', { exact: true }).first(),
  ).toBeVisible();
  await expect(page.getByLabel(/new note/)).toHaveCount(0);
});
