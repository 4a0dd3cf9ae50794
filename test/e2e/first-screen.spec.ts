// Screens that get out of the way: Sign in is on the first screen of a common laptop window,
// light and dark, without scrolling; after sign-in and after a change of view the window is at
// its top, wherever the last screen had been scrolled to.
import type { Page } from '@playwright/test';
import { expect, expectAccessible, mainNav, openApp, test } from './fixtures.ts';

/** Where the Sign in button is, read without Playwright scrolling it into view first. */
// (Strings, as the specs are typed without the DOM's names.)
async function signInButtonBox(page: Page): Promise<{ top: number; bottom: number; scrollY: number }> {
  return (await page.evaluate(`(() => {
    const button = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Sign in');
    if (!button) throw new Error('no Sign in button');
    const { top, bottom } = button.getBoundingClientRect();
    return { top, bottom, scrollY: window.scrollY };
  })()`)) as { top: number; bottom: number; scrollY: number };
}

const scrollY = async (page: Page) => Number(await page.evaluate('window.scrollY'));
const scrollToBottom = (page: Page) => page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');

for (const { width, height, scheme } of [
  { width: 1280, height: 800, scheme: 'light' },
  { width: 1280, height: 800, scheme: 'dark' },
  { width: 1024, height: 700, scheme: 'light' },
] as const) {
  test(`Sign in is on the first screen at ${width}×${height} (${scheme})`, async ({ page, host }) => {
    await page.setViewportSize({ width, height });
    await page.emulateMedia({ colorScheme: scheme });
    await openApp(page, host);
    // The sandbox's notice is part of the screen being measured.
    await expect(page.getByRole('button', { name: 'Use the demo account' })).toBeVisible();
    await expect(page.getByText('Signing in to: Built-in sandbox (demo)', { exact: true })).toBeVisible();
    const box = await signInButtonBox(page);
    expect(box.scrollY).toBe(0);
    expect(box.top).toBeGreaterThan(0);
    expect(box.bottom, `Sign in ends at ${box.bottom} px, the window is ${height} px high`).toBeLessThanOrEqual(height);
    await expectAccessible(page, `first-screen-${width}x${height}-${scheme}`);
    await page.screenshot({ path: test.info().outputPath(`first-screen-${width}x${height}-${scheme}.png`) });
  });
}

test('after sign-in and after a change of view, the window is at its top', async ({ page, host, demo }) => {
  // A low window, so that the sign-in screen and the views are taller than it and can scroll.
  await page.setViewportSize({ width: 1280, height: 420 });
  await openApp(page, host);
  await page.getByLabel('Email', { exact: true }).fill(demo.email);
  await page.getByLabel('Password', { exact: true }).fill(demo.password);
  await scrollToBottom(page);
  expect(await scrollY(page), 'the sign-in screen scrolled down').toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(mainNav(page)).toBeVisible();
  await expect.poll(() => scrollY(page)).toBe(0);

  // Changes of view that do not themselves scroll: the shortcut, and a click dispatched on the
  // sidebar's item (Playwright's own click would scroll the item into view first).
  const scrollDown = async () => {
    await scrollToBottom(page);
    expect(await scrollY(page), 'the view scrolled down').toBeGreaterThan(0);
  };
  await scrollDown();
  await page.keyboard.press('Control+k');
  await expect(page.getByLabel('Clinical history', { exact: true })).toBeVisible();
  await expect.poll(() => scrollY(page)).toBe(0);

  await scrollDown();
  await mainNav(page)
    .getByRole('button', { name: /^Settings\b/ })
    .dispatchEvent('click');
  await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeVisible();
  await expect.poll(() => scrollY(page)).toBe(0);

  await scrollDown();
  await mainNav(page)
    .getByRole('button', { name: /^Record\b/ })
    .dispatchEvent('click');
  await expect(mainNav(page).getByRole('button', { name: /^Record\b/ })).toHaveAttribute('aria-current', 'page');
  await expect.poll(() => scrollY(page)).toBe(0);
});
