// Two exam-room PCs on the clinic relay: one service (a sandbox outside either app) delivers its
// signed `scribe` events to the clinic's relay, and both PCs, each a browser host on a data
// folder of its own, subscribe to it from Settings -> Clinic relay. On PC A a vet records Bella
// and her note is fetched within a second of its delivery to the relay; on PC B a colleague finds
// that note listed under Bella's visit, in one row, and opens it there.
import type { Page } from '@playwright/test';
import { expect, go, shot, test } from './fixtures.ts';
import { expectNoteReady, onlyConsult, pickTemplate, record } from './support/consults.ts';
import { twoExamRoomsOnRelay } from './support/relay.ts';

/**
 * Notes in the page the moment its Record view first says "Note ready" (the card below the
 * recorder, where the vet waits), by the page's clock, which is this computer's as the relay's
 * is. A MutationObserver sees it as it is drawn, not at a poll's next turn. Page-side code is
 * plain JavaScript: the e2e tsconfig has no DOM types.
 */
async function watchForNoteReady(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    window.noteShownAt = null;
    const look = () => {
      if (window.noteShownAt !== null) return;
      for (const h of document.querySelectorAll('main h2'))
        if (h.textContent.trim() === 'Note ready') window.noteShownAt = Date.now();
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
    look();
  })()`);
}

test('PC A has its note within a second of the delivery; PC B lists it under Bella', async ({
  page,
  host,
  browser,
  target,
}, testInfo) => {
  // The clinic's service, outside either app, and the clinic's relay, which it delivers to. A
  // note written 6.5 s after its request falls between two looks of the polling a PC does
  // without a relay (1, 2, 4, 6 and 9 s after the request): polled for, it would be fetched
  // 2.5 s after its delivery, in six looks, so the figures below can only hold on the relay's word.
  const rooms = await twoExamRoomsOnRelay({ page, host, browser, target }, testInfo, {
    scribeSeconds: 6.5,
    rateLimitPerMinute: 0,
  });
  const { service, relay, pageB } = rooms;
  try {
    // PC A: Dr. Demo Vet records Bella and waits on the Record view.
    await go(page, 'Record');
    await pickTemplate(page, 'SOAP');
    await watchForNoteReady(page);
    const looksBefore = service.stats().byRoute['GET /scribe/scribe/get/:id'] ?? 0;
    await record(page, 2, undefined, { name: 'Bella', description: 'Vomiting 2 days' });
    await expect(page.getByRole('heading', { name: 'Note ready', exact: true })).toBeVisible({ timeout: 45_000 });
    const shownAt = await page.evaluate<number | null>('window.noteShownAt');

    // The delivery's time is the relay's: `at` is when it accepted the `scribed` delivery. What
    // is held to a second is delivery -> note fetched by PC A's engine (the job's completedAt,
    // set once GET /scribe/get has answered with the note and it is stored): with the relay live
    // the polling's next look is a minute away, and without it 2.5 s (above). The
    // note on screen adds the window's call and a render, which a busy machine can stretch:
    // it is held to two seconds, and both figures go in the report.
    const consult = await onlyConsult(host);
    expect(consult.job?.state).toBe('completed');
    const links = await relay.links();
    const scribed = links.filter((l) => l.status === 'scribed');
    expect(scribed, 'the relay relayed one written note').toHaveLength(1);
    const deliveredAt = Date.parse(scribed[0]?.at ?? '');
    const fetchedMs = Date.parse(consult.job?.completedAt ?? '') - deliveredAt;
    const shownMs = (shownAt ?? Number.NaN) - deliveredAt;
    testInfo.annotations.push({
      type: 'delivery to PC A',
      description: `note fetched ${fetchedMs} ms, on screen ${shownMs} ms after the relay accepted the delivery`,
    });
    expect(fetchedMs, 'delivery -> note fetched by PC A').toBeGreaterThanOrEqual(0);
    expect(fetchedMs, 'delivery -> note fetched by PC A').toBeLessThan(1000);
    expect(shownMs, 'delivery -> note on PC A’s screen').toBeLessThan(2000);
    // The note came on the relay's word, not the polling's: one look at the scribe while it is
    // being written, one for the note.
    const looks = (service.stats().byRoute['GET /scribe/scribe/get/:id'] ?? 0) - looksBefore;
    expect(looks, 'GET /scribe/get by PC A').toBeLessThanOrEqual(2);

    // PC B: the colleague's list of the clinic's consults holds Bella's visit with its note, as
    // one row, openable; not the visit and a note of no patient beside it.
    await go(pageB, 'Consults');
    const clinic = pageB.getByRole('region', { name: 'The clinic’s other consults' });
    await clinic.getByRole('button', { name: 'Refresh', exact: true }).click();
    const bella = clinic.getByRole('article', { name: 'Bella' });
    await expect(bella).toContainText('From the service, recorded elsewhere');
    await expect(bella).toContainText('Vomiting 2 days');
    await expect(clinic.getByRole('article')).toHaveCount(1);
    // Linked by the relay: the note is the visit's, not one offered as could-be.
    await expect(bella).not.toContainText("could be this visit's");
    // This machine's keychain notice is not part of the picture.
    const dismiss = pageB.getByRole('button', { name: 'Dismiss' });
    while ((await dismiss.count()) > 0) await dismiss.first().click();
    for (const scheme of ['light', 'dark'] as const) {
      await pageB.emulateMedia({ colorScheme: scheme });
      await shot(pageB, `clinic-relay-${scheme}`, { fullPage: false });
    }
    await pageB.emulateMedia({ colorScheme: 'light' });
    await bella.getByRole('button', { name: 'Open note', exact: true }).click();
    const note = pageB.getByRole('region', { name: 'Note', exact: true });
    await expect(note).toContainText('Bella');

    // PC A lists it as its own, once.
    await go(page, 'Consults');
    await expectNoteReady(page);
  } finally {
    await rooms.close();
  }
});
