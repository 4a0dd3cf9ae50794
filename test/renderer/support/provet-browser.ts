// The system browser in which a vet signs in to the sandbox's Provet, for the engine's
// `openBrowser` port: it opens the sign-in page the engine asks for over real HTTP, posts its form
// as the vet would (or leaves the page open, or presses its Cancel), and follows Provet's redirect
// to the engine's loopback address, as a browser does. Nothing of the engine is stood in for.
import { request } from 'undici';
import { PROVET_USERS } from '../../../src/sandbox/index.ts';

/** What the vet does on Provet's page: signs in, leaves it open, or presses Cancel. */
export type ProvetBrowserMode = 'sign-in' | 'hold' | 'cancel';

export interface ProvetBrowser {
  mode: ProvetBrowserMode;
  /** Who signs in on the page. */
  user: { username: string; password: string };
  /** Every address the engine asked to open, in order. */
  opened: string[];
  /** The `openBrowser` port to hand the engine. */
  open(url: string): void;
  /** Settles once the last page opened was dealt with (the redirect followed, or left open). */
  done: Promise<void>;
}

export function provetBrowser(): ProvetBrowser {
  const browser: ProvetBrowser = {
    mode: 'sign-in',
    user: PROVET_USERS.demo,
    opened: [],
    done: Promise.resolve(),
    // The system browser opens the page and returns at once; the vet signs in there later.
    open(url) {
      browser.opened.push(url);
      browser.done = act(url, browser.mode, browser.user);
    },
  };
  return browser;
}

async function act(url: string, mode: ProvetBrowserMode, user: { username: string; password: string }) {
  if (mode === 'hold') return;
  const page = await request(url);
  const html = await page.body.text();
  const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1];
  if (page.statusCode !== 200 || !requestId) throw new Error(`the sign-in page answered ${page.statusCode}`);
  const authorize = new URL(url);
  const form = new URLSearchParams({ request_id: requestId, action: mode === 'cancel' ? 'cancel' : 'allow' });
  if (mode === 'sign-in') {
    form.set('username', user.username);
    form.set('password', user.password);
  }
  const posted = await request(`${authorize.origin}${authorize.pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  await posted.body.dump();
  const location = posted.headers['location'];
  if (posted.statusCode !== 302 || typeof location !== 'string')
    throw new Error(`the sign-in form answered ${posted.statusCode}`);
  // The redirect to the app's loopback address, which the engine listens on.
  const back = await request(location);
  await back.body.dump();
}
