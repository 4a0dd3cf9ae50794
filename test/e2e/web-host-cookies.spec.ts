// Two browser hosts side by side in one browser, as a developer runs `npm run preview:web` twice:
// a browser sends a cookie to every port of 127.0.0.1, so each host's cookies must be its own.
// Opening one host's printed address must not lock the other's tab out (its calls, its events,
// its audio), and a plain server on a third port, opened in the same browser, must not be sent
// either host's token.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, mainNav, test } from './fixtures.ts';
import { RENDERER_DIR } from './global-setup.ts';
import { recordThroughCalls } from './support/consults.ts';
import { BrowserHost } from './support/test-host.ts';

/** A signed-in host with one recorded consult: the address of its audio. */
async function withConsult(host: BrowserHost): Promise<string> {
  await host.call('session:signIn', { email: host.demo!.email, password: host.demo!.password });
  const id = await recordThroughCalls(host, { name: 'Bella' });
  return (await host.call('consults:audioUrl', { id })).url;
}

/** The window's own calls, its event stream and its audio, each through the page's cookies alone. */
async function works(page: Page, host: BrowserHost, audio: string): Promise<void> {
  const calls: number[] = [];
  page.on('response', (r) => {
    if (new URL(r.url()).pathname.startsWith('/ipc/')) calls.push(r.status());
  });
  await page.reload();
  await expect(mainNav(page)).toBeVisible();
  expect(calls.length).toBeGreaterThan(0);
  expect(
    calls.every((s) => s === 200),
    `the window's calls answered ${calls.join(', ')}`,
  ).toBe(true);
  page.removeAllListeners('response');

  // Page-side code is plain JavaScript: the e2e tsconfig has no DOM types.
  const stream = await page.evaluate<string>(`new Promise((done) => {
    const s = new EventSource('/events');
    window.__heard = [];
    s.onmessage = (m) => window.__heard.push(JSON.parse(m.data).channel);
    s.onopen = () => done('open');
    s.onerror = () => done('refused');
  })`);
  expect(stream).toBe('open');
  await host.recorderCommand('pause');
  await expect.poll(() => page.evaluate<string[]>('window.__heard')).toContain('recorder:command');

  const served = page.waitForResponse((r) => r.url().includes(audio));
  const played = await page.evaluate<string>(`new Promise((done) => {
    const a = document.createElement('audio');
    a.preload = 'auto';
    a.onloadedmetadata = () => done('loaded');
    a.onerror = () => done('error');
    a.src = ${JSON.stringify(audio)};
  })`);
  expect([200, 206]).toContain((await served).status());
  expect(played).toBe('loaded');
}

test('two browser hosts in one browser: each keeps working after the other is opened, and a server on a third port is sent neither token', async ({
  context,
  target,
}, testInfo) => {
  test.skip(target !== 'browser', 'the browser host is the browser target only');
  const dirs: string[] = [];
  const host = (name: string) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vet-scribe-e2e-'));
    dirs.push(dataDir);
    return new BrowserHost({
      dataDir,
      rendererDir: RENDERER_DIR,
      sandbox: {},
      logFile: testInfo.outputPath(`${name}.log`),
      tokenLog: testInfo.outputPath(`${name}-tokens.txt`),
    });
  };
  const [a, b] = [host('a'), host('b')];
  // Another program's server on this computer: it notes every Cookie header it is sent.
  const heard: { path: string; cookie: string }[] = [];
  const plain = createServer((req, res) => {
    heard.push({ path: req.url ?? '', cookie: req.headers.cookie ?? '' });
    if (req.url === '/')
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<!doctype html><title>Another server</title><img src="/pixel.png"><script>fetch('/data', { credentials: 'include' })</script>`,
        );
    else res.writeHead(404).end();
  });
  try {
    await Promise.all([a.start(), b.start(), new Promise<void>((r) => plain.listen(0, '127.0.0.1', () => r()))]);
    const [audioA, audioB] = await Promise.all([withConsult(a), withConsult(b)]);
    const tokens = [a, b].map((h) => new URL(h.url).searchParams.get('token')!);

    const pageA = await context.newPage();
    await pageA.goto(a.url);
    await expect(mainNav(pageA)).toBeVisible();
    const pageB = await context.newPage();
    await pageB.goto(b.url);
    await expect(mainNav(pageB)).toBeVisible();
    await test.step('the first host, after the second was opened', () => works(pageA, a, audioA));
    await test.step('the second host, after the first was opened again', async () => {
      await pageA.goto(a.url);
      await expect(mainNav(pageA)).toBeVisible();
      await works(pageB, b, audioB);
    });

    await test.step('a plain server on a third port, opened in the same browser', async () => {
      const pageC = await context.newPage();
      await pageC.goto(`http://127.0.0.1:${(plain.address() as AddressInfo).port}/`);
      await expect.poll(() => heard.map((h) => h.path)).toEqual(expect.arrayContaining(['/', '/pixel.png', '/data']));
      for (const { path, cookie } of heard)
        for (const token of tokens) expect(cookie, `the Cookie header sent for ${path}`).not.toContain(token);
    });
  } finally {
    plain.closeAllConnections();
    await Promise.all([a.stop(), b.stop(), new Promise((r) => plain.close(r))]);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
});
