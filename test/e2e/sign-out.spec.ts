// Signing out with a consult still on its way says what will wait, and asks: the consult stays
// on this computer for the same account's next sign-in; a colleague sees it wait for its owner,
// who signs in from its row. (Switch user: handover.spec.ts.)
import { COLLEAGUE_ACCOUNT } from '../../src/sandbox/index.ts';
import { expect, go, mainNav, signIn, test } from './fixtures.ts';
import { onlyConsult, startAndRecord } from './support/consults.ts';

// A note that takes a minute: the consult is still on its way when the vet signs out.
test.use({ sandbox: { scribeSeconds: 60 } });

test('sign-out with a consult on its way says it waits for the next sign-in, and asks first', async ({
  page,
  host,
  demo,
}) => {
  await startAndRecord(page, host, demo);
  await go(page, 'Consults');
  await expect.poll(async () => (await onlyConsult(host)).job?.state).toBeTruthy();

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  const ask = page.getByRole('alert').filter({
    hasText: '1 consult is still on the way to the service; it waits on this computer for your next sign-in.',
  });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Stay signed in' }).click();
  await expect(mainNav(page)).toBeVisible();
  expect((await host.call('session:get')).signedIn).toBe(true);

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.getByRole('button', { name: 'Sign out anyway' }).click();
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  // Signed out, it is not shown to whoever is at the computer; signed in again, it is there, still on its way.
  expect(await host.call('consults:list')).toEqual([]);
  // A colleague of the same clinic: signed out (not switched), the consult waits for its owner,
  // who signs in from its row with the e-mail filled in.
  await signIn(page, COLLEAGUE_ACCOUNT);
  await go(page, 'Consults');
  const row = page.getByRole('main').getByRole('article').first();
  await expect(row).toContainText('Waiting for Dr. Demo Vet to sign in');
  await expect(row).not.toContainText('Being written for');
  await row.getByRole('button', { name: 'Sign in as Dr. Demo Vet' }).click();
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(demo.email);
  await page.getByLabel('Password', { exact: true }).fill(demo.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.locator('.topbar .user')).toHaveText('Dr. Demo Vet');
  const back = await onlyConsult(host);
  expect(back.job?.state).not.toBe('failed');
  expect(back.recording.recordedBy?.email).toBe(demo.email);
});
