// A dose the note's own weight disagrees with, as the vet sees it: marked apart among the
// figures to check, counted in the line above the note, and worked out in the conversation.
// Pictures at 1280×800 and 1024×700, light and dark.
import { copyFileSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, expectAccessible, go, test } from './fixtures.ts';
import { onlyConsult, openNote, startToReadyNote } from './support/consults.ts';
import { SCREENSHOT_DIR, shot } from './support/shots.ts';

test('a dose that disagrees with the note’s weight is marked, counted and explained', async ({ page, host, demo }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await startToReadyNote(page, host, demo);
  const { id } = (await onlyConsult(host)).recording;
  const { note } = await host.call('consults:note', { id });
  // The vet's edit: tablets worked out for half the dog's weight.
  const edited = `${note!.trim()}\n\n## Medications\n\nMaropitant 60 mg (1 mg/kg) by mouth once daily for 2 days.`;
  await host.call('consults:saveNote', { id, text: edited });
  await go(page, 'Consults');
  await openNote(page);

  const region = page.getByRole('region', { name: 'Note' });
  const wrong = region.locator('mark.figure-mismatch');
  await expect(wrong).toHaveText(['60 mg']);
  await expect(wrong).toHaveAttribute(
    'title',
    '60 mg is not 1 mg/kg for 32.4 kg (32.4 mg); 60 mg is 1.85 mg/kg: check it',
  );
  await expect(page.getByRole('note').filter({ hasText: 'check them' })).toContainText(
    '1 dose does not match the note’s weight (32.4 kg).',
  );

  const chat = page.getByRole('region', { name: 'Ask about this consult' });
  await chat.getByRole('button', { name: 'Check the doses in this plan', exact: true }).click();
  const answer = chat.getByRole('list', { name: 'Conversation' }).getByRole('listitem');
  await expect(answer).toHaveCount(1, { timeout: 20_000 });
  await expect(answer).toContainText('maropitant 1 mg/kg × 32.4 kg = 32.4 mg');
  await expect(answer).toContainText('60 mg is not 1 mg/kg for 32.4 kg (32.4 mg)');

  const out = process.env['SHOTS_34_DIR'];
  for (const [width, height] of [
    [1280, 800],
    [1024, 700],
  ] as const)
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme, media: 'screen' });
      await expectAccessible(page, `dose-check-${scheme}-${width}`);
      // The line above the note, as the note opens; then the marked dose in the middle of the window.
      const top = await shot(page, `dose-check-${width}x${height}-${scheme}`, { fullPage: false });
      await wrong.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await wrong.hover();
      const name = `dose-check-mark-${width}x${height}-${scheme}`;
      const mark = resolve(SCREENSHOT_DIR, `${name}.png`);
      await page.screenshot({ path: mark, animations: 'disabled', caret: 'hide' });
      await test.info().attach(name, { path: mark, contentType: 'image/png' });
      if (out) {
        mkdirSync(out, { recursive: true });
        copyFileSync(top, resolve(out, `dose-check-${width}x${height}-${scheme}.png`));
        copyFileSync(mark, resolve(out, `${name}.png`));
      }
    }
});
