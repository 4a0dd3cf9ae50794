// Start before the patient's name, as a vet presses it when the owner starts talking: the
// recording runs at once, the name is typed while it runs, Stop sends it, the Record view's card
// follows the consult to "Note ready", and Copy note puts it on the clipboard: three clicks from
// the Record view, and the page keeps its place at Stop. Then a consult whose name is never
// typed: Stop asks for it, the consult waits and says so, and the sandbox is sent nothing of it.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, go, shot, start, test } from './fixtures.ts';
import { pickTemplate, shownSeconds } from './support/consults.ts';

const WAITING = "Waiting for the patient's name — type it to send";

/** Clicks the vet makes in the page (trusted ones only), from now on. */
async function countClicks(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(`(() => {
    window.vetClicks = 0;
    document.addEventListener('click', (e) => { if (e.isTrusted) window.vetClicks += 1; }, true);
  })()`);
  return () => page.evaluate<number>('window.vetClicks');
}

/** Where the page is scrolled, whichever element scrolls it. */
function scrolled(page: Page): Promise<number[]> {
  return page.evaluate<number[]>(
    "[document.scrollingElement?.scrollTop ?? 0, document.getElementById('main')?.scrollTop ?? 0]",
  );
}

/** Scrolls the page (and the main area, when it scrolls itself) a little way down. */
function scrollDown(page: Page): Promise<unknown> {
  return page.evaluate("document.scrollingElement?.scrollTo(0, 40); document.getElementById('main')?.scrollTo(0, 40)");
}

/** The patient names of the recording sessions the sandbox holds, asked of it over HTTP as the service is. */
async function sandboxSessions(logFile: string, demo: { email: string; password: string }): Promise<string[]> {
  const origin = /sandbox: serving on (\S+)/.exec(readFileSync(logFile, 'utf8'))?.[1];
  if (!origin) throw new Error('the host log does not say where the sandbox serves');
  const headers = { 'Content-Type': 'application/json', 'X-API-Version': 'v1' };
  const login = await fetch(`${origin}/scribe/auth/login`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email: demo.email, password: demo.password }),
  });
  const { access_token } = (await login.json()) as { access_token: string };
  const answer = await fetch(`${origin}/scribe/recording-sessions/all`, {
    headers: { ...headers, Authorization: `Bearer ${access_token}` },
  });
  const body = (await answer.json()) as unknown;
  const list = (Array.isArray(body) ? body : ((body as { items?: unknown[] }).items ?? [])) as {
    patient_name?: string;
  }[];
  return list.map((s) => s.patient_name ?? '');
}

test('Start before the name: typed while recording, the note copied in three clicks; a name never typed waits and nothing is sent', async ({
  page,
  host,
  demo,
  target,
}, testInfo) => {
  if (target === 'browser') await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize({ width: 1280, height: 800 });
  await start(page, host, demo);
  await pickTemplate(page, 'SOAP');
  const name = page.getByRole('textbox', { name: "Patient's name" });
  await expect(name).toHaveValue('');
  const clicks = await countClicks(page);

  // Start with no name: it records at once.
  await page.getByRole('button', { name: 'Start recording', exact: true }).click();
  const stop = page.getByRole('button', { name: 'Stop recording', exact: true });
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await expect.poll(() => shownSeconds(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  // The name is typed while it runs (typing is not a click), and reaches main.
  await name.fill('Biscuit');
  await expect
    .poll(async () => (await host.call('consults:list'))[0]?.recording.patientName, { timeout: 5_000 })
    .toBe('Biscuit');
  await expect.poll(() => shownSeconds(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(3);

  // Stop keeps the page where it is, however it was scrolled.
  await scrollDown(page);
  const before = await scrolled(page);
  expect(Math.max(...before), 'the page is scrolled before Stop').toBeGreaterThan(0);
  await stop.click();
  const card = page.getByRole('region', { name: 'Note ready' });
  await expect(card).toBeVisible({ timeout: 45_000 });
  expect(await scrolled(page)).toEqual(before);
  // On the first screen, under the buttons: Copy note needs no scrolling.
  await expect(card.getByRole('button', { name: 'Copy note', exact: true })).toBeInViewport();
  await expect(card.getByText(/^Biscuit · 0:0\d recorded$/)).toBeVisible();
  await shot(page, 'record-note-ready');
  await expectAccessible(page, 'record, note ready');

  await card.getByRole('button', { name: 'Copy note', exact: true }).click();
  await expect(card.getByRole('status')).toHaveText('Copied');
  const [consult] = await host.call('consults:list');
  const { text } = await host.call('consults:noteFormats', { id: consult!.recording.id });
  await expect.poll(() => host.clipboardText(page)).toBe(text);
  expect(text).toContain('Biscuit');
  // Start, Stop, Copy note.
  expect(await clicks()).toBe(3);

  // The next consult: its name is never typed.
  await page.getByRole('button', { name: 'Start recording', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await expect(name).toHaveValue('');
  // The red pill in the header leads back to the recorder from another view.
  await go(page, 'Consults');
  await page.getByRole('button', { name: /^Recording \d+:\d\d — open the recorder$/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Record a consult' })).toBeVisible();
  await expect.poll(() => shownSeconds(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  await stop.click();
  await expect(page.getByText("Type the patient's name, then press Enter to send the consult.")).toBeVisible();
  await expect(name).toBeFocused();
  await expect(page.getByRole('region', { name: WAITING })).toBeVisible();
  await shot(page, 'record-waiting-for-name');
  await expectAccessible(page, "record, waiting for the patient's name");

  // It waits, and says so in Consults too; the sandbox has the first consult's session only.
  await go(page, 'Consults');
  await expect(page.getByRole('article', { name: /^No patient name/ }).getByText(WAITING)).toBeVisible();
  await page.waitForTimeout(2_000);
  const waiting = (await host.call('consults:list')).find((c) => !c.recording.patientName);
  expect(waiting).toMatchObject({ recording: { state: 'finished', patientName: null }, job: null });
  expect(await sandboxSessions(testInfo.outputPath('host.log'), demo)).toEqual(['Biscuit']);
});
