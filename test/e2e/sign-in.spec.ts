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

test('the service is chosen on the sign-in screen in one step, before signing in', async ({ page, host }) => {
  await openApp(page, host);
  const published = page.getByRole('button', { name: "PupPilot (the clinic's account)", exact: true });
  const sandbox = page.getByRole('button', { name: 'Built-in sandbox (demo, no real notes)', exact: true });
  await expect(page.getByText('Signing in to: Built-in sandbox (demo)', { exact: true })).toBeVisible();
  // The three choices open only when asked.
  await expect(sandbox).toBeHidden();
  await page.getByRole('button', { name: 'Change service', exact: true }).click();
  await expect(sandbox).toHaveAttribute('aria-pressed', 'true');

  await published.click();
  await expect(published).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('Signing in to: PupPilot', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Use the demo account' })).toBeHidden();
  expect(await host.call('settings:get')).toMatchObject({
    useSandbox: false,
    serviceUrls: {
      agentsUrl: 'https://agents.puppilot.co',
      scribeUrl: 'https://scribe-api.puppilot.co',
      agentsApiUrl: 'https://agents-api.puppilot.co',
    },
  });

  await page.getByRole('button', { name: 'Other addresses', exact: true }).click();
  await expect(
    page.getByRole('form', { name: 'Other addresses' }).getByLabel('Sign-in address', { exact: true }),
  ).toBeVisible();
  await expectAccessible(page, 'sign-in-other-addresses');
  await shot(page, 'sign-in-service-choice');

  await sandbox.click();
  await expect(page.getByRole('button', { name: 'Use the demo account' })).toBeVisible();
  expect((await host.call('settings:get')).useSandbox).toBe(true);
  expect((await host.call('session:get')).signedIn).toBe(false);
});
