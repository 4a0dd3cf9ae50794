// The browser host: the real core and the embedded sandbox under Node, the built window served
// over HTTP, and the IPC contract bound to HTTP (POST /ipc/<channel>, events as server-sent
// events on /events, audio with ranges on /audio/<id>). Opened in Chromium it is the whole
// app minus the Electron window; the tokens stay in this process, as they stay in main.
// It is for testing and development. It listens on loopback only, answers only requests whose
// Host and Origin are its own and that carry this run's random token (cookies of this port's
// own set from the address it prints, or a header for scripts), and refuses cross-site requests.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { decodeWire, encodeWire } from '../../shared/ipc-wire.ts';
import { decodeSegment, requestTarget } from '../../shared/request-target.ts';
import { EVENT_CHANNELS, INVOKE_CHANNELS, type InvokeChannel } from '../../shared/ipc.ts';
import type { SandboxOptions } from '../../sandbox/index.ts';
import { AppCore } from '../core/app-core.ts';
import { audioAnswer } from '../core/recordings/index.ts';
import { createHandlers } from '../core/ipc-handlers.ts';
import { loggerFromEnv } from '../core/platform/index.ts';
import { MEMORY_ONLY_NOTICE, MemorySecretStore, openKeychain } from '../core/sign-in/index.ts';
import { embeddedSandbox } from '../embedded-sandbox.ts';
import { CONTENT_SECURITY_POLICY } from '../security.ts';

export interface WebHostOptions {
  port?: number;
  host?: string;
  dataDir: string;
  /** The built window (out/renderer). */
  rendererDir: string;
  sandbox?: Partial<SandboxOptions>;
  /** Keep tokens in memory instead of the keychain. */
  memoryTokens?: boolean;
  /**
   * The token every request must carry (at least 32 characters); a random one per run when
   * absent. A test that restarts the host on one page gives the same one again.
   */
  accessToken?: string;
  /** The practice-management system's timings (a test looks at waiting notes every second). */
  pims?: { signInTimeoutMs?: number; recheckMs?: number };
}

export interface WebHost {
  /** The host's root, `http://127.0.0.1:<port>/`. */
  url: string;
  /** The address to open once: it carries the token, which the host puts in a cookie. */
  openUrl: string;
  /** This run's token, for scripts that call the host (header `x-vet-scribe-token`). */
  accessToken: string;
  core: AppCore;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};
const MAX_BODY = 4 * 1024 * 1024;
export const TOKEN_HEADER = 'x-vet-scribe-token';

// A browser sends a cookie to every port of a host, and takes one from every port: cookies know
// no ports. With one name for every host, a second host's address replaced the first's cookie
// (its tab then got 403 on every call) and any server on 127.0.0.1 was sent the token. So:
// - the names carry the port, so hosts side by side neither replace nor read each other's;
// - the token goes only to the paths where the window reaches the engine (its fetch, its
//   EventSource and its <audio> send no header of ours, so a cookie it must be), and a server
//   on another port is sent it only when asked for one of these paths, not for its own pages;
// - the window's page and files take a pass of their own, derived from the token, that opens
//   nothing else here: it goes to every path of every port, and is worth nothing elsewhere.
// A server on another port can still ask for these paths, or set a cookie of these names (a
// lock-out until the printed address is opened again): the README says so.
/** Paths the token cookie is scoped to, as the routes below answer them. */
const TOKEN_PATHS = ['/ipc/', '/events', '/audio/'] as const;
export const tokenCookieName = (port: number): string => `vet-scribe-${port}`;
export const windowCookieName = (port: number): string => `vet-scribe-${port}-window`;
/** The window's pass: from the token, so a host started again with the same token takes the same one. */
export function windowPass(accessToken: string): string {
  return createHmac('sha256', accessToken).update('vet-scribe window').digest('base64url');
}

/** A cookie's Path matches a request's path as a browser matches it (RFC 6265, 5.1.4). */
function underPath(path: string, cookiePath: string): boolean {
  return (
    path === cookiePath ||
    (path.startsWith(cookiePath) && (cookiePath.endsWith('/') || path[cookiePath.length] === '/'))
  );
}

/** Loopback only: the host serves one person's sign-in to this computer and no other. */
export function loopbackHost(host: string): string | null {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare)) return bare;
  return null;
}

/**
 * Every value of the cookies named `name`: a page can hold several of one name (another server
 * on this host may set one with a longer path), and one of them right is enough.
 */
function cookieValues(req: IncomingMessage, name: string): string[] {
  const values = [];
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) values.push(value.join('='));
  }
  return values;
}

function sameToken(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const listenHost = loopbackHost(options.host ?? '127.0.0.1');
  if (!listenHost)
    throw new Error(
      `the browser host listens on this computer only (127.0.0.1, ::1 or localhost), not on "${options.host}"`,
    );
  if (options.accessToken !== undefined && options.accessToken.length < 32)
    throw new Error('the access token must be at least 32 characters');
  const accessToken = options.accessToken ?? randomBytes(32).toString('base64url');
  const notices = [];
  // One keychain entry per data folder, so hosts side by side do not share a session.
  const service = `Vet Scribe (browser host ${createHash('sha256').update(options.dataDir).digest('hex').slice(0, 12)})`;
  const keychain = options.memoryTokens ? null : await openKeychain(service);
  if (!keychain) notices.push({ level: 'warning' as const, message: MEMORY_ONLY_NOTICE });
  const core = new AppCore({
    dataDir: options.dataDir,
    secretStore: keychain ?? new MemorySecretStore(),
    app: { name: 'Vet Scribe', version: process.env['npm_package_version'] ?? '0.0.0' },
    log: loggerFromEnv(),
    notices,
    audioUrl: (id) => `/audio/${encodeURIComponent(id)}`,
    embeddedService: embeddedSandbox(options.sandbox),
    // The window's own browser opens the PIMS's sign-in page in a new tab (http-bridge.ts).
    openBrowser: (url) => void core.emit('browser:open', { url }),
    pims: options.pims,
  });
  await core.start();
  const handlers = createHandlers(core);
  const streams = new Set<ServerResponse>();
  for (const channel of EVENT_CHANNELS) {
    core.on(channel, (payload: unknown) => {
      const frame = `data: ${encodeWire({ channel, payload })}\n\n`;
      for (const res of streams) res.write(frame);
    });
  }
  let origin = '';
  let port = 0;
  const pass = windowPass(accessToken);
  /** A script's header stands alone; else this port's token cookie, or for the window's files its pass. */
  const admitted = (req: IncomingMessage, path: string): boolean => {
    const header = req.headers[TOKEN_HEADER];
    if (header !== undefined) return typeof header === 'string' && sameToken(header, accessToken);
    if (cookieValues(req, tokenCookieName(port)).some((v) => sameToken(v, accessToken))) return true;
    return (
      !TOKEN_PATHS.some((p) => underPath(path, p)) &&
      cookieValues(req, windowCookieName(port)).some((v) => sameToken(v, pass))
    );
  };

  const fail = (res: ServerResponse, status: number, message: string) => {
    res
      .writeHead(status, { 'content-type': 'application/json' })
      .end(JSON.stringify({ ok: false, error: { code: 'host', message } }));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = requestTarget(req.url, origin);
    if (!url) return fail(res, 400, 'The request target is not a path.');
    // A page of another origin, or a rebound DNS name, gets nothing.
    if (req.headers.host !== new URL(origin).host) return fail(res, 403, 'wrong host');
    if (req.headers.origin !== undefined && req.headers.origin !== origin) return fail(res, 403, 'wrong origin');
    // Another site's page (an <audio> or <img> pointing here) gets nothing either.
    const site = req.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') return fail(res, 403, 'A request from another site is refused.');
    // The printed address: its token goes into this port's cookies, and out of the address bar.
    const offered = url.searchParams.get('token');
    if (req.method === 'GET' && url.pathname === '/' && offered !== null) {
      if (!sameToken(offered, accessToken))
        return fail(res, 403, 'This address carries a token of another run: open the address the host printed.');
      const cookie = (name: string, value: string, path: string) =>
        `${name}=${value}; HttpOnly; SameSite=Strict; Path=${path}`;
      const cookies = [
        cookie(windowCookieName(port), pass, '/'),
        ...TOKEN_PATHS.map((p) => cookie(tokenCookieName(port), accessToken, p)),
      ];
      res.writeHead(303, { location: '/', 'set-cookie': cookies, 'cache-control': 'no-store' }).end();
      return;
    }
    // Any other process on this computer may reach the port: without the token, nothing.
    if (!admitted(req, url.pathname))
      return fail(res, 403, 'This browser host needs the address it printed (with its token).');

    if (req.method === 'POST' && url.pathname.startsWith('/ipc/')) {
      const channel = decodeSegment(url.pathname.slice(5)) ?? '';
      if (!(INVOKE_CHANNELS as readonly string[]).includes(channel))
        return fail(res, 404, `No such channel: ${channel}`);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size <= MAX_BODY) chunks.push(chunk);
      }
      // Read to its end first, then refused and the connection closed: a half-read body would
      // be taken for the start of the next request on a kept-alive connection.
      if (size > MAX_BODY) {
        res.setHeader('connection', 'close');
        return fail(res, 413, 'The call is too large.');
      }
      let input: unknown;
      try {
        input = decodeWire(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return fail(res, 400, 'The call is not JSON.');
      }
      const answer = await handlers[channel as InvokeChannel](input);
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(encodeWire(answer));
      return;
    }
    if (req.method === 'GET' && url.pathname === '/events') {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      res.write(': connected\n\n');
      streams.add(res);
      req.on('close', () => streams.delete(res));
      return;
    }
    if (req.method === 'GET' && url.pathname.startsWith('/audio/')) {
      const id = decodeSegment(url.pathname.slice(7));
      if (id === null) return fail(res, 400, 'The audio address is not valid percent-encoding.');
      // The account signed in now may play only its own consults' audio (the same gate as every call).
      const audio = core.access.audioFor(id);
      if (!audio) return fail(res, 404, 'No such recording.');
      const answer = await audioAnswer(audio.path, audio.mimeType, req.headers.range);
      res.writeHead(answer.status, answer.headers);
      if (answer.body) answer.body.on('error', () => res.destroy()).pipe(res);
      else res.end();
      return;
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      const path = decodeSegment(url.pathname);
      if (path === null) return fail(res, 400, 'The address is not valid percent-encoding.');
      const rel = url.pathname === '/' ? 'index.html' : path.replace(/^\/+/, '');
      const file = normalize(join(options.rendererDir, rel));
      if (!file.startsWith(normalize(options.rendererDir) + sep) || !isFile(file)) return fail(res, 404, 'Not found.');
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-security-policy': CONTENT_SECURITY_POLICY,
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
      });
      if (req.method === 'HEAD') res.end();
      else
        createReadStream(file)
          .on('error', () => res.destroy())
          .pipe(res);
      return;
    }
    fail(res, 405, 'Method not allowed.');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      core.log.error(`web host: ${(e as Error).message}`);
      if (!res.headersSent) fail(res, 500, 'The host failed to answer.');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, listenHost, () => resolve());
  });
  ({ port } = server.address() as AddressInfo);
  origin = `http://${listenHost.includes(':') ? `[${listenHost}]` : listenHost}:${port}`;
  return {
    url: `${origin}/`,
    openUrl: `${origin}/?token=${accessToken}`,
    accessToken,
    core,
    async close() {
      for (const res of streams) res.end();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await core.stop();
    },
  };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
