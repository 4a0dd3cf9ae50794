// Asking about a consult under its note: three turns (two quick questions and one typed), each
// answer knowing the note and the turns before it; then the host restarts on the same data
// folder and the note shows the conversation again. Pictures at 1280×800 in light and dark.
import { copyFileSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, expectAccessible, go, mainNav, openApp, signIn, test } from './fixtures.ts';
import { openNote, startToReadyNote } from './support/consults.ts';
import { SCREENSHOT_DIR } from './support/shots.ts';

test('three turns about a consult, shown again after a restart', async ({ page, host, demo }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await startToReadyNote(page, host, demo);

  const chat = page.getByRole('region', { name: 'Ask about this consult' });
  const turns = chat.getByRole('list', { name: 'Conversation' }).getByRole('listitem');
  const box = chat.getByRole('textbox', { name: 'Your question about this consult' });
  await chat.getByRole('button', { name: 'What should the pet owner watch for?', exact: true }).click();
  await expect(turns).toHaveCount(1, { timeout: 20_000 });
  await expect(turns.nth(0)).toContainText('Tell the owner to call the clinic');
  await chat.getByRole('button', { name: 'Check the doses in this plan', exact: true }).click();
  await expect(turns).toHaveCount(2, { timeout: 20_000 });
  // Worked out for the note's weight, as the treatment-plan view does, with no quote of the question before.
  await expect(turns.nth(1)).toContainText('maropitant 1 mg/kg × 32.4 kg = 32.4 mg');
  await expect(turns.nth(1)).not.toContainText('Earlier you asked');
  await box.fill('Is meloxicam safe with her kidney values?');
  await chat.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(turns).toHaveCount(3, { timeout: 20_000 });
  await expect(turns.nth(2)).toContainText('does not say anything about');
  await expect(box).toHaveValue('');

  await host.restart();
  await openApp(page, host);
  // Without a system keychain the sign-in was kept in memory and died with the host.
  if (!(await mainNav(page).isVisible())) await signIn(page, demo);
  await go(page, 'Consults');
  await openNote(page);
  await expect(turns).toHaveCount(3);
  await expect(turns.locator('.chat-you .chat-text')).toHaveText([
    'What should the pet owner watch for?',
    'Check the doses in this plan',
    'Is meloxicam safe with her kidney values?',
  ]);

  // The conversation as the vet sees it under the note, in both themes.
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, media: 'screen' });
    // The end of the note above, the conversation under it.
    await chat.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.mouse.wheel(0, -180);
    await expect(chat.getByRole('heading', { name: 'Ask about this consult' })).toBeInViewport();
    await expectAccessible(page, `consult-chat-${scheme}`);
    const name = `consult-chat-${scheme}`;
    const path = resolve(SCREENSHOT_DIR, `${name}.png`);
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
    await test.info().attach(name, { path, contentType: 'image/png' });
    if (process.env['UPDATE_README_SCREENSHOTS'] === '1') {
      const readme = resolve(import.meta.dirname, '../../docs/screenshots');
      mkdirSync(readme, { recursive: true });
      copyFileSync(path, resolve(readme, `${name}.png`));
    }
  }
});
