// A note that becomes ready while the vet is on another view: its toast is a button that opens
// that consult's note, and the toast is gone once the note is on screen.
import type { Page } from '@playwright/test';
import { expect, go, start, test } from './fixtures.ts';
import { pickTemplate, typePatient } from './support/consults.ts';

const startButton = (page: Page) => page.getByRole('button', { name: 'Start recording', exact: true });

test("the note-ready toast opens that consult's note", async ({ page, host, demo }) => {
  await start(page, host, demo);
  await pickTemplate(page, 'SOAP');
  await typePatient(page, { name: 'Bella' });
  await startButton(page).click();
  const meter = page.getByRole('meter', { name: 'Input level' });
  await expect
    .poll(async () => Number(await meter.getAttribute('aria-valuenow')), { timeout: 15_000 })
    .toBeGreaterThan(0);
  await go(page, 'Differentials');
  await page.waitForTimeout(2_000);
  await host.recorderCommand('stop');
  const toast = page.getByRole('button', { name: 'Note ready: Bella — Open note' });
  await expect(toast).toBeVisible({ timeout: 45_000 });
  await toast.click();
  await expect(page.getByRole('heading', { level: 1, name: /Bella/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Note' })).toBeVisible();
  await expect(toast).toHaveCount(0);
  await expect(page.getByLabel(/new note/)).toHaveCount(0);
});
