// Steps of the recording flow, as the vet takes them, shared by the specs.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, type Page } from '@playwright/test';
import type { ConsultInfo } from '../../../src/shared/ipc.ts';
import { go, start } from '../fixtures.ts';
import type { Demo, TestHost } from './test-host.ts';

const CHUNKS = resolve(import.meta.dirname, '../../fixtures/audio/mediarecorder-5s');

/** Picks a note template by its name in the "Template" combobox. */
export async function pickTemplate(page: Page, name: string): Promise<void> {
  const combo = page.getByRole('combobox', { name: 'Template' });
  await expect(combo).toBeEnabled();
  if ((await combo.evaluate((el) => el.tagName)) === 'SELECT') {
    // The list arrives from the service: wait for it, then choose.
    await expect(combo.locator('option', { hasText: name })).toHaveCount(1);
    await combo.selectOption({ label: name });
    return;
  }
  await combo.click();
  await page.getByRole('option', { name, exact: true }).click();
  await expect(combo).toContainText(name);
}

/** The elapsed time the Record view shows, in whole seconds (from its <time dateTime="PTnS">). */
export async function shownSeconds(page: Page): Promise<number> {
  const time = page.getByText(/^Elapsed time \d+:\d\d$/).locator('time');
  const iso = (await time.getAttribute('datetime')) ?? '';
  const m = /^PT(\d+)S$/.exec(iso);
  if (!m) throw new Error(`elapsed time reads "${iso}"`);
  return Number(m[1]);
}

/** The patient of a consult, as the vet types it on the Record view. */
export interface Patient {
  name: string;
  description?: string;
}

export const DEFAULT_PATIENT: Patient = { name: 'Bella', description: 'Vomiting 2 days' };

/** Types the patient's name and the visit's description on the Record view. */
export async function typePatient(page: Page, patient: Patient): Promise<void> {
  await page.getByRole('textbox', { name: "Patient's name" }).fill(patient.name);
  await page.getByRole('textbox', { name: 'Visit description (optional)' }).fill(patient.description ?? '');
}

/**
 * Types the patient (the service needs the name before anything is sent), then records from
 * the fake microphone until the recorder's own elapsed time reaches `seconds`,
 * checking on the way that the level meter shows sound. The app's clock, not the test's: on a
 * busy machine the microphone can take seconds to open, and a wall-clock wait would then
 * record less (or, counted from later, more) than asked. Answers the test clock's outer
 * bounds of the recording: from before "Start recording" was pressed to after Stop took.
 */
export async function record(
  page: Page,
  seconds: number,
  whileRecording?: () => Promise<void>,
  patient: Patient = DEFAULT_PATIENT,
): Promise<{ wallMs: number }> {
  await typePatient(page, patient);
  const pressed = Date.now();
  await page.getByRole('button', { name: 'Start recording', exact: true }).click();
  const meter = page.getByRole('meter', { name: 'Input level' });
  await expect(meter).toBeVisible();
  // The fixture has speech from its first second on.
  await expect
    .poll(async () => Number(await meter.getAttribute('aria-valuenow')), { timeout: 8_000, intervals: [100] })
    .toBeGreaterThan(0);
  await whileRecording?.();
  await expect
    .poll(() => shownSeconds(page), { timeout: seconds * 1000 + 30_000, intervals: [200] })
    .toBeGreaterThanOrEqual(seconds);
  await page.getByRole('button', { name: 'Stop recording', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Start recording', exact: true })).toBeVisible();
  return { wallMs: Date.now() - pressed };
}

/** What varies where a spec's consult is recorded: SOAP, 2 s of Bella, unless told. */
export interface RecordOptions {
  template?: string;
  seconds?: number;
  patient?: Patient;
  whileRecording?: () => Promise<void>;
}

/** Opens the app, signs in and records a consult: where most specs begin, before what they test. */
export async function startAndRecord(
  page: Page,
  host: TestHost,
  demo: Demo,
  { template = 'SOAP', seconds = 2, patient, whileRecording }: RecordOptions = {},
): Promise<{ wallMs: number }> {
  await start(page, host, demo);
  await pickTemplate(page, template);
  return record(page, seconds, whileRecording, patient);
}

/**
 * As startAndRecord, then waits in Consults until the consult's note is ready and opens it
 * (left in the list with `open: false`): where the specs of a note begin.
 */
export async function startToReadyNote(
  page: Page,
  host: TestHost,
  demo: Demo,
  { open = true, ...options }: RecordOptions & { open?: boolean } = {},
): Promise<void> {
  await startAndRecord(page, host, demo, options);
  await go(page, 'Consults');
  await expectNoteReady(page);
  if (open) await openNote(page);
}

/**
 * Records a consult of the real MediaRecorder chunks through the engine's own calls, as the
 * window would, without the window: the consult's id.
 */
export async function recordThroughCalls(host: TestHost, patient: Patient): Promise<string> {
  const { id } = await host.call('recording:start', {
    mimeType: 'audio/webm;codecs=opus',
    patientName: patient.name,
    ...(patient.description === undefined ? {} : { description: patient.description }),
  });
  const chunks = readdirSync(CHUNKS)
    .filter((f) => f.endsWith('.bin'))
    .sort();
  for (const [seq, f] of chunks.entries())
    await host.call('recording:chunk', {
      id,
      seq,
      data: new Uint8Array(readFileSync(join(CHUNKS, f))),
      elapsedMs: (seq + 1) * 1000,
    });
  await host.call('recording:stop', { id, durationMs: chunks.length * 1000 });
  return id;
}

/** The consults the engine knows, newest first. */
export async function consults(host: TestHost): Promise<ConsultInfo[]> {
  const list = await host.call('consults:list');
  return [...list].sort((a, b) => b.recording.startedAt.localeCompare(a.recording.startedAt));
}

/** The only consult of the test's world. */
export async function onlyConsult(host: TestHost): Promise<ConsultInfo> {
  const list = await consults(host);
  expect(list, 'consults in this test').toHaveLength(1);
  return list[0] as ConsultInfo;
}

/** Waits in the Consults view until the newest consult says "Note ready" (in its row, not the state filter's option). */
export async function expectNoteReady(page: Page, timeout = 45_000): Promise<void> {
  await expect(
    page.getByRole('main').getByRole('article').getByText('Note ready', { exact: true }).first(),
  ).toBeVisible({ timeout });
}

/** Opens the note of the newest consult from the Consults view. */
export async function openNote(page: Page): Promise<void> {
  await page
    .getByRole('main')
    .getByRole('button', { name: /open note|view note|read note/i })
    .first()
    .click();
  await expect(page.getByRole('region', { name: 'Note' })).toBeVisible();
}

/** Duration of an audio file in seconds, as ffprobe reads it from the container. */
export function probeSeconds(file: string): number {
  const r = spawnSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`ffprobe failed on ${file}: ${r.stderr}`);
  const seconds = Number(r.stdout.trim());
  if (!Number.isFinite(seconds)) throw new Error(`ffprobe gives no duration for ${file}: "${r.stdout.trim()}"`);
  return seconds;
}
