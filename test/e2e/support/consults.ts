// Steps of the recording flow, as the vet takes them, shared by the specs.
import { spawnSync } from 'node:child_process';
import { expect, type Page } from '@playwright/test';
import type { ConsultInfo } from '../../../src/shared/ipc.ts';
import type { TestHost } from './test-host.ts';

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

/**
 * Records from the fake microphone for about `seconds` (counted from the press of "Start
 * recording"), checking on the way that the level meter shows sound.
 */
export async function record(page: Page, seconds: number, whileRecording?: () => Promise<void>): Promise<void> {
  await page.getByRole('button', { name: 'Start recording', exact: true }).click();
  const began = Date.now();
  const meter = page.getByRole('meter', { name: 'Input level' });
  await expect(meter).toBeVisible();
  // The fixture has speech from its first second on.
  await expect.poll(async () => Number(await meter.getAttribute('aria-valuenow')), { timeout: 8_000, intervals: [100] }).toBeGreaterThan(0);
  await whileRecording?.();
  const left = seconds * 1000 - (Date.now() - began);
  if (left > 0) await page.waitForTimeout(left);
  await page.getByRole('button', { name: 'Stop recording', exact: true }).click();
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

/** Waits in the Consults view until the newest consult says "Note ready". */
export async function expectNoteReady(page: Page, timeout = 45_000): Promise<void> {
  await expect(page.getByRole('main').getByText('Note ready', { exact: true }).first()).toBeVisible({ timeout });
}

/** Opens the note of the newest consult from the Consults view. */
export async function openNote(page: Page): Promise<void> {
  await page.getByRole('main').getByRole('button', { name: /open note|view note|read note/i }).first().click();
  await expect(page.getByRole('region', { name: 'Note' })).toBeVisible();
}

/** Duration of an audio file in seconds, as ffprobe reads it from the container. */
export function probeSeconds(file: string): number {
  const r = spawnSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ffprobe failed on ${file}: ${r.stderr}`);
  const seconds = Number(r.stdout.trim());
  if (!Number.isFinite(seconds)) throw new Error(`ffprobe gives no duration for ${file}: "${r.stdout.trim()}"`);
  return seconds;
}
