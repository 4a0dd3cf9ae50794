// Another document from one recording, as a vet takes it in the window: after the SOAP note,
// "Another document…" asks the service for discharge instructions from the same recording; the
// consult's documents sit on tabs, each read, copied and printed on its own; both themes pass axe.
import { expect, expectAccessible, go, shot, test } from './fixtures.ts';
import { onlyConsult, startToReadyNote } from './support/consults.ts';

for (const scheme of ['light', 'dark'] as const) {
  test(`a second document from the same recording, on its own tab (${scheme} theme)`, async ({ page, host, demo }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await startToReadyNote(page, host, demo, { seconds: 1 });
    await expect(page.getByRole('tablist')).toHaveCount(0);

    await page.getByRole('button', { name: 'More', exact: true }).click();
    await page.getByRole('button', { name: 'Another document…', exact: true }).click();
    const form = page.getByRole('group', { name: 'Another document from this recording' });
    await expect(form.getByRole('searchbox', { name: 'Search templates' })).toBeFocused();
    await page.keyboard.type('discharge');
    await expect(form.getByRole('combobox', { name: 'Template' })).toHaveValue(/.+/);
    await expect(form.getByRole('combobox', { name: 'Template' }).locator('option:checked')).toHaveText(
      'Discharge instructions',
    );
    await expectAccessible(page, `${scheme}-another-document`);
    await form.getByRole('button', { name: 'Write this document', exact: true }).click();

    const tabs = page.getByRole('tablist', { name: 'Documents of this consult' });
    const discharge = tabs.getByRole('tab', { name: /^Discharge instructions/ });
    await expect(discharge).toHaveAttribute('aria-selected', 'true');
    const note = page.getByRole('region', { name: 'Note' });
    await expect(note).toContainText('This Discharge instructions note for Bella', { timeout: 45_000 });
    await expect(discharge).toHaveText('Discharge instructions');
    await expectAccessible(page, `${scheme}-documents`);
    await shot(page, scheme === 'light' ? 'documents' : 'dark-documents');

    // The keyboard moves between the tabs, and each shows its own document.
    await discharge.focus();
    await page.keyboard.press('ArrowLeft');
    const soap = tabs.getByRole('tab', { name: 'SOAP', exact: true });
    await expect(soap).toBeFocused();
    await expect(soap).toHaveAttribute('aria-selected', 'true');
    await expect(note).toContainText('This SOAP note for Bella');
    await expect(note).not.toContainText('Discharge instructions note');

    // The engine has it as the consult's document, beside the note.
    const consult = await onlyConsult(host);
    expect(consult.job).toMatchObject({ state: 'completed', hasNote: true });
    expect(consult.job?.documents).toEqual([
      expect.objectContaining({ name: 'Discharge instructions', state: 'completed', hasNote: true }),
    ]);

    // The list says the consult has it; the printed page has the document shown and no tabs.
    await page.keyboard.press('End');
    await expect(note).toContainText('This Discharge instructions note for Bella');
    await page.emulateMedia({ media: 'print' });
    await expect(tabs).toBeHidden();
    await expect(note).toBeVisible();
    await page.emulateMedia({ media: 'screen' });
    await go(page, 'Consults');
    await expect(page.getByRole('main').getByRole('article').first()).toContainText('1 more document');
  });
}
