// A consult recorded while no one was signed in (a recording a crash left and the next start
// rebuilt, a recording from the tray before anyone signed in) is no one's: the vet who signs in
// is offered it, and it is sent only once they take it as theirs. Another clinic's vet, once it
// is taken, does not see it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { OTHER_ACCOUNT } from '../../src/sandbox/index.ts';
import { expect, expectAccessible, go, openApp, shot, signIn, test } from './fixtures.ts';
import { onlyConsult, pickTemplate } from './support/consults.ts';

const CHUNKS = resolve(import.meta.dirname, '../fixtures/audio/mediarecorder-5s');

test('a consult recorded while signed out is offered to the vet who signs in, sent only as theirs, and then hidden from another clinic', async ({
  page,
  host,
  demo,
}) => {
  // Recorded through the engine's own calls with no one signed in.
  const { id } = await host.call('recording:start', {
    mimeType: 'audio/webm;codecs=opus',
    patientName: 'Milo',
    description: 'coughing',
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
