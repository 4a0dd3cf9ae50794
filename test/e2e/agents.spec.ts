import { expect, expectAccessible, go, mainNav, shot, start, test } from './fixtures.ts';

const HISTORY = 'Dog, Labrador, 7 years. Vomiting for two days, lethargic, painful abdomen after eating fatty food.';
const NO_SPECIES = 'Itchy ears and head shaking for a week — otitis externa';
const WITH_SPECIES = 'Dog, 6 years, itchy ears, head shaking — otitis externa';

test('differentials from a clinical history: summaries and a card per diagnosis', async ({ page, host, demo }) => {
  await start(page, host, demo);
  await go(page, 'Differentials');
  await page.getByLabel('Clinical history', { exact: true }).fill(HISTORY);
  await page.getByRole('button', { name: 'Get differentials', exact: true }).click();

  const answer = await host.call('agents:ddx', { input: HISTORY });
  expect(answer.status).toBe(true);
  expect(answer.diagnoses.length).toBeGreaterThan(0);
  const main = page.getByRole('main');
  await expect(main.getByText(answer.concise ?? '')).toBeVisible();
  // The summary in readable paragraphs, every word of it; the concise answer said once; the
  // service's check of the input ("Relevant to …") not shown.
  const paragraphs = await main.locator('.agent-summary p').allTextContents();
  expect(paragraphs.length).toBeGreaterThan(1);
  expect(paragraphs.join(' ')).toBe((answer.summary ?? '').trim());
  await expect(main.getByText('In short')).toHaveCount(1);
  await expect(main.getByText(answer.reason)).toHaveCount(0);
  for (const d of answer.diagnoses)
    await expect(main.getByRole('heading', { level: 3, name: d.label, exact: true })).toBeVisible();

  await expectAccessible(page, 'differentials');
  await shot(page, 'differentials');
});

test('a treatment plan asks for the species, then shows plan cards', async ({ page, host, demo }) => {
  await start(page, host, demo);
  await go(page, 'Treatment plans');
  const details = page.getByLabel('Case details', { exact: true });
  const main = page.getByRole('main');

  await details.fill(NO_SPECIES);
  await page.getByRole('button', { name: 'Get treatment plan', exact: true }).click();
  await expect(
    main
      .getByRole('alert')
      .or(main.getByRole('status'))
      .filter({ hasText: /species/i })
      .first(),
  ).toBeVisible();
  await shot(page, 'treatment-species-warning');

  await details.fill(WITH_SPECIES);
  await page.getByRole('button', { name: 'Get treatment plan', exact: true }).click();
  const answer = await host.call('agents:treatmentPlan', { input: WITH_SPECIES });
  if (answer.kind !== 'result') throw new Error(`the engine asks for the species of "${WITH_SPECIES}"`);
  expect(answer.result.plans.length).toBeGreaterThan(0);
  await expect(main.getByText(answer.result.concise ?? '')).toBeVisible();
  for (const plan of answer.result.plans)
    await expect(main.getByText(plan.diagnosisName ?? plan.label, { exact: true }).first()).toBeVisible();
  await expect(main.getByText(answer.result.plans[0]?.treatmentGoal ?? '').first()).toBeVisible();

  await expectAccessible(page, 'treatment');
  await shot(page, 'treatment');
});

test('Ctrl+K from the Record view opens Differentials with the cursor in Clinical history', async ({
  page,
  host,
  demo,
}) => {
  await start(page, host, demo);
  await expect(page.getByRole('button', { name: 'Start recording', exact: true })).toBeVisible();
  await page.keyboard.press('Control+K');
  await expect(page.getByLabel('Clinical history', { exact: true })).toBeFocused();
  await expect(mainNav(page).getByRole('button', { name: /^Differentials/ })).toHaveAttribute('aria-current', 'page');
});
