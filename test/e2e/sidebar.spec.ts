// The sidebar stays in view however far a long view is scrolled: at the two window sizes of the
// exam-room PCs, light and dark, its items are all on screen under the header after scrolling
// Settings (a view taller than both windows) to its bottom.
import type { Page } from '@playwright/test';
import { eachLook, expect, go, mainNav, start, test } from './fixtures.ts';

/** Where the header ends and the sidebar's items are, read without Playwright scrolling them into view. */
// (A string, as the specs are typed without the DOM's names.)
async function boxes(page: Page): Promise<{ header: number; first: number; last: number; scrollY: number }> {
  return (await page.evaluate(`(() => {
    const items = [...document.querySelectorAll('nav[aria-label="Main"] button')];
    return {
      header: document.querySelector('header.topbar').getBoundingClientRect().bottom,
      first: items[0].getBoundingClientRect().top,
      last: items[items.length - 1].getBoundingClientRect().bottom,
      scrollY: window.scrollY,
    };
  })()`)) as { header: number; first: number; last: number; scrollY: number };
}

test('the sidebar stays in view while a long view scrolls, at 1280×800 and 1024×700, light and dark', async ({
  page,
  host,
  demo,
}) => {
  await start(page, host, demo);
  await go(page, 'Settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await eachLook(page, async ({ width, height, colorScheme }) => {
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    const at = await boxes(page);
    expect(at.scrollY, `Settings scrolls at ${width}×${height}`).toBeGreaterThan(200);
    expect(at.first, 'the first item is just under the header').toBeGreaterThanOrEqual(at.header);
    expect(at.first).toBeLessThan(at.header + 40);
    expect(at.last, `the last item ends at ${at.last} px, the window is ${height} px high`).toBeLessThanOrEqual(height);
    await expect(mainNav(page).getByRole('button', { name: 'Record', exact: true })).toBeInViewport();
    // The window as the vet sees it, scrolled down (shot() would scroll it back to the top).
    await page.screenshot({
      path: test.info().outputPath(`sidebar-scrolled-${width}x${height}-${colorScheme}.png`),
      animations: 'disabled',
      caret: 'hide',
    });
  });
});
