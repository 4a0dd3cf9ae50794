// Who did what, on a shared PC: the vet records a consult, a colleague of the same clinic signs
// in, edits the note (the note and its History name them) and is told in one sentence, before any
// click, that only the vet who recorded it may delete it; the vet back, the note says the
// colleague edited it, and when.
import { COLLEAGUE_ACCOUNT } from '../../src/sandbox/index.ts';
import { expect, go, signIn, test } from './fixtures.ts';
import { expectNoteReady, openNote, startToReadyNote } from './support/consults.ts';

const HH_MM = String.raw`\d{1,2}:\d{2}`;

test('a colleague’s edit is named on the note and in its History; the other vet’s consult offers no Delete and says who may delete it', async ({
  page,
  host,
  demo,
}) => {
  await startToReadyNote(page, host, demo, { open: false });

  await page.getByRole('button', { name: 'Switch user', exact: true }).click();
  await signIn(page, COLLEAGUE_ACCOUNT);
  // The demo vet's template is theirs: the colleague's next patient starts from none of theirs.
  await go(page, 'Record');
  const template = page.getByRole('combobox', { name: 'Template' });
  await expect(template).toBeEnabled();
  await expect(template.locator('option:checked')).not.toContainText('SOAP');
  await go(page, 'Consults');
  await expectNoteReady(page);
  await openNote(page);
  await page.getByRole('button', { name: 'More', exact: true }).click();
  await page.getByRole('button', { name: 'Edit note' }).click();
  await page
    .getByRole('group', { name: 'Edit note' })
    .getByRole('textbox')
    .first()
    .fill('Carprofen 4 mg/kg once daily.');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const badge = page.locator('.note-view .row .badge');
  await expect(badge).toHaveText(new RegExp(`^Edited by you at ${HH_MM}`));
  await page.getByText('History', { exact: true }).click();
  await expect(page.locator('.consult-trail li')).toHaveText([
    /^Recorded by Dr\. Demo Vet,/,
    /^Sent by Dr\. Demo Vet,/,
    /^Edited by you,/,
  ]);

  await go(page, 'Consults');
  const row = page.getByRole('main').getByRole('article').first();
  await expect(row.getByText('Only Dr. Demo Vet can delete this consult.')).toBeVisible();
  await expect(row.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);
  await openNote(page);
  await page.getByRole('button', { name: 'More', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);
  await page.keyboard.press('Escape');
  expect(await host.call('consults:list')).toHaveLength(1);

  await page.getByRole('button', { name: 'Switch user', exact: true }).click();
  await signIn(page, demo);
  await go(page, 'Consults');
  await openNote(page);
  await expect(badge).toHaveText(new RegExp(`^Edited by Dr\\. Colleague Vet at ${HH_MM}`));
});
