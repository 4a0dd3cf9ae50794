import type { Page } from '@playwright/test';
import { expect, expectAccessible, go, shot, start, test, type TestHost } from './fixtures.ts';

/** Clicks the switch and returns what the service answered to the window's call. */
async function flip(page: Page, host: TestHost): Promise<boolean> {
  const webhook = await host.windowAnswer(page, 'org:setScribeWebhook', () => page.getByRole('switch', { name: 'Scribe webhook notifications' }).click());
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
  await expect(page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: 'front-desk@clinic.test' }).first()).toBeVisible();

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
