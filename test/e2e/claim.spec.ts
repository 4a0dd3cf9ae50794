// A consult recorded while no one was signed in (a recording a crash left and the next start
// rebuilt, a recording from the tray before anyone signed in) is no one's: the vet who signs in
// is offered it, and it is sent only once they take it as theirs. Another clinic's vet, once it
// is taken, does not see it.
import { OTHER_ACCOUNT } from '../../src/sandbox/index.ts';
import { expect, expectAccessible, go, openApp, shot, signIn, test } from './fixtures.ts';
import { onlyConsult, pickTemplate, recordThroughCalls } from './support/consults.ts';

test('a consult recorded while signed out is offered to the vet who signs in, sent only as theirs, and then hidden from another clinic', async ({
  page,
  host,
  demo,
}) => {
  // Recorded through the engine's own calls with no one signed in.
  await recordThroughCalls(host, { name: 'Milo', description: 'coughing' });

  await openApp(page, host);
  await signIn(page, demo);
  await go(page, 'Consults');
  const row = page.getByRole('main').getByRole('article', { name: 'Milo — coughing' });
  await expect(row).toContainText('Recorded while no one was signed in — send it as yours?');
  await expect(row.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await expectAccessible(page, 'a consult offered to claim');
  await shot(page, 'consult-to-claim');
  expect((await onlyConsult(host)).job).toBeNull();

  await row.getByRole('button', { name: 'Send as Dr. Demo Vet' }).click();
  // Taken: it is the vet's consult like any other, and goes with the template they choose.
  await expect(row).toContainText('Choose a template to send');
  await expect(row).toContainText('Recorded by Dr. Demo Vet');
  await pickTemplate(page, 'SOAP');
  await row.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(row).toContainText('Note ready', { timeout: 30_000 });
  expect((await onlyConsult(host)).recording.recordedBy?.email).toBe(demo.email);

  // Another clinic's vet at the same computer: nothing.
  await page.getByRole('button', { name: 'Switch user', exact: true }).click();
  await signIn(page, OTHER_ACCOUNT);
  await go(page, 'Consults');
  await expect(page.getByRole('main').getByText('No consults yet — press Record to start one')).toBeVisible();
  expect(await host.call('consults:list')).toEqual([]);
});
