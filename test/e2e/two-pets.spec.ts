// Two pets in one visit, end to end on the published-shape sandbox: Bella's name typed before
// Start, Mango added while recording; at Stop each pet is sent on its own (its own recording
// session, the same audio, its own scribe request), the Consults list shows each pet with the
// other, and the note has one tab per pet, each tab's note naming its own pet. Screenshots of
// the note with its tabs at 1280×800, light and dark.
import { expect, expectAccessible, go, shot, start, test } from './fixtures.ts';
import { consults, pickTemplate, record } from './support/consults.ts';

test('a visit with two pets gives two notes, each naming its pet, one tab each', async ({ page, host, demo }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await start(page, host, demo);
  await pickTemplate(page, 'SOAP');
  await record(
    page,
    2,
    async () => {
      await page.getByRole('button', { name: 'Add a patient', exact: true }).click();
      await page.getByRole('textbox', { name: "Patient 2's name" }).fill('Mango');
    },
    { name: 'Bella', description: 'Coughing, both cats' },
  );

  // Two consults of one visit, each with its pet's name and its own job.
  const visit = await consults(host);
  expect(visit.map((c) => c.recording.patientName).sort()).toEqual(['Bella', 'Mango']);
  const bella = visit.find((c) => c.recording.patientName === 'Bella')!;
  const mango = visit.find((c) => c.recording.patientName === 'Mango')!;
  expect(mango.recording.visitId).toBe(bella.recording.id);
  expect(mango.recording.bytes).toBe(bella.recording.bytes);

  await go(page, 'Consults');
  const main = page.getByRole('main');
  await expect(main.getByRole('article').getByText('Note ready', { exact: true })).toHaveCount(2, {
    timeout: 45_000,
  });
  await expect(main.getByRole('heading', { level: 3, name: 'Bella — Coughing, both cats · with Mango' })).toBeVisible();
  await expect(main.getByRole('heading', { level: 3, name: 'Mango — Coughing, both cats · with Bella' })).toBeVisible();
  for (const [id, name, other] of [
    [bella.recording.id, 'Bella', 'Mango'],
    [mango.recording.id, 'Mango', 'Bella'],
  ] as const) {
    const { note } = await host.call('consults:note', { id });
    expect(note).toContain(`note for ${name}`);
    expect(note).not.toContain(other);
  }

  // Bella's note, with a tab for each pet; Mango's tab opens Mango's own note.
  await main
    .getByRole('article', { name: /^Bella/ })
    .getByRole('button', { name: /open note|view note|read note/i })
    .click();
  const tabs = page.getByRole('navigation', { name: 'Pets seen in this visit' });
  await expect(tabs.getByRole('button')).toHaveCount(2);
  await expect(tabs.getByRole('button', { name: /^Bella/ })).toHaveAttribute('aria-current', 'page');
  const region = page.getByRole('region', { name: 'Note' });
  await expect(region).toContainText('note for Bella');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bella — Coughing, both cats');
  // The picture is of the note: the browser host's notice about its keychain is put away first.
  const dismiss = page.getByRole('button', { name: 'Dismiss notice', exact: true });
  if ((await dismiss.count()) > 0) await dismiss.first().click();
  await expect(dismiss).toHaveCount(0);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, media: 'screen' });
    await shot(page, `two-pets-${scheme}`, { fullPage: false });
  }
  await page.emulateMedia({ colorScheme: 'light', media: 'screen' });
  await expectAccessible(page, 'two-pets-note');

  await tabs.getByRole('button', { name: /^Mango/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mango — Coughing, both cats');
  await expect(tabs.getByRole('button', { name: /^Mango/ })).toHaveAttribute('aria-current', 'page');
  await expect(region).toContainText('note for Mango');
  await expect(region).not.toContainText('Bella');
  // Each pet's note is copied on its own: Mango's copy names Mango.
  const formats = await host.call('consults:noteFormats', { id: mango.recording.id });
  expect(formats.text).toContain('Mango');
  expect(formats.text).not.toContain('Bella');
});
