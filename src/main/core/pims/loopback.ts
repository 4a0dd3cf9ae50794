// The loopback redirect of RFC 8252 section 7.3: a node:http server on 127.0.0.1 (never
// "localhost", which may resolve elsewhere or to IPv6 only), on a port the system picks, that
// answers one path once. The browser comes back to it with the code and the `state`; the server
// checks the state, tells the browser the page can be closed, and closes. Whatever happens -
// the code, a refusal, a state that does not match, a time-out - the server is closed after.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { PimsError } from './port.ts';

export interface LoopbackReceiver {
  /** The redirect URI to give the authorization request: `http://127.0.0.1:<port>/<path>`. */
  readonly redirectUri: string;
  /** The code, once the browser brings it back with the expected state. */
  readonly code: Promise<string>;
  /** Stops waiting (the vet cancelled in the app): `code` rejects, the port closes. */
  cancel(): void;
  /** Resolves once the port is closed. */
  readonly closed: Promise<void>;
}

export interface LoopbackOptions {
  /** The `state` sent with the authorization request. */
  state: string;
  /** How long to wait for the browser, in ms. */
  timeoutMs?: number;
  /** The PIMS as the vet knows it, for the sentences ("Provet"). */
  name?: string;
}

// The page the browser shows: plain, nothing of the request echoed back (no markup from a query
// reaches a page), nothing loaded from elsewhere.
function page(title: string, line: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}
@media (prefers-color-scheme:dark){body{background:#1d1d1f;color:#eee}}</style></head>
<body><h1>${title}</h1><p>${line}</p></body></html>`;
}

function answer(res: ServerResponse, status: number, title: string, line: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    // The page's address holds the code: no other site is told it.
    'referrer-policy': 'no-referrer',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    connection: 'close',
  });
  res.end(page(title, line));
}

function duration(ms: number): string {
  const [n, unit] = ms >= 60_000 ? [Math.round(ms / 60_000), 'minute'] : [Math.max(1, Math.round(ms / 1000)), 'second'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** Starts the receiver; the redirect URI is known once this resolves. */
export async function startLoopbackReceiver(options: LoopbackOptions): Promise<LoopbackReceiver> {
  const name = options.name ?? 'the practice-management system';
  const timeoutMs = options.timeoutMs ?? 5 * 60_000;
  // A path of its own per sign-in, so a stale tab of an earlier sign-in finds nothing here.
  const path = `/callback/${randomBytes(8).toString('hex')}`;
  let settle: { resolve: (code: string) => void; reject: (e: Error) => void } | null = null;
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  // A rejection nobody awaits yet (the caller is still opening the browser) is not unhandled.
  code.catch(() => undefined);
  let done = false;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== path) {
      answer(res, 404, 'Not found', 'There is nothing here.');
      return;
    }
    if (req.method !== 'GET') {
      answer(res, 405, 'Not allowed', 'This address only receives the sign-in.');
      return;
    }
    if (done) {
      answer(res, 410, 'Already used', 'This sign-in has already come back to Vet Scribe. You can close this page.');
      return;
    }
    const q = url.searchParams;
    // The state is checked first: an answer to a sign-in this app did not start says nothing.
    if (q.get('state') !== options.state) {
      answer(
        res,
        400,
        'Sign-in not recognised',
        'This sign-in was not started by Vet Scribe. You can close this page.',
      );
      finish(
        new PimsError(
          'sign_in_failed',
          `The sign-in to ${name} came back with a state that does not match the one Vet Scribe sent: sign in again.`,
        ),
      );
      return;
    }
    const error = q.get('error');
    if (error !== null) {
      answer(
        res,
        200,
        'Not signed in',
        'The sign-in was not completed. You can close this page and return to Vet Scribe.',
      );
      finish(
        new PimsError(
          'sign_in_failed',
          error === 'access_denied'
            ? `The sign-in to ${name} was cancelled or its page closed before signing in.`
            : `${name} refused the sign-in (${error.slice(0, 64)}): sign in again, and if it happens again tell the clinic's IT.`,
        ),
      );
      return;
    }
    const received = q.get('code');
    if (!received) {
      answer(res, 400, 'Not signed in', 'The sign-in came back without its code. You can close this page.');
      finish(new PimsError('sign_in_failed', `The sign-in to ${name} came back without its code: sign in again.`));
      return;
    }
    answer(res, 200, 'Signed in', 'You are signed in. You can close this page and return to Vet Scribe.');
    finish(received);
  });
  // A slow or idle browser connection does not keep the port open after the answer.
  server.keepAliveTimeout = 1;

  let closedResolve: () => void = () => undefined;
  const closed = new Promise<void>((r) => (closedResolve = r));
  function finish(outcome: string | Error): void {
    if (done) return;
    done = true;
    clearTimeout(timer);
    if (typeof outcome === 'string') settle?.resolve(outcome);
    else settle?.reject(outcome);
    server.close(() => closedResolve());
    // The answer has gone out with `connection: close`; anything still open is let go.
    setImmediate(() => server.closeAllConnections());
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Declared after the port opens: no request, and so no finish(), can come before it.
  const timer = setTimeout(
    () =>
      finish(
        new PimsError(
          'sign_in_failed',
          `The sign-in to ${name} did not come back within ${duration(timeoutMs)}: sign in again.`,
        ),
      ),
    timeoutMs,
  );
  timer.unref();
  const port = (server.address() as AddressInfo).port;
  return {
    redirectUri: `http://127.0.0.1:${port}${path}`,
    code,
    closed,
    cancel: () => finish(new PimsError('sign_in_failed', `The sign-in to ${name} was cancelled.`)),
  };
}
