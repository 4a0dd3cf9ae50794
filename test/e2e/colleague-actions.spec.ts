// What a colleague may do with another vet's unsent consult, said before any click: the vet
// records a consult and leaves it without a template, a colleague of the same clinic signs in
// with Switch user, and the row says who may send and delete it in place of Send and Delete.
// Pictured at the two window sizes of the exam-room PCs, light and dark.
import { COLLEAGUE_ACCOUNT } from '../../src/sandbox/index.ts';
import { eachLook, expect, go, shot, signIn, start, test } from './fixtures.ts';
import { recordThroughCalls } from './support/consults.ts';

test('a colleague is told who may send and delete another vet’s unsent consult, with no Send or Delete to click', async ({
  page,
  host,
  demo,
}) => {
  await start(page, host, demo);
  await recordThroughCalls(host, { name: 'Rex', description: 'Limping, left hind' });

  await page.getByRole('button', { name: 'Switch user', exact: true }).click();
  await signIn(page, COLLEAGUE_ACCOUNT);
  await go(page, 'Consults');
  const row = page.getByRole('main').getByRole('article').first();
  await expect(row.getByText('Only Dr. Demo Vet can send this consult.')).toBeVisible();
  await expect(row.getByText('Only Dr. Demo Vet can delete this consult.')).toBeVisible();
  await expect(row.getByRole('button', { name: 'Send', exact: true })).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);
  await expect(row.getByRole('combobox', { name: 'Template' })).toHaveCount(0);

  await eachLook(page, async ({ width, height, colorScheme }) => {
    await shot(page, `colleague-unsent-row-${width}x${height}-${colorScheme}`, { fullPage: false });
  });
});
