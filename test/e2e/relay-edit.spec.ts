// An edit made in one exam room, said in the other, through the clinic relay: PC A (the test's
// browser host) records Bella and the vet saves an edit of her note; PC B (another browser host,
// a data folder of its own) opens her note from the clinic's list and says where, by whom and
// when it was edited, over the service's original. Pictured at 1280x800 and 1024x700, light and
// dark. PC A names itself by the computer's host name, as the app does unless told otherwise.
import { hostname } from 'node:os';
import { eachLook, expect, go, shot, test } from './fixtures.ts';
import { expectNoteReady, onlyConsult, pickTemplate, record } from './support/consults.ts';
import { twoExamRoomsOnRelay } from './support/relay.ts';

test("PC B says where, by whom and when PC A's vet edited the note", async ({
  page,
  host,
  browser,
  target,
}, testInfo) => {
  const rooms = await twoExamRoomsOnRelay({ page, host, browser, target }, testInfo, {
    scribeSeconds: 1,
    rateLimitPerMinute: 0,
  });
  const { pageB } = rooms;
  try {
    // PC A: Bella's note written, then the vet adds a line and saves.
    await go(page, 'Record');
    await pickTemplate(page, 'SOAP');
    await record(page, 2, undefined, { name: 'Bella', description: 'Vomiting 2 days' });
    await go(page, 'Consults');
    await expectNoteReady(page);
    const consult = await onlyConsult(host);
    await host.call('consults:saveNote', {
      id: consult.recording.id,
      text: 'Plan\nMeloxicam 0.1 mg/kg PO once daily for 5 days.',
    });

    // PC B: the colleague opens Bella's note from the clinic's list.
    await go(pageB, 'Consults');
    const clinic = pageB.getByRole('region', { name: 'The clinic’s other consults' });
    await clinic.getByRole('button', { name: 'Refresh', exact: true }).click();
    const bella = clinic.getByRole('article', { name: 'Bella' });
    await expect(bella).toContainText('From the service, recorded elsewhere');
    const dismiss = pageB.getByRole('button', { name: 'Dismiss' });
    while ((await dismiss.count()) > 0) await dismiss.first().click();
    const line = new RegExp(
      `^Edited on ${hostname()} by Dr\\. Demo Vet at \\d{2}:\\d{2}\\. This is the service's original`,
    );
    // The announcement goes once the vet's saves settle (2 s): the note is opened again until it says so.
    await expect(async () => {
      await go(pageB, 'Consults');
      await bella.getByRole('button', { name: 'Open note', exact: true }).click();
      await expect(pageB.getByText(line)).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await expect(pageB.getByRole('region', { name: 'Note', exact: true })).not.toContainText('for 5 days');
    await eachLook(pageB, async ({ width, height, colorScheme }) => {
      await shot(pageB, `clinic-note-edited-elsewhere-${width}x${height}-${colorScheme}`, { fullPage: false });
    });
  } finally {
    await rooms.close();
  }
});
