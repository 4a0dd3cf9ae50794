// Settings → Clinic relay → "This computer's name" in the browser host: a vet names the exam-room
// PC, sees what the other rooms will read, and a name too long is refused on the field. The
// section as the vet sees it at the two window sizes of the exam-room PCs, light and dark, is
// kept as a picture (what the field says is worded for the vet, so it is looked at, not only read).
import type { Page } from '@playwright/test';
import { eachLook, expect, expectAccessible, go, start, test } from './fixtures.ts';

/** Scrolls Settings so the Clinic relay section starts just under the sticky header. */
// (A string, as the specs are typed without the DOM's names.)
async function showRelaySection(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    const header = document.querySelector('header.topbar').getBoundingClientRect().bottom;
    const section = [...document.querySelectorAll('h2')].find((h) => h.textContent === 'Clinic relay').closest('section');
    window.scrollBy(0, section.getBoundingClientRect().top - header - 12);
  })()`);
}

test("this computer's name is set in Settings → Clinic relay, and a bad one is refused on the field", async ({
  page,
  host,
  demo,
}) => {
  await start(page, host, demo);
  await go(page, 'Settings');
  const name = page.getByLabel("This computer's name", { exact: true });
  await expect(name).toBeVisible();
  const form = page.locator('form').filter({ has: name });

  await name.fill('Exam room 1 beside the kennels and the x-ray room');
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText("The computer's name was not changed. It must be at most 40 characters.")).toBeVisible();
  await showRelaySection(page);
  await page.screenshot({ path: test.info().outputPath('item2-computer-name-refused-1280x800-light.png') });

  await name.fill('Exam room 1');
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved. The other rooms read edits made here as "Edited on Exam room 1".')).toBeVisible();
  await expect(name).not.toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'settings-computer-name');

  await eachLook(page, async ({ width, height, colorScheme }) => {
    await showRelaySection(page);
    await expect(name).toBeInViewport();
    await page.screenshot({
      path: test.info().outputPath(`item2-computer-name-${width}x${height}-${colorScheme}.png`),
      animations: 'disabled',
      caret: 'hide',
    });
  });
});
