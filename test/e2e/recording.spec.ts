import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, expectAccessible, go, shot, start, test } from './fixtures.ts';
import {
  expectNoteReady,
  onlyConsult,
  openNote,
  pickTemplate,
  probeSeconds,
  record,
  startAndRecord,
  startToReadyNote,
  typePatient,
} from './support/consults.ts';

const SOAP_SECTIONS = ['Subjective', 'Objective', 'Assessment', 'Plan'];

test('records 10 s from the microphone, gets the note and copies it', async ({ page, host, demo }) => {
  await start(page, host, demo);
  await expect(page.getByRole('button', { name: 'Start recording', exact: true })).toBeVisible();
  await expectAccessible(page, 'record');
  await shot(page, 'record');

  await pickTemplate(page, 'SOAP');
  const { wallMs } = await record(page, 10, async () => {
    await expect(page.getByRole('button', { name: 'Stop recording', exact: true })).toBeVisible();
    await shot(page, 'recording');
  });

  await go(page, 'Consults');
  await expectNoteReady(page);
  await expectAccessible(page, 'consults');
  await shot(page, 'consults');

  const consult = await onlyConsult(host);
  expect(consult.job?.state).toBe('completed');
  const audio = join(host.dataDir, 'recordings', consult.recording.id, 'audio.webm');
  expect(existsSync(audio), audio).toBe(true);
  // Against the recorder's own clock and the recording's own length, not the wall clock: the
  // Stop press came when the window showed 00:10, so at least 10 s are recorded; never more
  // than the time between the presses; and the file is as long as the consult says.
  const seconds = probeSeconds(audio);
  expect(consult.recording.durationMs).toBeGreaterThanOrEqual(10_000 - 1_000);
  expect(consult.recording.durationMs, `against ${wallMs} ms between the presses`).toBeLessThanOrEqual(wallMs + 500);
  expect(
    Math.abs(seconds * 1000 - consult.recording.durationMs),
    `file ${seconds} s, consult ${consult.recording.durationMs} ms`,
  ).toBeLessThan(1_000);

  await openNote(page);
  const note = page.getByRole('region', { name: 'Note' });
  for (const section of SOAP_SECTIONS)
    await expect(note.getByRole('heading', { name: section, exact: true })).toBeVisible();
  await expectAccessible(page, 'note');
  await shot(page, 'note');

  await page.getByRole('button', { name: 'Copy note', exact: true }).click();
  const { note: text } = await host.call('consults:note', { id: consult.recording.id });
  expect(text).toBeTruthy();
  const { text: plain } = await host.call('consults:noteFormats', { id: consult.recording.id });
  await expect.poll(() => host.clipboardText(page)).toBe(plain);
  const copied = await host.clipboardText(page);
  expect(copied).toContain(consult.recording.patientName ?? '');
  for (const section of SOAP_SECTIONS) expect(copied).toContain(section);
  // Every sentence of the service's note is in what was copied.
  for (const line of (text ?? '').split('\n').filter((l) => l.trim() && !l.startsWith('#')))
    expect(copied).toContain(line.trim());
});

test('the note goes to the Differentials panel as the clinical history', async ({ page, host, demo }) => {
  await startToReadyNote(page, host, demo, { seconds: 3 });

  await page.getByRole('button', { name: 'More', exact: true }).click();
  await page.getByRole('button', { name: 'Get differentials from this note', exact: true }).click();
  const history = page.getByLabel('Clinical history', { exact: true });
  await expect(history).toBeVisible();
  await expect(history).toHaveValue(/Subjective[\s\S]*Objective/);
  await page.getByRole('button', { name: 'Get differentials', exact: true }).click();
  // The sandbox writes no real consult into its notes, so its answer is that nothing can be drawn.
  const answer = await host.call('agents:ddx', { input: await history.inputValue() });
  expect(answer.concise).toBeTruthy();
  await expect(page.getByRole('main').getByText(answer.concise ?? '')).toBeVisible();
});

test("the last consult's panel stays until the next Start, which clears it", async ({ page, host, demo }) => {
  await startAndRecord(page, host, demo, { seconds: 1 });
  // The panel follows the consult (sent, then its note); it names the consult throughout.
  const sent = page.getByText(/^Bella — Vomiting 2 days · \d+:\d\d recorded$/);
  await expect(sent).toBeVisible();
  await typePatient(page, { name: 'Rex', description: 'Limping' });
  await page.getByRole('button', { name: 'Start recording', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await expect(sent).toHaveCount(0);
  await page.getByRole('button', { name: 'Stop recording', exact: true }).click();
  await expect(page.getByText(/^Rex — Limping · \d+:\d\d recorded$/)).toBeVisible();
});
