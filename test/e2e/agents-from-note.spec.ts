// A cat's consult, from its note to the agents: the note fits a cat; "Get differentials from this
// note" asks at once with the note as plain text, the answer says whose note it was and is kept
// with the consult, listed on its note and opened again from there; then a medication question
// for the cat with a weight gives the cat's dose first with its total.
import { expect, go, shot, test } from './fixtures.ts';
import { onlyConsult, startToReadyNote } from './support/consults.ts';

const PATIENT = { name: 'Misty', description: 'Cat, lame left hind' };

test('differentials from a cat’s note start at once, are kept with the consult, and the cat’s dose comes first', async ({
  page,
  host,
  demo,
}) => {
  await startToReadyNote(page, host, demo, { template: 'Sick visit', patient: PATIENT });
  const { id } = (await onlyConsult(host)).recording;
  const region = page.getByRole('region', { name: 'Note' });
  // The sandbox's example fits a cat: a cat's weight, not a large dog's.
  await expect(region).toContainText('Weight 5.1 kg');
  await expect(region).not.toContainText('31.0 kg');

  // One click (in More): the note's history and examination go as plain text and the answer comes without another.
  await page.getByRole('button', { name: 'More', exact: true }).click();
  await page.getByRole('button', { name: 'Get differentials from this note', exact: true }).click();
  const history = page.getByLabel('Clinical history', { exact: true });
  // The history and examination only: not the disclaimer, the differentials or the treatment.
  await expect(history).toHaveValue(/^Presenting complaint\n[\s\S]*Physical examination\n/);
  const sent = await history.inputValue();
  expect(sent).not.toMatch(/##|\*\*/);
  expect(sent).not.toMatch(/Example note|Differential diagnoses|Treatment|Client communication/);
  const main = page.getByRole('main');
  const origin = main.getByText(/^From the note of Misty, asked \d{1,2}:\d\d/);
  await expect(origin).toBeVisible({ timeout: 15_000 });
  await expect(main.getByText(/^Answer to:/)).toHaveCount(0);
  await expect(main.getByRole('heading', { name: 'In short', exact: true })).toBeVisible();
  const kept = await host.call('consults:answers', { id });
  expect(kept).toHaveLength(1);
  expect(kept[0]).toMatchObject({ kind: 'ddx', question: sent.trim() });
  await shot(page, 'ddx-from-note');

  // Linked both ways: back to the consult, where the answer is listed, and open again from there.
  await main.getByRole('button', { name: 'Open consult', exact: true }).click();
  const answers = page.getByRole('list', { name: 'Answers kept with this consult' });
  await expect(answers.getByRole('listitem')).toHaveCount(1);
  await expect(answers).toContainText(/Differentials — asked \d{1,2}:\d\d/);
  await shot(page, 'note-kept-answers');
  await answers.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(origin).toBeVisible();
  await expect(main.getByRole('heading', { name: 'In short', exact: true })).toBeVisible();
  expect(await host.call('consults:answers', { id })).toHaveLength(1);

  // A medication question for the cat with its weight: the cat's dose first, with its total.
  await go(page, 'Medications');
  const field = page.getByLabel('Drug and species', { exact: true });
  await field.fill('meloxicam cat 4.2 kg');
  await field.press('Control+Enter');
  const dosing = main
    .getByRole('article')
    .first()
    .locator('.result-field')
    .filter({ has: page.getByRole('term').filter({ hasText: /^Dosing by species$/ }) })
    .getByRole('definition');
  await expect(dosing).toHaveText(/^Cat: 0\.3 mg\/kg \(= 1\.26 mg for 4\.2 kg\)/);
  await expect(dosing).toContainText('0.05 mg/kg (= 0.21 mg for 4.2 kg)');
  await expect(main.getByRole('heading', { name: 'Summary', exact: true })).toBeVisible();
  await expect(main.getByText(/Meloxicam for a 4\.2 kg cat: 1\.26 mg/)).toBeVisible();
  await shot(page, 'medication-cat-weight');
});
