// The note goes into the patient's record in the clinic's Provet Cloud, end to end on the
// built-in sandbox's Provet double: the vet signs in to Provet on its own page (a new tab, as the
// browser host opens the system browser's page), picks today's appointment on Record, records,
// edits the note and sends it; the double then holds exactly the edited note, once, on that
// patient. A two-pet appointment gives one note per patient; a patient not checked in waits and
// is sent once the front desk checks it in. Screenshots of the day's list and of a sent note,
// light and dark, for the README.
import type { Page } from '@playwright/test';
import { expect, expectAccessible, go, shot, start, test, type Demo, type TestHost } from './fixtures.ts';
import { pickTemplate, shownSeconds } from './support/consults.ts';

interface DoubleNote {
  consultation: number;
  patient: number;
  text: string;
}

/** The Provet double's address, as Settings offers it (the built-in sandbox's own). */
async function provetAddress(host: TestHost): Promise<string> {
  const status = await host.call('pims:status', undefined);
  if (!status.sandbox) throw new Error('the sandbox offers no Provet');
  return status.sandbox.address;
}

/** Every clinical note the double holds (its own control route). */
async function doubleNotes(address: string): Promise<DoubleNote[]> {
  const res = await fetch(`${address}/sandbox-control/notes/`);
  return ((await res.json()) as { results: DoubleNote[] }).results;
}

/** Settings → Practice-management system → Sign in to Provet, and Provet's own page in a new tab. */
async function signInToProvet(page: Page): Promise<void> {
  await go(page, 'Settings');
  const section = page.getByRole('region', { name: 'Practice-management system' });
  const tab = page.context().waitForEvent('page');
  await section.getByRole('button', { name: 'Sign in to Provet' }).click();
  const provet = await tab;
  await provet.getByLabel('Username').fill('hale');
  await provet.getByLabel('Password').fill('provet-demo');
  await provet.getByRole('button', { name: 'Sign in and allow' }).click();
  await expect(section.getByText(/^Signed in to Provet as Alex Hale/)).toBeVisible({ timeout: 15_000 });
  await provet.close();
}

/** Picks an appointment of the day on Record by words of its button (its patients, its complaint). */
async function pickAppointment(page: Page, words: RegExp): Promise<void> {
  await go(page, 'Record');
  const today = page.getByRole('region', { name: 'Today in Provet' });
  await today.getByRole('button', { name: words }).click();
}

/** Records from the fake microphone for `seconds` of the recorder's own clock, then stops. */
async function recordFor(page: Page, seconds: number): Promise<void> {
  await page.getByRole('button', { name: 'Start recording', exact: true }).click();
  await expect
    .poll(() => shownSeconds(page), { timeout: seconds * 1000 + 30_000, intervals: [200] })
    .toBeGreaterThanOrEqual(seconds);
  await page.getByRole('button', { name: 'Stop recording', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Start recording', exact: true })).toBeVisible();
}

/** Opens the consult of `patient` from Consults once its note is ready. */
async function openNote(page: Page, patient: string): Promise<void> {
  await go(page, 'Consults');
  const row = page.getByRole('main').getByRole('article', { name: new RegExp(`^${patient}`) });
  await expect(row.getByText('Note ready', { exact: true })).toBeVisible({ timeout: 45_000 });
  await row.getByRole('button', { name: /open note|view note|read note/i }).click();
  await expect(page.getByRole('region', { name: 'Note' })).toBeVisible();
}

/** The demo vet at 1280×800, signed in to the app and to the sandbox's Provet: its address. */
async function connected(page: Page, host: TestHost, demo: Demo): Promise<string> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await start(page, host, demo);
  const address = await provetAddress(host);
  await signInToProvet(page);
  return address;
}

const bar = (page: Page) => page.getByRole('group', { name: 'Provet record' });

/** Send to Provet on the open note, then waits until the bar says the note is in Provet since a time. */
async function sendToProvet(page: Page): Promise<void> {
  await bar(page).getByRole('button', { name: 'Send to Provet' }).click();
  await expect(bar(page).getByRole('status')).toHaveText(/^In Provet since \d{1,2}:\d\d/, { timeout: 15_000 });
}

/**
 * A test of the browser target only (Electron opens Provet's page in the system browser, outside
 * the test's reach), begun with the demo vet connected to the double: `body` gets its address.
 */
function connectedTest(name: string, body: (page: Page, address: string) => Promise<void>): void {
  test(name, async ({ page, host, demo, target }) => {
    test.skip(target !== 'browser', "Electron opens Provet's page in the system browser, outside the test's reach");
    await body(page, await connected(page, host, demo));
  });
}

test.use({ sandbox: { scribeSeconds: 1 } });

connectedTest(
  "today's appointment picked, recorded, edited and sent: Provet holds the edited note once, on that patient",
  async (page, address) => {
    // The day's list: the vet's own appointments, the colleagues' behind one button.
    await go(page, 'Record');
    const today = page.getByRole('region', { name: 'Today in Provet' });
    await expect(today.getByRole('list', { name: 'Your appointments today' }).getByRole('button')).toHaveCount(4);
    await expect(today.getByRole('button', { name: /Colleagues' appointments \(2\)/ })).toBeVisible();
    const dismiss = page.getByRole('button', { name: 'Dismiss notice', exact: true });
    if ((await dismiss.count()) > 0) await dismiss.first().click();
    await shot(page, 'provet-today-light', { fullPage: false });
    await expectAccessible(page, "Record with today's appointments");

    // Bella's 09:00 appointment (checked in): her name filled in, the consult linked.
    await pickAppointment(page, /Bella.*Limping, left hind/);
    await expect(page.getByRole('textbox', { name: "Patient's name" })).toHaveValue('Bella');
    await pickTemplate(page, 'SOAP');
    await recordFor(page, 2);
    await openNote(page, 'Bella');

    // Edited, then sent: the edited text is what Provet gets.
    await page.getByRole('button', { name: 'More', exact: true }).click();
    await page.getByRole('button', { name: 'Edit note', exact: true }).click();
    const first = page.getByRole('group', { name: 'Edit note' }).getByRole('textbox').first();
    await first.fill(`${await first.inputValue()}\nCarprofen 4 mg/kg once daily for 5 days.`);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await sendToProvet(page);
    const notes = await doubleNotes(address);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ consultation: 401, patient: 201 });
    expect(notes[0]!.text).toContain('Carprofen 4 mg/kg once daily for 5 days.');
    expect(notes[0]!.text).toMatch(/Written by Vet Scribe · [0-9a-f]{8}$/);
    await shot(page, 'provet-sent-light', { fullPage: false });
    await expectAccessible(page, 'a note sent to Provet');

    // The same views in the dark theme.
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'provet-sent-dark', { fullPage: false });
    await go(page, 'Record');
    await shot(page, 'provet-today-dark', { fullPage: false });
    await page.emulateMedia({ colorScheme: 'light' });

    // Sent once: a second look writes nothing more.
    expect(await doubleNotes(address)).toHaveLength(1);
  },
);

connectedTest(
  'a two-pet appointment gives one note per patient, and a patient not checked in waits until check-in',
  async (page, address) => {
    // Max and Milo, one visit (10:00, checked in): both names filled in, one consult each.
    await pickAppointment(page, /Max.*Milo.*Annual vaccinations/);
    await expect(page.getByRole('textbox', { name: "Patient's name" })).toHaveValue('Max');
    await expect(page.getByRole('textbox', { name: "Patient 2's name" })).toHaveValue('Milo');
    await pickTemplate(page, 'SOAP');
    await recordFor(page, 2);
    await openNote(page, 'Max');
    await sendToProvet(page);
    await page
      .getByRole('navigation', { name: 'Pets seen in this visit' })
      .getByRole('button', { name: /^Milo/ })
      .click();
    await expect(bar(page)).toContainText('Milo');
    await sendToProvet(page);
    const visit = (await doubleNotes(address)).filter((n) => n.consultation === 403);
    expect(visit.map((n) => n.patient).sort()).toEqual([203, 204]);
    expect(visit.find((n) => n.patient === 203)!.text).toContain('Max');
    expect(visit.find((n) => n.patient === 204)!.text).toContain('Milo');

    // Luna's 09:30 appointment is not checked in: the note waits, and goes in after check-in.
    await pickAppointment(page, /Luna.*Vomiting since yesterday/);
    await recordFor(page, 2);
    await openNote(page, 'Luna');
    await bar(page).getByRole('button', { name: 'Send to Provet' }).click();
    await expect(bar(page).getByRole('status')).toContainText(/check-in/i, { timeout: 15_000 });
    expect((await doubleNotes(address)).filter((n) => n.patient === 202)).toHaveLength(0);
    const checkIn = await fetch(`${address}/sandbox-control/appointment/302/check_in/`, { method: 'POST' });
    expect(checkIn.status).toBe(200);
    // The next look at the day (Refresh on Record) sees the check-in and sends the waiting note.
    await go(page, 'Record');
    await page.getByRole('region', { name: 'Today in Provet' }).getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(async () => (await doubleNotes(address)).filter((n) => n.patient === 202).length).toBe(1);
    await openNote(page, 'Luna');
    await expect(bar(page).getByRole('status')).toHaveText(/^In Provet since/, { timeout: 15_000 });
  },
);
