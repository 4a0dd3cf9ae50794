// What a vet sees of the consults list and the treatment plan at the two window sizes of the
// exam-room PCs, light and dark: rows with a note offer Open note and no Delete (a row with no
// note keeps a plain one); signed out while a recording goes on, Consults says the list shows
// after sign-in; a treatment plan that arrives below a long case is brought into view.
import type { Page } from '@playwright/test';
import { expect, go, start, test } from './fixtures.ts';
import { recordThroughCalls, startToReadyNote, typePatient, pickTemplate } from './support/consults.ts';

const SIZES = [
  [1280, 800],
  [1024, 700],
] as const;

/** Pictures the window as it is now (not scrolled back to its top) at each size and scheme, via `each`. */
async function atEachSize(page: Page, name: string, each?: () => Promise<void>): Promise<void> {
  for (const [width, height] of SIZES)
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme });
      await each?.();
      await page.screenshot({
        path: test.info().outputPath(`${name}-${width}x${height}-${colorScheme}.png`),
        animations: 'disabled',
        caret: 'hide',
      });
    }
}

test('rows with a note offer Open note and no Delete; a row with no note keeps a plain Delete', async ({
  page,
  host,
  demo,
}) => {
  await startToReadyNote(page, host, demo, { open: false });
  await recordThroughCalls(host, { name: 'Otis', description: 'Itchy ears' });
  const main = page.getByRole('main');
  const ready = main.getByRole('article', { name: 'Bella — Vomiting 2 days' });
  const unsent = main.getByRole('article', { name: 'Otis — Itchy ears' });
  await expect(ready.getByRole('button', { name: 'Open note', exact: true })).toBeVisible();
  await expect(ready.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);
  const remove = unsent.getByRole('button', { name: 'Delete', exact: true });
  await expect(remove).toBeVisible();
  // Plain: none of the row's buttons in the danger red, as the page computes both (the variable
  // itself may be written in any notation). (A string, as the specs are typed without the DOM's names.)
  const { red, colours } = (await page.evaluate(`(() => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--danger)';
    document.body.append(probe);
    const red = getComputedStyle(probe).color;
    probe.remove();
    const row = [...document.querySelectorAll('main article')].find((a) => a.textContent.includes('Otis'));
    return { red, colours: [...row.querySelectorAll('button')].map((b) => [b.textContent, getComputedStyle(b).color]) };
  })()`)) as { red: string; colours: [string, string][] };
  expect(red).toMatch(/^rgb/);
  expect(colours.map(([label]) => label)).toContain('Delete');
  for (const [label, colour] of colours) expect(colour, label).not.toBe(red);
  await atEachSize(page, 'consult-rows');
});

test('signed out while a recording goes on, Consults says the consults show after sign-in', async ({
  page,
  host,
  demo,
}) => {
  await start(page, host, demo);
  await pickTemplate(page, 'SOAP');
  await typePatient(page, { name: 'Luna', description: 'Limping' });
  await page.getByRole('button', { name: 'Start recording', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Stop recording', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Switch user', exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Keep recording' }).click();
  await go(page, 'Consults');
  const main = page.getByRole('main');
  await expect(main.getByText('Your consults show here after sign-in.')).toBeVisible();
  await expect(main.getByText(/No consults yet/)).toHaveCount(0);
  await atEachSize(page, 'consults-signed-out');
  await main.getByRole('button', { name: 'Go to Record', exact: true }).click();
  await page.getByRole('button', { name: 'Stop recording', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
});

test('a treatment plan that arrives below a long case is brought into view and takes the focus', async ({
  page,
  host,
  demo,
}) => {
  await start(page, host, demo);
  await go(page, 'Treatment plans');
  const details = page.getByLabel('Case details', { exact: true });
  const long = Array.from({ length: 14 }, (_, i) => `Line ${i + 1} of the history.`).join('\n');
  await atEachSize(page, 'treatment-plan-arrived', async () => {
    await page.evaluate('window.scrollTo(0, 0)');
    await details.fill(`Dog, 6 years, 32 kg Labrador: acute gastroenteritis.\n${long}`);
    await page.getByRole('button', { name: 'Get treatment plan', exact: true }).click();
    const answer = page.getByRole('region', { name: 'Answer' });
    await expect(answer).toBeFocused();
    await expect(answer.getByRole('heading', { name: 'In short' })).toBeInViewport();
    await expect.poll(() => page.evaluate('window.scrollY')).toBeGreaterThan(0);
    // The smooth scroll settled before the picture: the same place two frames apart.
    await expect
      .poll(() =>
        page.evaluate(
          'new Promise((r) => { const y = scrollY; requestAnimationFrame(() => requestAnimationFrame(() => r(scrollY === y))); })',
        ),
      )
      .toBe(true);
  });
});
