// The clinic relay of the end-to-end specs: the clinic's webhook receiver with its relay on
// (src/webhook-receiver), started in the spec's process against a sandbox standing for the
// clinic's service, and registered there as the clinic's endpoint with PUT /webhook/update, as
// the clinic's IT would register it. The sandbox then delivers its signed `scribe` events to
// it, and the exam-room PCs subscribe to it from Settings -> Clinic relay.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Browser, type Page, type TestInfo } from '@playwright/test';
import { z } from 'zod';
import { COLLEAGUE_ACCOUNT, startSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { startWebhookReceiver } from '../../../src/webhook-receiver/receiver.ts';
import { go, start, type TestHost } from '../fixtures.ts';
import { RENDERER_DIR } from '../global-setup.ts';
import { BrowserHost } from './test-host.ts';

const SECRET = 'the-clinics-webhook-secret';

/** One pair of a scribe and its recording session, as GET /links answers it. */
const linkSchema = z.object({
  id: z.number().int(),
  public_id: z.string(),
  recording_session_public_id: z.string().nullable(),
  status: z.string(),
  at: z.iso.datetime(),
});
export type RelayLink = z.infer<typeof linkSchema>;
const linksSchema = z.object({ links: z.array(linkSchema), last_id: z.number().int() });

const signInSchema = z.object({ access_token: z.string(), user: z.object({ organization_id: z.string() }) });

export interface ClinicRelay {
  /** The relay's address, as a clinic's IT gives it to the exam rooms. */
  readonly url: string;
  /** GET /links?since=0: every relayed event that names a recording session, oldest first. */
  links(): Promise<RelayLink[]>;
  close(): Promise<void>;
}

/** POST or GET on the service or the relay, with the vet's token when given; the answer's JSON. */
async function json(url: string, init: { method: string; token?: string; body?: unknown }): Promise<unknown> {
  const answer = await fetch(url, {
    method: init.method,
    headers: {
      'x-api-version': 'v1',
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token === undefined ? {} : { authorization: `Bearer ${init.token}` }),
    },
    body: init.body === undefined ? null : JSON.stringify(init.body),
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${init.method} ${new URL(url).pathname} answered ${answer.status}: ${text}`);
  return JSON.parse(text) as unknown;
}

/**
 * Starts the relay for the clinic of `vet` at `service` (its organization named, as a clinic
 * sets it up) and has the service deliver its `scribe` events to it. The vet's sign-in is kept
 * here only, to read the relay's links with.
 */
export async function startClinicRelay(service: Sandbox, vet = service.demo): Promise<ClinicRelay> {
  const signedIn = signInSchema.parse(
    await json(`${service.urls.agents_url}/auth/sign-in`, { method: 'POST', body: vet }),
  );
  const token = signedIn.access_token;
  const receiver = await startWebhookReceiver({
    port: 0,
    secret: SECRET,
    // The relay's one line per delivery is not the spec's to read: it asks GET /links instead.
    out: () => undefined,
    relay: { scribeUrl: service.urls.scribe_url, organization: signedIn.user.organization_id },
  });
  try {
    await json(`${service.urls.scribe_url}/webhook/update`, {
      method: 'PUT',
      token,
      body: { event_type: 'scribe', webhook_url: receiver.url, auth_token: SECRET },
    });
  } catch (e) {
    await receiver.close();
    throw e;
  }
  return {
    url: receiver.url,
    links: async () => linksSchema.parse(await json(`${receiver.url}links?since=0`, { method: 'GET', token })).links,
    close: () => receiver.close(),
  };
}

/**
 * Sets the relay's address in Settings -> Clinic relay, as the clinic's IT or a vet would, and
 * waits until the section says this computer hears it.
 */
export async function connectToRelay(page: Page, url: string): Promise<void> {
  await go(page, 'Settings');
  const address = page.getByLabel('Clinic relay address', { exact: true });
  await address.fill(url);
  await page.locator('form').filter({ has: address }).getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Now:/ })).toHaveText('Now: Connected.');
}

/** Two exam-room PCs of one clinic, both signed in and subscribed to its relay. */
export interface TwoExamRooms {
  /** The clinic's service, outside either app. */
  service: Sandbox;
  relay: ClinicRelay;
  /** PC B's host, on a data folder of its own. */
  pcB: BrowserHost;
  /** PC B's window, where the colleague is signed in. */
  pageB: Page;
  /** Stops PC B, the relay and the service, and removes PC B's folder. */
  close(): Promise<void>;
}

/**
 * Two exam-room PCs on one service (a sandbox outside either app, `scribe` its options) and the
 * clinic's relay: PC A is the test's own host and page, where the demo vet signs in; PC B another
 * browser host with its own data folder, in a browser context of its own (no cookie or storage
 * shared with PC A), where the colleague signs in. Both are subscribed before anything is recorded.
 * Only the browser host runs a second computer: on the Electron target the test is skipped.
 */
export async function twoExamRoomsOnRelay(
  { page, host, browser, target }: { page: Page; host: TestHost; browser: Browser; target: string },
  testInfo: TestInfo,
  scribe: Parameters<typeof startSandbox>[0],
): Promise<TwoExamRooms> {
  testInfo.skip(target !== 'browser', 'two computers on one service and one relay: the browser host runs the second');
  // Two hosts and two windows signing in, and a scribe of seconds: a minute on a machine as busy
  // as CI keeps it, which the suite's 90 s leaves too little room above.
  testInfo.setTimeout(150_000);
  const service = await startSandbox(scribe);
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
  const close = async (): Promise<void> => {
    await contextB.close();
    await pcB.stop();
    await relay.close();
    await service.close();
    rmSync(pcBDir, { recursive: true, force: true });
  };
  try {
    await pcB.start();
    await host.call('settings:update', { useSandbox: false, serviceUrls });
    await pcB.call('settings:update', { useSandbox: false, serviceUrls });
    await start(page, host, service.demo);
    await connectToRelay(page, relay.url);
    const pageB = await contextB.newPage();
    await start(pageB, pcB, COLLEAGUE_ACCOUNT);
    await connectToRelay(pageB, relay.url);
    return { service, relay, pcB, pageB, close };
  } catch (e) {
    await close();
    throw e;
  }
}
