// The dark theme for a dim exam room: it follows the operating system's, and every view is as
// readable in it as in the light one (axe: no serious or critical violation, contrast
// included). The header stays in view when the page scrolls. On a wide window the consults list
// and the open note sit side by side.
import type { Page } from '@playwright/test';
import { expect, expectAccessible, go, openApp, shot, signIn, test } from './fixtures.ts';
import { expectNoteReady, openNote, pickTemplate, record, startToReadyNote } from './support/consults.ts';

/** The page's background as the browser paints it, as [r, g, b]. */
async function background(page: Page): Promise<number[]> {
  const css = String(await page.evaluate('getComputedStyle(document.documentElement).backgroundColor'));
  return (css.match(/\d+/g) ?? []).slice(0, 3).map(Number);
}
const dark = (rgb: number[]) => rgb.length === 3 && rgb.every((c) => c < 60);

/** Asks the Differentials panel about `history` and waits for its answer: a long page to look at. */
async function differentials(page: Page, history: string): Promise<void> {
  await go(page, 'Differentials');
  await page.getByLabel('Clinical history', { exact: true }).fill(history);
  await page.getByRole('button', { name: 'Get differentials', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'In short' })).toBeVisible();
}

test('the dark theme follows the system: every view is dark and passes axe, contrast included', async ({
  page,
  host,
  demo,
}) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await openApp(page, host);
  expect(dark(await background(page)), 'a dark page').toBe(true);
  await expectAccessible(page, 'dark-sign-in');
  await shot(page, 'dark-sign-in');
  await signIn(page, demo);
  await pickTemplate(page, 'SOAP');
  await expectAccessible(page, 'dark-record');
  await shot(page, 'dark-record');
  await record(page, 2);
  await go(page, 'Consults');
  await expectNoteReady(page);
  await expectAccessible(page, 'dark-consults');
  await openNote(page);
  await expectAccessible(page, 'dark-note');
  await shot(page, 'dark-note');
  await differentials(page, 'Cat, 12 years, drinking and urinating more, weight loss');
  await expectAccessible(page, 'dark-differentials');
  await shot(page, 'dark-differentials');
  await go(page, 'Settings');
  await expectAccessible(page, 'dark-settings');

  // The same window in the light theme, when the system changes.
  await page.emulateMedia({ colorScheme: 'light' });
  expect(dark(await background(page)), 'a light page').toBe(false);
});

test('the header, with the recording indicator, stays in view when the page scrolls', async ({ page, host, demo }) => {
  await page.setViewportSize({ width: 1280, height: 600 });
  await openApp(page, host);
  await signIn(page, demo);
  await differentials(page, 'Dog, Labrador, 7 years. Vomiting for two days, lethargic, painful abdomen.');
  await page.mouse.wheel(0, 3000);
  // Scrolled well past the header's own height (the answer's page is about 500 px taller than the window).
  await expect.poll(async () => Number(await page.evaluate('window.scrollY'))).toBeGreaterThan(300);
  const header = page.locator('.topbar');
  const box = await header.boundingBox();
  expect(box?.y).toBe(0);
  await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeInViewport();
});

test('on a wide window the consults list and the open note sit side by side', async ({ page, host, demo }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await startToReadyNote(page, host, demo, { seconds: 1, open: false });
  await expect(page.getByText('Open a consult’s note to read it here, beside the list.')).toBeVisible();
  await openNote(page);
  const row = page.getByRole('main').getByRole('article').first();
  const note = page.getByRole('region', { name: 'Note' });
  await expect(row).toBeVisible();
  await expect(note).toBeVisible();
  const [a, b] = [await row.boundingBox(), await note.boundingBox()];
  expect(a && b && a.x + a.width <= b.x, 'the list left of the note').toBe(true);
  // The window's width is used: the note starts past the middle of a 1920 px window's content.
  expect(b!.x + b!.width).toBeGreaterThan(1500);
  await expectAccessible(page, 'wide-note');
  await shot(page, 'wide-note');
});
