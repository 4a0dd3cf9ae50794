import { expect, expectAccessible, go, mainNav, openApp, shot, signIn, test } from './fixtures.ts';

test('a wrong password is refused with a clear message', async ({ page, host, demo }) => {
  await openApp(page, host);
  await expectAccessible(page, 'sign-in');
  await shot(page, 'sign-in');

  await page.getByLabel('Email', { exact: true }).fill(demo.email);
  await page.getByLabel('Password', { exact: true }).fill(`${demo.password}-wrong`);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: /incorrect|wrong|password/i })).toBeVisible();
  await expect(mainNav(page)).toBeHidden();
  await shot(page, 'sign-in-wrong-password');
});

test('signs in with the demo account, signs out and signs in again', async ({ page, host, demo }) => {
  await openApp(page, host);
  await signIn(page, demo);
  await expect(page.getByRole('banner').getByText('Dr. Demo Vet')).toBeVisible();

  await go(page, 'Settings');
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(mainNav(page)).toBeHidden();
  expect((await host.call('session:get')).signedIn).toBe(false);

  await signIn(page, demo);
  expect((await host.call('session:get')).signedIn).toBe(true);
});
