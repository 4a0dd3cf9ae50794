// Hand-over on a shared PC: Dr. Demo Vet records a consult and switches user while it is on its
// way; a colleague of the same clinic signs in and works. The leaving vet's consult goes on with
// their own sign-in (kept in the background): the colleague's row says whose it is while it is
// written, then shows it ready (colleagues of one clinic may read each other's notes).
import { COLLEAGUE_ACCOUNT } from '../../src/sandbox/index.ts';
import { expect, go, signIn, test } from './fixtures.ts';
import { onlyConsult, startAndRecord } from './support/consults.ts';

// A note that takes a few seconds, and a service slow to answer: the consult is on its way at the switch.
test.use({ sandbox: { scribeSeconds: 8, latencyMs: 400 } });

test('Switch user: asked during a recording; after Stop the leaving vet’s note is written with their account while a colleague works', async ({
  page,
  host,
  demo,
}) => {
  await startAndRecord(page, host, demo, {
    whileRecording: async () => {
      // During a recording it asks first; Cancel keeps the vet signed in and recording.
      await page.getByRole('button', { name: 'Switch user', exact: true }).click();
      const ask = page.getByRole('alertdialog');
      await expect(ask).toContainText('A recording is going. Switch user?');
      await expect(ask.getByRole('button', { name: 'Stop and keep' })).toBeVisible();
      await expect(ask.getByRole('button', { name: 'Keep recording' })).toBeVisible();
      await ask.getByRole('button', { name: 'Cancel' }).click();
      await expect(page.getByRole('alertdialog')).toHaveCount(0);
    },
  });
  const before = await onlyConsult(host);
  expect(before.job?.state).not.toBe('completed');

  // Just after Stop: no question, and the consult is not held back.
  await page.getByRole('button', { name: 'Switch user', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Dr. Demo Vet switched user;' })).toBeVisible();
  expect(await host.call('session:get')).toMatchObject({
    signedIn: false,
    background: [{ name: 'Dr. Demo Vet' }],
  });

  await signIn(page, COLLEAGUE_ACCOUNT);
  await go(page, 'Consults');
  const row = page.getByRole('main').getByRole('article').first();
  await expect(row).toContainText('Being written for Dr. Demo Vet');
  await expect(row).not.toContainText('Waiting for Dr. Demo Vet');
  await expect(row.getByRole('button', { name: 'Open note' })).toBeVisible({ timeout: 30_000 });
  const done = await onlyConsult(host);
  expect(done.job?.state).toBe('completed');
  expect(done.recording.recordedBy?.email).toBe(demo.email);
  // The colleague is still the one in front, and the leaving vet's sign-in is gone.
  const now = await host.call('session:get');
  expect(now.user?.email).toBe(COLLEAGUE_ACCOUNT.email);
  expect(now.background).toBeUndefined();
});
