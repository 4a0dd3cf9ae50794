import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, go, shot, start, test, type TestHost } from './fixtures.ts';
import { onlyConsult, startToReadyNote } from './support/consults.ts';

/** Clicks the switch and returns what the service answered to the window's call. */
async function flip(page: Page, host: TestHost): Promise<boolean> {
  const webhook = await host.windowAnswer(page, 'org:setScribeWebhook', () =>
    page.getByRole('switch', { name: 'Scribe webhook notifications' }).click(),
  );
  return webhook.isActive;
}

test('the notification e-mail is saved and the webhook switch follows the service', async ({ page, host, demo }) => {
  await start(page, host, demo);
  await go(page, 'Settings');
  await expect(page.getByLabel('Notification email', { exact: true })).toBeVisible();
  await expectAccessible(page, 'settings');
  await shot(page, 'settings');

  const email = page.getByLabel('Notification email', { exact: true });
  await email.fill('front-desk@clinic.test');
  const form = page.locator('form').filter({ has: email });
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(
    page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: 'front-desk@clinic.test' }).first(),
  ).toBeVisible();

  const toggle = page.getByRole('switch', { name: 'Scribe webhook notifications' });
  await expect(toggle).toHaveAttribute('aria-checked', /^(true|false)$/);
  const before = (await toggle.getAttribute('aria-checked')) === 'true';
  const first = await flip(page, host);
  expect(first).toBe(!before);
  await expect(toggle).toHaveAttribute('aria-checked', String(first));
  const second = await flip(page, host);
  expect(second).toBe(before);
  await expect(toggle).toHaveAttribute('aria-checked', String(second));
});

test('Settings names the service in use and registers the clinic’s webhook, keeping the secret out of the window', async ({
  page,
  host,
  demo,
}) => {
  const SECRET = 'e2e-webhook-secret-0123456789';
  await start(page, host, demo);
  await go(page, 'Settings');
  await expect(page.getByText('In use:', { exact: true })).toBeVisible();
  await expect(page.locator('.settings-in-use')).toHaveText(/^In use: The built-in sandbox on this computer/);
  // The notification address in force is read from the service when Settings opens.
  const org = await host.call('org:get');
  await expect(page.getByRole('status').filter({ hasText: org.name }).first()).toBeVisible();

  const form = page.getByRole('form', { name: "Register the clinic's webhook" });
  await form.getByLabel('Webhook address', { exact: true }).fill('https://clinic.example/webhooks/scribe');
  const secret = form.getByLabel('Signing secret', { exact: true });
  await expect(secret).toHaveAttribute('type', 'password');
  await secret.fill(SECRET);
  const webhook = await host.windowAnswer(page, 'org:registerWebhook', () =>
    form.getByRole('button', { name: 'Register webhook', exact: true }).click(),
  );
  expect(webhook.eventType).toBe('scribe');
  await expect(form.getByRole('status')).toHaveText(
    'Registered: the service posts "scribe" events to https://clinic.example/webhooks/scribe.',
  );
  await expect(secret).toHaveValue('');
  expect(await page.content()).not.toContain(SECRET);
  await expectAccessible(page, 'settings-webhook');
});

test('a shorter audio retention says how many recordings it would delete and asks first; Cancel keeps them, "Delete it now" deletes only the audio', async ({
  page,
  host,
  demo,
}) => {
  await startToReadyNote(page, host, demo, { open: false });
  const audio = join(host.dataDir, 'recordings', (await onlyConsult(host)).recording.id, 'audio.webm');
  expect(existsSync(audio)).toBe(true);

  await go(page, 'Settings');
  const section = page.getByRole('region', { name: 'Audio retention' });
  const select = section.getByRole('combobox', { name: 'Keep recordings after the note is ready' });
  await select.selectOption({ label: 'Delete right after the note is ready' });
  const ask = section.getByRole('alert');
  await expect(ask).toContainText(
    'This would delete the audio of 1 recording kept on this computer now. Their notes stay.',
  );
  // "Count from today" means nothing for "right after the note": not offered.
  await expect(ask.getByRole('button', { name: /count from today/ })).toHaveCount(0);
  await shot(page, 'settings-retention-ask');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(select).toHaveValue('7');
  expect((await host.call('settings:get')).retentionDays).toBe(7);
  expect(existsSync(audio)).toBe(true);

  await select.selectOption({ label: 'Delete right after the note is ready' });
  await section.getByRole('alert').getByRole('button', { name: 'Delete it now' }).click();
  await expect(section.getByRole('status')).toHaveText('Saved. A recording is deleted as soon as its note is ready.');
  await expect.poll(() => existsSync(audio)).toBe(false);
  const consult = await onlyConsult(host);
  expect(consult.job).toMatchObject({ audioDeleted: true, hasNote: true });
});
