// What the updater tests share: electron-updater's own updaters on a test app, with stand-ins
// for the parts of Electron they reach for and that cannot run here. Each stand-in does what
// Electron's document says the real one does, and no more:
// - NodeExecutor: electron-updater's HTTP executor (its downloads and checksums) over Node's
//   HTTP client instead of Electron's net module;
// - ElectronNetThroughProxy: the same executor with a request that behaves as Electron's
//   net.ClientRequest does when a proxy asks for a password (the 'login' event);
// - FakeSquirrelMac: Electron's autoUpdater on macOS (Squirrel.Mac) as MacUpdater drives it,
//   including its refusal of an update whose code signature does not satisfy the running app's.
// - a generic feed served over real HTTP.
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import {
  createServer,
  request,
  type ClientRequest,
  type IncomingMessage,
  type RequestOptions,
  type Server,
} from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { AppUpdater } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter.js';
import { ElectronHttpExecutor } from 'electron-updater/out/electronHttpExecutor.js';
import { afterAll, beforeAll } from 'vitest';
import { AutoUpdate, type AutoUpdateOptions } from '../../src/main/auto-update.ts';
import type { UpdateInfo } from '../../src/shared/updates.ts';
import { tempDir } from './core.ts';

const require = createRequire(import.meta.url);

/**
 * electron-updater's own HTTP executor (its download and checksum code), with Node's HTTP client
 * under it where Electron's net module cannot run.
 */
export class NodeExecutor extends ElectronHttpExecutor {
  override createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void) {
    const { redirect: _redirect, ...rest } = options as RequestOptions & { redirect?: string };
    return request(rest, callback) as unknown as ReturnType<ElectronHttpExecutor['createRequest']>;
  }
}

/**
 * Readies one of electron-updater's updaters to run here: its downloads go over Node's HTTP
 * client, and quitAndInstall, which would run the installer, is only recorded (its calls'
 * arguments, answered).
 */
export function runHere(updater: AppUpdater): unknown[][] {
  (updater as unknown as { httpExecutor: NodeExecutor }).httpExecutor = new NodeExecutor();
  const installs: unknown[][] = [];
  updater.quitAndInstall = (...args: unknown[]) => void installs.push(args);
  return installs;
}

/**
 * An AutoUpdate of an installed app, as main makes it, that keeps every state it shows and
 * every line it logs for the test to read.
 */
export function watchedAutoUpdate(
  options: Omit<AutoUpdateOptions, 'isPackaged' | 'log' | 'onChange'> & Partial<AutoUpdateOptions>,
): { update: AutoUpdate; states: UpdateInfo[]; lines: string[] } {
  const states: UpdateInfo[] = [];
  const lines: string[] = [];
  const update = new AutoUpdate({
    isPackaged: true,
    log: (level, line) => lines.push(`${level} ${line}`),
    onChange: (info) => states.push(info),
    ...options,
  });
  return { update, states, lines };
}

/** The app as electron-updater sees it: version 0.1.0, installed, its folders in a temporary one. */
export function testApp(dir: string): AppAdapter {
  mkdirSync(join(dir, 'user-data'), { recursive: true });
  return {
    version: '0.1.0',
    name: 'Vet Scribe',
    isPackaged: true,
    appUpdateConfigPath: join(dir, 'resources-app-update.yml'),
    userDataPath: join(dir, 'user-data'),
    baseCachePath: join(dir, 'cache'),
    whenReady: () => Promise.resolve(),
    relaunch: () => undefined,
    quit: () => undefined,
    onQuit: () => undefined,
  };
}

/** A folder for one test app, with resources/app-update.yml as electron-builder writes it (or none). */
export function appFolder(packaged: Record<string, unknown> | null): { dir: string; app: AppAdapter } {
  const dir = tempDir('vet-scribe-update-');
  const app = testApp(dir);
  if (packaged) {
    // electron-builder's own YAML writer (builder-util), as its targets write resources/app-update.yml.
    const { serializeToYaml } = require('builder-util') as { serializeToYaml: (o: unknown) => string };
    writeFileSync(app.appUpdateConfigPath, serializeToYaml(packaged));
  }
  return { dir, app };
}

/** What electron-builder packs into resources/app-update.yml for this app's generic feed. */
export function packagedConfig(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    provider: 'generic',
    url: 'https://updates.invalid/vet-scribe/',
    updaterCacheDirName: 'vet-scribe-updater',
    ...extra,
  };
}

export const sha512 = (b: Buffer) => createHash('sha512').update(b).digest('base64');

/** A latest*.yml naming one file of version 0.2.0. */
export function latestYml(file: string, bytes: Buffer): string {
  return `version: 0.2.0\nfiles:\n  - url: ${file}\n    sha512: ${sha512(bytes)}\n    size: ${bytes.length}\npath: ${file}\nsha512: ${sha512(bytes)}\nreleaseDate: '2026-11-20T10:00:00.000Z'\n`;
}

export interface Feed {
  server: Server;
  /** The feed's address, …/feed/. */
  url: string;
  /** Every path asked for. */
  hits: string[];
  close(): Promise<void>;
}

/** A generic feed: /feed/<name> answers files[name], anything else 404. */
export function startFeed(files: Record<string, () => string | Buffer>): Promise<Feed> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const name = (req.url ?? '').split('?')[0]!.replace(/^\/feed\//, '');
    const body = files[decodeURIComponent(name)]?.();
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    const type = name.endsWith('.yml') ? 'text/yaml' : 'application/octet-stream';
    res.writeHead(200, { 'content-type': type, 'content-length': String(Buffer.byteLength(body)) }).end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed/`,
        hits,
        close: () => {
          server.closeAllConnections();
          return new Promise<void>((done) => server.close(() => done()));
        },
      }),
    ),
  );
}

/**
 * A feed of one update, `file`, for the whole test file (started before its first test): the
 * generic provider names its channel file after the platform the test runs on, so each of
 * `channels` (latest.yml, latest-mac.yml, …) names `file`.
 */
export function oneUpdateFeed(file: string, bytes: Buffer, channels: string[]): Pick<Feed, 'url' | 'hits'> {
  let feed: Feed | undefined;
  beforeAll(async () => {
    const yml = () => latestYml(file, bytes);
    feed = await startFeed({ ...Object.fromEntries(channels.map((c) => [c, yml])), [file]: () => bytes });
  });
  afterAll(() => feed?.close());
  const started = (): Feed => {
    if (!feed) throw new Error('the feed starts before the first test');
    return feed;
  };
  return {
    get url() {
      return started().url;
    },
    get hits() {
      return started().hits;
    },
  };
}

/** Waits for `condition`; a timeout says what was awaited, and `seen()` when given (what happened instead). */
export async function until(what: string, condition: () => boolean, ms = 15_000, seen?: () => unknown): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${seen ? `; seen: ${JSON.stringify(seen(), null, 1)}` : ''}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// --- Electron's net request behind a proxy that asks for a password ------------------------

/** Electron's AuthInfo, as the 'login' event hands it. */
export interface AuthInfo {
  isProxy: boolean;
  scheme: string;
  host: string;
  port: number;
  realm: string;
}
type LoginCallback = (username?: string, password?: string) => void;

/**
 * A request as Electron's net.ClientRequest makes it, through an HTTP proxy, reduced to what
 * the proxy asking for a password does to it (Electron's ClientRequest document, event
 * 'login'): the proxy's 407 becomes a 'login' event with an AuthInfo and a callback; the
 * callback with a user name and password sends the request again with them; with none it
 * cancels, and the 407 is handed on as the response; a request with no 'login' listener is
 * cancelled so; a listener that never calls back leaves the request waiting for ever (a net
 * request has no socket, so builder-util-runtime's socket timeout never applies).
 */
class NetRequestThroughProxy extends EventEmitter {
  private readonly proxy: URL;
  private readonly options: RequestOptions;
  private current: ClientRequest | null = null;
  private aborted = false;

  constructor(proxy: URL, options: RequestOptions) {
    super();
    this.proxy = proxy;
    this.options = options;
  }

  end(): void {
    this.send(null);
  }

  abort(): void {
    this.aborted = true;
    this.current?.destroy();
  }

  private send(proxyAuthorization: string | null): void {
    if (this.aborted) return;
    const o = this.options;
    const target = `${o.protocol ?? 'https:'}//${o.hostname}${o.port ? `:${o.port}` : ''}${o.path ?? '/'}`;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(o.headers ?? {})) if (v !== undefined) headers[k] = String(v);
    if (proxyAuthorization) headers['proxy-authorization'] = proxyAuthorization;
    // An http:// address through an HTTP proxy: the whole address in the request line.
    this.current = request(
      { host: this.proxy.hostname, port: this.proxy.port, method: o.method ?? 'GET', path: target, headers },
      (response) => {
        if (response.statusCode !== 407) {
          this.emit('response', response);
          return;
        }
        const realm = /realm="([^"]*)"/.exec(String(response.headers['proxy-authenticate'] ?? ''))?.[1] ?? '';
        const authInfo: AuthInfo = {
          isProxy: true,
          scheme: 'basic',
          host: this.proxy.hostname,
          port: Number(this.proxy.port),
          realm,
        };
        let answered = false;
        const callback: LoginCallback = (username, password) => {
          if (answered) return;
          answered = true;
          if (username === undefined) {
            this.emit('response', response);
            return;
          }
          response.resume();
          this.send(`Basic ${Buffer.from(`${username}:${password ?? ''}`).toString('base64')}`);
        };
        if (!this.emit('login', authInfo, callback)) callback();
      },
    );
    this.current.on('error', (e) => this.emit('error', e));
    this.current.end();
  }
}

/**
 * electron-updater's ElectronHttpExecutor with its requests made as Electron's net module makes
 * them behind `proxy`. `onLogin` is what electron-updater gives the executor in the app: a
 * function that re-emits each request's 'login' on the updater (AppUpdater's constructor).
 */
export class ElectronNetThroughProxy extends ElectronHttpExecutor {
  private readonly proxy: URL;
  private readonly onLogin: (authInfo: AuthInfo, callback: LoginCallback) => void;
  /** Requests made, by address. */
  readonly requests: string[] = [];

  constructor(proxy: URL, onLogin: (authInfo: AuthInfo, callback: LoginCallback) => void) {
    super(onLogin as ConstructorParameters<typeof ElectronHttpExecutor>[0]);
    this.proxy = proxy;
    this.onLogin = onLogin;
  }

  override createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void) {
    const { redirect: _redirect, ...rest } = options as RequestOptions & { redirect?: string };
    this.requests.push(`${rest.hostname}:${rest.port}${rest.path}`);
    const req = new NetRequestThroughProxy(this.proxy, rest);
    req.on('response', callback);
    // As ElectronHttpExecutor.createRequest does with the updater's login callback.
    req.on('login', this.onLogin);
    return req as unknown as ReturnType<ElectronHttpExecutor['createRequest']>;
  }
}

// --- Squirrel.Mac -------------------------------------------------------------------------

/** What Squirrel.Mac says when the downloaded app's signature does not satisfy the running one's. */
export const SQUIRREL_SIGNATURE_REFUSAL =
  'Code signature at URL file:///private/var/folders/xx/T/org.vetscribe.desktop.ShipIt.x/update.x/Vet%20Scribe.app/ did not pass validation: code failed to satisfy specified code requirement(s)';

/**
 * Electron's autoUpdater on macOS (Squirrel.Mac), as electron-updater's MacUpdater drives it:
 * setFeedURL({ url, headers }) names MacUpdater's local server; checkForUpdates() makes
 * Squirrel ask it for the update's JSON, download the zip it names, then check the app inside
 * against the running app's designated requirement: 'update-downloaded' when it satisfies it,
 * 'error' when not (`refusal`: an ad-hoc-signed app, whose requirement is its own hash, refuses
 * every other build). quitAndInstall() is recorded, never run.
 */
export class FakeSquirrelMac extends EventEmitter {
  private readonly refusal: string | null;
  private feed: { url: string; headers?: Record<string, string> } | null = null;
  /** Bytes of each zip Squirrel fetched. */
  readonly fetched: number[] = [];
  installs = 0;

  constructor(refusal: string | null) {
    super();
    this.refusal = refusal;
  }

  setFeedURL(options: { url: string; headers?: Record<string, string> }): void {
    this.feed = options;
  }

  checkForUpdates(): void {
    void this.run();
  }

  private async run(): Promise<void> {
    try {
      if (!this.feed) throw new Error('Update check failed. The server sent an invalid response.');
      this.emit('checking-for-update');
      const answer = (await (await fetch(this.feed.url, { headers: this.feed.headers })).json()) as { url: string };
      this.emit('update-available');
      const zip = Buffer.from(await (await fetch(answer.url)).arrayBuffer());
      this.fetched.push(zip.length);
      if (this.refusal) this.emit('error', new Error(this.refusal));
      else this.emit('update-downloaded', {}, '', '0.2.0', new Date(), answer.url);
    } catch (e) {
      this.emit('error', e);
    }
  }

  quitAndInstall(): void {
    this.installs += 1;
  }
}

/**
 * Runs `make` with `require('electron').autoUpdater` answering `squirrel` (MacUpdater reads it
 * in its constructor), then puts back whatever `electron` resolved to before.
 */
export function withElectronAutoUpdater<T>(squirrel: FakeSquirrelMac, make: () => T): T {
  const updaterRequire = createRequire(require.resolve('electron-updater'));
  const path = updaterRequire.resolve('electron');
  const before = require.cache[path];
  require.cache[path] = { id: path, filename: path, loaded: true, exports: { autoUpdater: squirrel } } as NodeJS.Module;
  try {
    return make();
  } finally {
    if (before) require.cache[path] = before;
    else delete require.cache[path];
  }
}
