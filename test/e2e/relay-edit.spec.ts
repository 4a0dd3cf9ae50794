// An edit made in one exam room, said in the other, through the clinic relay: PC A (the test's
// browser host) records Bella and the vet saves an edit of her note; PC B (another browser host,
// a data folder of its own) opens her note from the clinic's list and says where, by whom and
// when it was edited, over the service's original. Pictured at 1280x800 and 1024x700, light and
// dark. PC A names itself by the computer's host name, as the app does unless told otherwise.
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { COLLEAGUE_ACCOUNT, startSandbox } from '../../src/sandbox/index.ts';
import { expect, go, shot, start, test } from './fixtures.ts';
import { RENDERER_DIR } from './global-setup.ts';
import { expectNoteReady, onlyConsult, pickTemplate, record } from './support/consults.ts';
import { connectToRelay, startClinicRelay } from './support/relay.ts';
import { BrowserHost } from './support/test-host.ts';

test("PC B says where, by whom and when PC A's vet edited the note", async ({
  page,
  host,
  browser,
  target,
}, testInfo) => {
  test.skip(target !== 'browser', 'two computers on one service and one relay: the browser host runs the second');
  test.setTimeout(150_000);
  const service = await startSandbox({ scribeSeconds: 1, rateLimitPerMinute: 0 });
  const serviceUrls = {
    agentsUrl: service.urls.agents_url,
    scribeUrl: service.urls.scribe_url,
    agentsApiUrl: service.urls.agents_api_url,
  };
  const relay = await startClinicRelay(service);
  const pcBDir = mkdtempSync(join(tmpdir(), 'vet-scribe-e2e-pc-b-'));
  const pcB = new BrowserHost({
    dataDir: pcBDir,
    rendererDir: RENDERER_DIR,
    sandbox: {},
    logFile: testInfo.outputPath('pc-b.log'),
    tokenLog: testInfo.outputPath('pc-b-tokens.txt'),
  });
  const contextB = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'en-GB',
    timezoneId: 'UTC',
    colorScheme: 'light',
  });
  try {
    await pcB.start();
    await host.call('settings:update', { useSandbox: false, serviceUrls });
    await pcB.call('settings:update', { useSandbox: false, serviceUrls });
    await start(page, host, service.demo);
    await connectToRelay(page, relay.url);
    const pageB = await contextB.newPage();
    await start(pageB, pcB, COLLEAGUE_ACCOUNT);
    await connectToRelay(pageB, relay.url);

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
    for (const [width, height] of [
      [1280, 800],
      [1024, 700],
    ] as const)
      for (const scheme of ['light', 'dark'] as const) {
        await pageB.setViewportSize({ width, height });
        await pageB.emulateMedia({ colorScheme: scheme });
        await shot(pageB, `clinic-note-edited-elsewhere-${width}x${height}-${scheme}`, { fullPage: false });
      }
  } finally {
    await contextB.close();
    await pcB.stop();
    await relay.close();
    await service.close();
    rmSync(pcBDir, { recursive: true, force: true });
  }
});
