// The ready note as a vet meets it at a 1280×800 exam-room screen, and on paper: its first
// lines on the first screen under one action bar; printed alone under a header (clinic, vet,
// patient, date, template) with no screen control, dark text on white in the dark theme too;
// then a second document after an edit of the SOAP note says, once, that the edit is not in it,
// and Ask again asks the service for it again.
import { expect, expectAccessible, shot, test } from './fixtures.ts';
import { onlyConsult, startToReadyNote } from './support/consults.ts';

test('the ready note on the first screen, printed with its header, and a second document after an edit', async ({
  page,
  host,
  demo,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await startToReadyNote(page, host, demo);

  // One action bar: Copy and Print, the figures to check, More; the note's first lines in sight.
  const bar = page.getByRole('group', { name: 'Actions on the note' });
  await expect(bar.getByRole('button')).toHaveText(['Copy note', 'Print', /^More/]);
  await expect(bar.getByRole('note')).toHaveText(/check them against the consult/);
  const region = page.getByRole('region', { name: 'Note' });
  const first = region.locator('.note-body > *').first();
  const second = region.locator('.note-body > *').nth(1);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, media: 'screen' });
    await page.evaluate('window.scrollTo(0, 0)');
    await expect(first).toBeInViewport({ ratio: 1 });
    await expect(second).toBeInViewport({ ratio: 1 });
    await shot(page, `ready-note-${scheme}`, { fullPage: false });
  }

  // More: a button that says whether it is open, a list of buttons, Escape closes it.
  const more = bar.getByRole('button', { name: 'More', exact: true });
  await more.click();
  await expect(more).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('button', { name: 'Edit note', exact: true })).toBeFocused();
  await expectAccessible(page, 'note-more-open');
  await page.keyboard.press('Escape');
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await expect(more).toBeFocused();
  await expect(page.getByRole('button', { name: 'Rename', exact: true })).toBeHidden();

  // On paper: the header, the note, and nothing of the screen. Dark theme or not, the paper is white.
  const consult = await onlyConsult(host);
  const org = await host.call('org:get');
  const header = page.locator('.print-header');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, media: 'print' });
    for (const text of [org.name, 'Dr. Demo Vet', consult.recording.patientName ?? '', 'SOAP'])
      await expect(header).toContainText(text);
    await expect(header.getByText('Date', { exact: true })).toBeVisible();
    await expect(first).toBeVisible();
    // No control of the screen on paper: no button, no "Edited" line, no menu.
    for (const b of await page.locator('button').all()) await expect(b).toBeHidden();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    const colours = await page.evaluate(
      `(() => { const s = getComputedStyle(document.querySelector('.note-body')); const b = getComputedStyle(document.documentElement); return [s.color, b.backgroundColor]; })()`,
    );
    expect(colours).toEqual(['rgb(0, 0, 0)', 'rgb(255, 255, 255)']);
    await shot(page, `printed-note-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light', media: 'screen' });

  // A second document, then an edit of the SOAP note (maropitant changed to carprofen).
  await more.click();
  await page.getByRole('button', { name: 'Another document…', exact: true }).click();
  await page.keyboard.type('discharge');
  await page.getByRole('button', { name: 'Write this document', exact: true }).click();
  const tabs = page.getByRole('tablist', { name: 'Documents of this consult' });
  await expect(region).toContainText('This Discharge instructions note for', { timeout: 45_000 });
  await expect(page.getByRole('button', { name: 'Copy discharge instructions', exact: true })).toBeVisible();
  await tabs.getByRole('tab', { name: 'SOAP', exact: true }).click();
  await page.getByRole('button', { name: 'More', exact: true }).click();
  await page.getByRole('button', { name: 'Edit note', exact: true }).click();
  const box = page.locator('.note-sections textarea').last();
  await box.fill('Carprofen 4 mg/kg once daily for 5 days.');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(region).toContainText('Carprofen 4 mg/kg once daily for 5 days.');

  await tabs.getByRole('tab', { name: 'Discharge instructions', exact: true }).click();
  const notice = page.getByText('Written from the recording: your edit to the SOAP note is not in it.', {
    exact: true,
  });
  await expect(notice).toHaveCount(1);
  await page.emulateMedia({ colorScheme: 'dark', media: 'screen' });
  await expectAccessible(page, 'dark-document-after-edit');
  await page.emulateMedia({ colorScheme: 'light', media: 'screen' });
  await page.getByRole('button', { name: 'Ask again', exact: true }).click();
  const again = tabs.getByRole('tab', { name: /^Discharge instructions \(2\)/ });
  await expect(again).toHaveAttribute('aria-selected', 'true');
  await expect(region).toContainText('This Discharge instructions note for', { timeout: 45_000 });
  const documents = (await onlyConsult(host)).job?.documents ?? [];
  expect(documents.map((d) => [d.name, d.state])).toEqual([
    ['Discharge instructions', 'completed'],
    ['Discharge instructions', 'completed'],
  ]);
});
