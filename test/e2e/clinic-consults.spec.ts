// The clinic's consults from the service, as a vet moving between exam rooms meets them: Bella is
// recorded on the exam-room computer; at the office computer (its own data folder, the same
// service) her consult is listed as from the service, recorded elsewhere, found by the search,
// and its note opened and copied there. On the exam-room computer it is listed once, as its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COLLEAGUE_ACCOUNT, startSandbox } from '../../src/sandbox/index.ts';
import { expect, expectAccessible, go, shot, start, test } from './fixtures.ts';
import { RENDERER_DIR } from './global-setup.ts';
import { recordThroughCalls, startToReadyNote } from './support/consults.ts';
import { BrowserHost } from './support/test-host.ts';

test('a consult recorded in one exam room is read and copied at the office computer, marked as from elsewhere', async ({
  page,
  host,
  context,
  target,
}, testInfo) => {
  test.skip(target !== 'browser', 'two computers on one service: the browser host runs the second');
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // One service for both computers: the clinic's, outside either app.
  const service = await startSandbox({ scribeSeconds: 2, rateLimitPerMinute: 0 });
  const serviceUrls = {
    agentsUrl: service.urls.agents_url,
    scribeUrl: service.urls.scribe_url,
    agentsApiUrl: service.urls.agents_api_url,
  };
  const officeDir = mkdtempSync(join(tmpdir(), 'vet-scribe-e2e-office-'));
  const office = new BrowserHost({
    dataDir: officeDir,
    rendererDir: RENDERER_DIR,
    sandbox: {},
    logFile: testInfo.outputPath('office.log'),
    tokenLog: testInfo.outputPath('office-tokens.txt'),
  });
  try {
    await office.start();
    await host.call('settings:update', { useSandbox: false, serviceUrls });
    await office.call('settings:update', { useSandbox: false, serviceUrls });

    // Exam room 2: Dr. Demo Vet records Bella and her note is written.
    await startToReadyNote(page, host, service.demo, {
      patient: { name: 'Bella', description: 'Limping on the left hind' },
      open: false,
    });

    // The office computer: a colleague of the same clinic signs in (the list is read then).
    const officePage = await context.newPage();
    await officePage.setViewportSize({ width: 1280, height: 800 });
    await start(officePage, office, COLLEAGUE_ACCOUNT);
    await go(officePage, 'Consults');
    const clinic = officePage.getByRole('region', { name: 'The clinic’s other consults' });
    await clinic.getByRole('button', { name: 'Refresh', exact: true }).click();
    const bella = clinic.getByRole('article', { name: 'Bella' });
    await expect(bella).toContainText('From the service, recorded elsewhere');
    await expect(bella).toContainText('Limping on the left hind');
    // One row for the visit: the service does not say which note is hers, so the one written
    // then is offered on her row, and opens from there.
    const note = clinic.getByRole('article').filter({ has: officePage.getByRole('button', { name: 'Open note' }) });
    await expect(note).toHaveCount(1);
    await expect(clinic.getByRole('article')).toHaveCount(1);
    await expect(note).toHaveAttribute('aria-label', 'Bella');
    await expect(note).toContainText('From the service, recorded elsewhere');
    await expect(note).toContainText(/1 note written at \d\d:\d\d could be this visit's/);
    await expect(note).toContainText('SOAP');

    // Found by the same search as this computer's consults.
    const search = officePage.getByRole('searchbox', { name: 'Search' });
    await search.fill('bella');
    await expect(clinic.getByRole('article')).toHaveCount(1);
    await search.fill('milo');
    await expect(clinic.getByText('None of them matches.')).toBeVisible();
    await search.fill('');
    await search.blur();
    // This machine's keychain notice is not part of the picture.
    const dismiss = officePage.getByRole('button', { name: 'Dismiss' });
    while ((await dismiss.count()) > 0) await dismiss.first().click();
    await expectAccessible(officePage, 'clinic-consults');
    for (const scheme of ['light', 'dark'] as const) {
      await officePage.emulateMedia({ colorScheme: scheme });
      await shot(officePage, `clinic-consults-${scheme}`, { fullPage: false });
      await officePage.setViewportSize({ width: 1024, height: 700 });
      await shot(officePage, `clinic-consults-${scheme}-1024`, { fullPage: false });
      await officePage.setViewportSize({ width: 1280, height: 800 });
    }
    await officePage.emulateMedia({ colorScheme: 'light' });

    // Opened, read and copied at the office.
    await note.getByRole('button', { name: 'Open note' }).click();
    const region = officePage.getByRole('region', { name: 'Note', exact: true });
    await expect(region).toContainText('Bella');
    await expect(officePage.getByText(/^From the service, recorded elsewhere · /)).toBeVisible();
    await expect(officePage.getByText(/^From the service, recorded elsewhere · /)).toContainText(
      'Patient not named by the service',
    );
    await expect(
      officePage.getByText("The service's original: it may have been edited on the PC where it was recorded."),
    ).toBeVisible();
    for (const scheme of ['light', 'dark'] as const) {
      await officePage.emulateMedia({ colorScheme: scheme });
      await shot(officePage, `clinic-note-elsewhere-${scheme}`, { fullPage: false });
      await officePage.setViewportSize({ width: 1024, height: 700 });
      await shot(officePage, `clinic-note-elsewhere-${scheme}-1024`, { fullPage: false });
      await officePage.setViewportSize({ width: 1280, height: 800 });
    }
    await officePage.emulateMedia({ colorScheme: 'light' });
    await officePage.getByRole('button', { name: 'Copy note', exact: true }).click();
    await expect(officePage.getByRole('status').filter({ hasText: /^Copied$/ })).toBeVisible();
    const flavours = await office.clipboardFlavours(officePage);
    expect(flavours.text).toContain('Bella');
    // Whose note it is comes first: here, that the service does not say.
    expect(flavours.text).toMatch(/^Patient not named by the service/);
    expect(flavours.html).toContain('Bella');
    expect(flavours.rtf.startsWith('{\\rtf1')).toBe(true);

    // In exam room 2 it is listed once, as this computer's own.
    const here = await host.call('clinic:refresh');
    expect(here.error).toBeNull();
    expect(here.consults).toEqual([]);
    await page.reload();
    await go(page, 'Consults');
    await expect(page.getByRole('main').getByRole('article')).toHaveCount(1);

    // Two pets in a row: exam room 2 sends Milo too. At the office each visit is one row offering
    // both notes written then (the service does not say which is whose), and the search for
    // Bella finds her visit with both, each openable.
    const milo = await recordThroughCalls(host, { name: 'Milo', description: 'Itchy ears' });
    const soap = (await host.call('templates:list', { page: 1 })).items.find((t) => t.name === 'SOAP')!;
    await host.call('consults:submit', { id: milo, templateId: soap.id });
    await expect
      .poll(
        async () =>
          (await office.call('clinic:refresh')).consults.map((c) => (c.candidates ?? []).map((n) => n.status)),
        { timeout: 45_000 },
      )
      .toEqual([
        ['scribed', 'scribed'],
        ['scribed', 'scribed'],
      ]);
    await go(officePage, 'Consults');
    await clinic.getByRole('button', { name: 'Refresh', exact: true }).click();
    await expect(clinic.getByRole('article')).toHaveCount(2);
    for (const row of await clinic.getByRole('article').all()) {
      await expect(row).toContainText(/2 notes written (at|between) .+ could be this visit's/);
      await expect(row.getByRole('button', { name: /^Open note \d$/ })).toHaveCount(2);
    }
    for (const scheme of ['light', 'dark'] as const) {
      await officePage.emulateMedia({ colorScheme: scheme });
      await shot(officePage, `clinic-two-pets-${scheme}`, { fullPage: false });
      await officePage.setViewportSize({ width: 1024, height: 700 });
      await shot(officePage, `clinic-two-pets-${scheme}-1024`, { fullPage: false });
      await officePage.setViewportSize({ width: 1280, height: 800 });
    }
    await officePage.emulateMedia({ colorScheme: 'light' });
    await search.fill('bella');
    // (Milo's row too where a note it offers was read and names Bella: that note could be either's.)
    await expect(
      clinic.getByRole('article', { name: 'Bella' }).getByRole('button', { name: /^Open note/ }),
    ).toHaveCount(2);
  } finally {
    await office.stop();
    await service.close();
    rmSync(officeDir, { recursive: true, force: true });
  }
});
