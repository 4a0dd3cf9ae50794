// A consult for a named patient, end to end on the published-shape sandbox: the consult is
// named by it, the note comes back with its sections, and Copy note puts it on the clipboard as
// plain text, HTML and RTF at once, each with the patient's name and the note's headings. Then the Medications panel answers.
import { MEDICATION_FIELDS } from '../../src/shared/service/fields.ts';
import { expect, expectAccessible, go, shot, start, test } from './fixtures.ts';
import { expectNoteReady, onlyConsult, openNote, pickTemplate, record } from './support/consults.ts';

const PATIENT = { name: 'Bella', description: 'Vomiting 2 days' };

/** The `## ` headings of a note as main hands it over. */
function headingsOf(note: string): string[] {
  return [...note.matchAll(/^#{1,3} (.+?)\s*$/gm)].map((m) => m[1] ?? '');
}

test('a consult for a named patient: the note is named by it, and Copy note gives text, HTML and RTF', async ({
  page,
  host,
  demo,
  target,
}) => {
  if (target === 'browser') await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await start(page, host, demo);

  // Start before the name, and a name never typed: start-before-name.spec.ts.
  await pickTemplate(page, 'SOAP');
  await page.getByRole('textbox', { name: "Patient's name" }).fill(PATIENT.name);
  await page.getByRole('textbox', { name: 'Visit description (optional)' }).fill(PATIENT.description);
  await shot(page, 'record-patient');
  await record(
    page,
    3,
    async () => {
      // Changed while recording: main has the new words when the consult is sent.
      await page.getByRole('textbox', { name: 'Visit description (optional)' }).fill('Vomiting for 2 days');
      await expect
        .poll(async () => (await onlyConsult(host)).recording.description, { timeout: 5_000 })
        .toBe('Vomiting for 2 days');
    },
    { name: PATIENT.name, description: 'Vomiting for 2 days' },
  );

  await go(page, 'Consults');
  await expectNoteReady(page);
  await expect(page.getByRole('article', { name: 'Bella — Vomiting for 2 days' })).toBeVisible();
  const consult = await onlyConsult(host);
  expect(consult.recording).toMatchObject({ patientName: 'Bella', description: 'Vomiting for 2 days' });

  await openNote(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Bella — Vomiting for 2 days' })).toBeVisible();
  const { note } = await host.call('consults:note', { id: consult.recording.id });
  const headings = headingsOf(note ?? '');
  expect(headings.length, 'sections of the note').toBeGreaterThan(1);
  const region = page.getByRole('region', { name: 'Note' });
  for (const heading of headings)
    await expect(region.getByRole('heading', { name: heading, exact: true })).toBeVisible();
  await expect(region).not.toContainText('## ');
  // The figures to check are marked, and counted in one line above the note.
  await expect(region.locator('mark.figure').first()).toBeVisible();
  await expect(
    page
      .getByRole('note')
      .filter({ hasText: /: check them against the consult before the note goes into the record\.$/ }),
  ).toBeVisible();
  await expectAccessible(page, 'note-patient');
  await shot(page, 'note-patient');

  await page.getByRole('button', { name: 'Copy note', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Copied$/ })).toBeVisible();
  const flavours = await host.clipboardFlavours(page);
  const formats = await host.call('consults:noteFormats', { id: consult.recording.id });
  for (const [name, text] of Object.entries(flavours)) {
    expect(text, `${name} flavour`).toContain('Bella');
    expect(
      headings.some((h) => text.includes(h)),
      `${name} flavour holds a section heading`,
    ).toBe(true);
  }
  expect(flavours.text).toBe(formats.text);
  expect(flavours.rtf).toMatch(/^\{\\rtf/);
  expect(flavours.html).toMatch(/<h\d[^>]*>/i);

  // Print: the window's own print, and a page with the note alone (headless Chromium prints
  // nothing, so the call is counted and the print stylesheet looked at).
  await page.evaluate('window.__printed = 0; window.print = () => { window.__printed += 1; };');
  await page.getByRole('button', { name: 'Print', exact: true }).click();
  // Print notes itself in the consult's trail first (a call to main), then prints: once.
  await expect.poll(() => page.evaluate('window.__printed')).toBe(1);
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('heading', { level: 1, name: 'Bella — Vomiting for 2 days' })).toBeVisible();
  for (const heading of headings)
    await expect(region.getByRole('heading', { name: heading, exact: true })).toBeVisible();
  await expect(page.locator('.topbar')).toBeHidden();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Copy note', exact: true })).toBeHidden();
  // The figures' reading aid stays on the screen: the printed page is plain.
  const background = (m: unknown) =>
    (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(m)
      .backgroundColor;
  expect(await region.locator('mark.figure').first().evaluate(background)).toBe('rgba(0, 0, 0, 0)');
  await shot(page, 'note-print');
  await page.emulateMedia({ media: 'screen' });
});

test('the Medications panel answers a drug and species, its summary first', async ({ page, host, demo }) => {
  const QUESTION = 'Meloxicam, dog, 20 kg';
  await start(page, host, demo);
  await go(page, 'Medications');
  const field = page.getByLabel('Drug and species', { exact: true });
  await expect(field).toBeFocused();

  await page.getByRole('button', { name: 'Look up medication', exact: true }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Type or paste the drug and the species first' }),
  ).toBeVisible();

  await field.fill(QUESTION);
  await field.press('Control+Enter');
  const answer = await host.call('agents:medication', { input: QUESTION });
  expect(answer.status).toBe(true);
  expect(answer.medications.length).toBeGreaterThan(0);
  const main = page.getByRole('main');
  await expect(main.getByText(answer.concise ?? '', { exact: true })).toBeVisible();
  for (const drug of answer.medications)
    await expect(main.getByRole('heading', { level: 3, name: drug.label, exact: true })).toBeVisible();
  const dosing = MEDICATION_FIELDS.find((f) => f.wire === 'dosing_by_species');
  expect(dosing, 'the shared field list names the dosing by species').toBeTruthy();
  await expect(
    main
      .getByRole('article')
      .first()
      .getByRole('term')
      .filter({ hasText: dosing?.heading ?? '' })
      .first(),
  ).toBeVisible();
  await expectAccessible(page, 'medications');
  await shot(page, 'medications');
});
