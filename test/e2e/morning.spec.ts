// A morning at the shared exam-room PC, end to end: Dr. Demo Vet records three consults back to
// back, each started before the patient's name is typed, and switches user while they are on
// their way. The colleague who signs in gets a toast that opens the first note, finds the last
// one written with the first vet's own account, edits it (their name on it), prints it (the
// header, no screen controls) and asks for discharge instructions, which are the colleague's own
// request: written with the colleague's account at once, not kept waiting for the first vet. The
// first vet, back, sees the colleague's name on the edit, and the discharge instructions say the
// edit is not in them.
import { COLLEAGUE_ACCOUNT } from '../../src/sandbox/index.ts';
import { expect, go, signIn, start, test } from './fixtures.ts';
import { pickTemplate, shownSeconds } from './support/consults.ts';

// Notes that take a few seconds, and a service slow to answer: the last consult is on its way at the switch.
test.use({ sandbox: { scribeSeconds: 12, latencyMs: 300 } });

const HH_MM = '\\d{1,2}:\\d\\d';

test('a morning: three consults started before the name, a hand-over mid-way, the toast, an edit by name, a second document, print', async ({
  page,
  host,
  demo,
}) => {
  test.setTimeout(240_000);
  await start(page, host, demo);
  await pickTemplate(page, 'SOAP');
  const name = page.getByRole('textbox', { name: "Patient's name" });
  const startButton = page.getByRole('button', { name: 'Start recording', exact: true });

  for (const patient of ['Bella', 'Mango', 'Pepper']) {
    // Start as the owner starts talking; the name comes while it records.
    await startButton.click();
    await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
    await name.fill(patient);
    await expect.poll(() => shownSeconds(page), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    await expect
      .poll(async () => (await host.call('consults:list')).some((c) => c.recording.patientName === patient), {
        timeout: 5_000,
      })
      .toBe(true);
    await page.getByRole('button', { name: 'Stop recording', exact: true }).click();
    await expect(startButton).toBeVisible();
  }

  // The last consult is still on its way when the vet hands over.
  const pepper = (await host.call('consults:list')).find((c) => c.recording.patientName === 'Pepper')!;
  expect(pepper.job?.state).not.toBe('completed');
  await page.getByRole('button', { name: 'Switch user', exact: true }).click();
  await signIn(page, COLLEAGUE_ACCOUNT);

  // The colleague, on the Record view, is told when the first note is ready; the toast opens it.
  const toast = page.getByRole('button', { name: 'Note ready: Bella — Open note' });
  await expect(toast).toBeVisible({ timeout: 60_000 });
  await toast.click();
  await expect(page.getByRole('heading', { name: /Bella/ }).first()).toBeVisible();
  // Pepper's note arrives too, written with the first vet's account while the colleague is in front.
  await go(page, 'Consults');
  const pepperRow = page.getByRole('main').getByRole('article', { name: /Pepper/ });
  await pepperRow.getByRole('button', { name: 'Open note' }).click({ timeout: 60_000 });
  await expect(page.getByRole('heading', { name: /Pepper/ }).first()).toBeVisible();
  const all = await host.call('consults:list');
  expect(all.map((c) => c.recording.patientName).sort()).toEqual(['Bella', 'Mango', 'Pepper']);
  for (const c of all) {
    expect(c.job?.state).toBe('completed');
    expect(c.recording.recordedBy?.email).toBe(demo.email);
  }
  expect((await host.call('session:get')).user?.email).toBe(COLLEAGUE_ACCOUNT.email);

  // The colleague edits the note: it says who.
  const region = page.getByRole('region', { name: 'Note' });
  await page.getByRole('button', { name: 'More', exact: true }).click();
  await page.getByRole('button', { name: 'Edit note', exact: true }).click();
  await page.locator('.note-sections textarea').last().fill('Carprofen 4 mg/kg once daily for 5 days.');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(region).toContainText('Carprofen 4 mg/kg once daily for 5 days.');
  const badge = page.locator('.note-view .row .badge');
  await expect(badge).toHaveText(new RegExp(`^Edited by you at ${HH_MM}`));

  // Printed: the header names the vet who recorded it and the patient; no control of the screen.
  await page.emulateMedia({ media: 'print' });
  const header = page.locator('.print-header');
  for (const text of ['Dr. Demo Vet', 'Pepper', 'SOAP']) await expect(header).toContainText(text);
  for (const b of await page.locator('button').all()) await expect(b).toBeHidden();
  await page.emulateMedia({ media: 'screen' });

  // A second document is the colleague's own request: written with their account, never waiting
  // for the first vet's sign-in (nor sent with it).
  await page.getByRole('button', { name: 'More', exact: true }).click();
  await page.getByRole('button', { name: 'Another document…', exact: true }).click();
  await page.keyboard.type('discharge');
  await page.getByRole('button', { name: 'Write this document', exact: true }).click();
  const tabs = page.getByRole('tablist', { name: 'Documents of this consult' });
  await tabs.getByRole('tab', { name: /^Discharge instructions/ }).click();
  await expect(region).toContainText('This Discharge instructions note for Pepper', { timeout: 60_000 });
  await expect(page.getByText(/Waiting for Dr\. Demo Vet to sign in/)).toHaveCount(0);

  // The first vet, back: the colleague's name on the edit; the document written with their
  // account, saying the edit is not in it.
  await page.getByRole('button', { name: 'Switch user', exact: true }).click();
  await signIn(page, demo);
  await go(page, 'Consults');
  await page
    .getByRole('main')
    .getByRole('article', { name: /Pepper/ })
    .getByRole('button', { name: 'Open note' })
    .click();
  await expect(badge).toHaveText(new RegExp(`^Edited by Dr\\. Colleague Vet at ${HH_MM}`));
  await tabs.getByRole('tab', { name: /^Discharge instructions/ }).click();
  await expect(region).toContainText('This Discharge instructions note for Pepper', { timeout: 60_000 });
  await expect(
    page.getByText('Written from the recording: your edit to the SOAP note is not in it.', { exact: true }),
  ).toHaveCount(1);
});
