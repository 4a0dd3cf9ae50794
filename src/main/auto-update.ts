// Updates of the installed app from the clinic's own feed, with electron-updater's generic
// provider: the feed (a folder on a web server with latest.yml / latest-mac.yml /
// latest-linux.yml beside the installers, as `npm run dist` writes them) is set by the clinic's
// IT in Settings. Off without a feed, in development, and on a Mac build not signed with a
// Developer ID. An update is downloaded in the background and checked against the feed's
// SHA-512; on Windows, when this build was code-signed, its installer must also be signed by the
// same publisher. It is installed when the vet quits, or restarts from "Update ready: restart
// when free", which the engine refuses while a consult is recorded or sent. Whatever goes wrong
// (a feed that cannot be reached, a file that does not match, an installer from another
// publisher, a proxy that wants a password, macOS refusing the downloaded version, a feed that
// takes the connection and never answers) is logged and ends in the phase 'failed' with a
// sentence for Settings; the app keeps running as it is and the next check tries again.
import { execFile } from 'node:child_process';
import type { EventEmitter } from 'node:events';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AppUpdater, UpdateInfo as FeedUpdateInfo } from 'electron-updater';
import { UPDATE_CHECK_HOURS, updateFeedProblem, type UpdateInfo } from '../shared/updates.ts';

/** Who signed the Mac app: a Developer ID team, or why there is none. */
export type MacSigner = { team: string } | { team: null; why: string };

export interface AutoUpdateOptions {
  /**
   * electron-updater's updater: its `autoUpdater` in the app, loaded only once a feed is set
   * (it reads the app's version and paths when it is made); one on a test app in tests.
   */
  updater: () => Promise<AppUpdater>;
  /** Only an installed app updates itself. */
  isPackaged: boolean;
  /**
   * Where the updater's own settings go (electron-updater reads its cache folder, and on
   * Windows the installer's publisher, from it): written here, beside the app's other data,
   * because the packaged one names a placeholder feed.
   */
  configPath: string;
  log: (level: 'info' | 'warn', line: string) => void;
  onChange: (info: UpdateInfo) => void;
  /** process.platform unless a test plays another. */
  platform?: NodeJS.Platform;
  /** macOS: who signed this app (readMacSigner() unless a test hands one in). */
  macSigner?: () => Promise<MacSigner>;
  /** How long a request to the feed may go unanswered before the check fails (FEED_ANSWER_MS). */
  feedAnswerMs?: number;
}

/**
 * How long the feed has to start answering a request. electron-updater gives up on a silent
 * socket after 60 s only when its request announces the socket ('socket', Node's client);
 * Electron's net.request announces none, so in the app a feed that takes the connection and
 * never answers kept the check at 'checking' for good, and electron-updater handed that pending
 * check to every later one (AppUpdater.checkForUpdates: "already in progress").
 */
export const FEED_ANSWER_MS = 60_000;

/** A request to the feed that had no answer within the time allowed. */
class FeedSilentError extends Error {
  readonly ms: number;
  constructor(ms: number) {
    super(`the update feed did not answer in ${seconds(ms)} s`);
    this.ms = ms;
  }
}

const seconds = (ms: number): number => Math.max(1, Math.round(ms / 1000));

/** What electron-updater's HTTP executor makes a request with, as far as the time limit needs it. */
interface RequestMaker {
  createRequest(options: unknown, callback: (response: unknown) => void): EventEmitter & { abort(): void };
}

const CACHE_DIR_NAME = 'vet-scribe-updater';

/** What electron-builder put into resources/app-update.yml that the generated file keeps. */
interface PackagedConfig {
  updaterCacheDirName?: unknown;
  publisherName?: unknown;
}

/** The updater's own reader of its settings (see attach()). */
interface ConfigOnDisk {
  configOnDisk?: { value: Promise<PackagedConfig> };
}

export const MAC_UNSIGNED_MESSAGE =
  'Updates are off on this build: it is not signed with an Apple Developer ID, and macOS installs an update only into an app so signed. The clinic installs new versions itself, from the dmg.';

/**
 * Who signed a Mac app, from what `codesign --display --verbose=2` prints: a Developer ID team,
 * or why there is none (ad hoc, as electron-builder signs without a certificate, or another
 * kind of certificate).
 */
export function macSignerFrom(display: string): MacSigner {
  if (/^Signature=adhoc\s*$/m.test(display)) return { team: null, why: 'it is signed ad hoc' };
  const team = /^TeamIdentifier=(\S+)\s*$/m.exec(display)?.[1];
  if (!/^Authority=Developer ID Application: /m.test(display) || !team || team === 'not set')
    return { team: null, why: 'it is not signed with a Developer ID certificate' };
  return { team };
}

/**
 * The running Mac app's signer, read from its own signature: the one fact Squirrel.Mac goes by.
 * Squirrel.Mac installs a downloaded version only if it satisfies the running app's designated
 * requirement (Electron's auto-updater document: the app must be signed for automatic updates
 * on macOS); an ad-hoc signature's requirement is its own hash, which no other build matches.
 * A build-time flag could only guess whether electron-builder would find a certificate, and an
 * app re-signed by the clinic's IT would carry the wrong one; /usr/bin/codesign ships with
 * every macOS.
 */
export function readMacSigner(execPath = process.execPath): Promise<MacSigner> {
  // Vet Scribe.app/Contents/MacOS/Vet Scribe -> Vet Scribe.app
  const bundle = resolve(execPath, '..', '..', '..');
  return new Promise((done) => {
    // codesign prints what it displays on stderr.
    execFile(
      '/usr/bin/codesign',
      ['--display', '--verbose=2', bundle],
      { timeout: 15_000 },
      (error, _stdout, stderr) => {
        if (error)
          done({
            team: null,
            why: `its signature could not be read (${
              String(stderr || error.message)
                .trim()
                .split('\n')[0]
            })`,
          });
        else done(macSignerFrom(String(stderr)));
      },
    );
  });
}

export class AutoUpdate {
  private readonly options: AutoUpdateOptions;
  private readonly platform: NodeJS.Platform;
  private readonly feedAnswerMs: number;
  private info: UpdateInfo = { phase: 'off', version: null, message: null };
  private updater: AppUpdater | null = null;
  private timer: NodeJS.Timeout | null = null;
  private feed = '';
  private signer: Promise<MacSigner> | null = null;
  /** Whom this build's Windows installers must be signed by; null when it names no one. */
  private publisher: string[] | null = null;
  /** The proxy that asked for a password during the current check, as host:port. */
  private proxyAsked: string | null = null;
  private lastError: unknown = null;
  /** The download the last check started, until it has settled (it never rejects). */
  private download: Promise<unknown> = Promise.resolve();

  constructor(options: AutoUpdateOptions) {
    this.options = options;
    this.platform = options.platform ?? process.platform;
    this.feedAnswerMs = options.feedAnswerMs ?? FEED_ANSWER_MS;
  }

  state(): UpdateInfo {
    return this.info;
  }

  private set(next: UpdateInfo): void {
    this.info = next;
    this.options.onChange(next);
  }

  /** Uses `feedUrl` from now on ('' = off) and checks it at once. */
  async configure(feedUrl: string): Promise<void> {
    this.feed = feedUrl;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (feedUrl === '') {
      this.set({
        phase: 'off',
        version: null,
        message: 'No update feed is set: the clinic installs new versions itself.',
      });
      return;
    }
    const problem = updateFeedProblem(feedUrl);
    if (problem) {
      this.options.log('warn', `update: feed ignored: it ${problem}`);
      this.set({ phase: 'off', version: null, message: `The update feed ${problem}.` });
      return;
    }
    if (!this.options.isPackaged) {
      this.set({ phase: 'off', version: null, message: 'Only the installed app updates itself.' });
      return;
    }
    if (this.platform === 'darwin') {
      // Without a Developer ID, electron-updater would download each new version and say it is
      // ready, then Squirrel.Mac would refuse it: "Update ready" for ever, every 4 hours. The
      // updater is not even loaded.
      this.signer ??= (this.options.macSigner ?? (() => readMacSigner()))().catch((e: unknown): MacSigner => ({
        team: null,
        why: `its signature could not be read (${(e as Error).message})`,
      }));
      const signer = await this.signer;
      if (this.feed !== feedUrl) return;
      if (signer.team === null) {
        this.options.log(
          'warn',
          `update: off on this Mac: ${signer.why}; Squirrel.Mac installs updates only into an app signed with a Developer ID`,
        );
        this.set({ phase: 'off', version: null, message: MAC_UNSIGNED_MESSAGE });
        return;
      }
    }
    let updater: AppUpdater;
    try {
      updater = await this.attach();
    } catch (e) {
      this.options.log('warn', `update: the updater could not start (${(e as Error).message}); updates are off`);
      this.set({ phase: 'off', version: null, message: 'Updates could not be started on this computer; see the log.' });
      return;
    }
    if (this.feed !== feedUrl) return;
    writeFileSync(this.options.configPath, this.generatedConfig(feedUrl));
    updater.updateConfigPath = this.options.configPath;
    updater.setFeedURL({ provider: 'generic', url: feedUrl });
    if (this.info.phase !== 'ready') this.set({ phase: 'idle', version: null, message: null });
    void this.check();
    this.timer = setInterval(() => void this.check(), UPDATE_CHECK_HOURS * 3600_000);
    this.timer.unref();
  }

  /**
   * The updater's settings: the feed, the cache folder, and the publisher electron-builder wrote
   * into the packaged app-update.yml. NsisUpdater.verifySignature checks the downloaded
   * installer's Authenticode signer against `publisherName`, and skips the check altogether when
   * the file has none (electron-updater's NsisUpdater source); electron-builder writes it there
   * from win.signtoolOptions.publisherName or the certificate's common name when it signs.
   * Written as JSON values, which YAML reads as they are.
   */
  private generatedConfig(feedUrl: string): string {
    const lines = ['provider: generic', `url: ${JSON.stringify(feedUrl)}`, `updaterCacheDirName: ${CACHE_DIR_NAME}`];
    if (this.publisher) lines.push(`publisherName: ${JSON.stringify(this.publisher)}`);
    return `${lines.join('\n')}\n`;
  }

  /** One look at the feed; whatever goes wrong ends in 'failed' with a sentence, never a fault of the app. */
  async check(): Promise<void> {
    if (!this.checkable()) return;
    // A download refused a moment ago may not have settled yet: MacUpdater settles it once
    // Squirrel.Mac has fetched the file, then tidies its cache, and Squirrel's refusal can come
    // first. A check started meanwhile is handed that download as "already in progress", whose
    // end says nothing more: the phase would stay 'downloading' and every later check be
    // skipped (electron-updater's AppUpdater.downloadUpdate). So a check waits for it.
    await this.download;
    if (!this.updater || !this.checkable()) return;
    try {
      const result = await this.updater.checkForUpdates();
      // A download that fails (a checksum or publisher that does not match) comes through 'error' too.
      this.download = result?.downloadPromise?.catch(() => undefined) ?? Promise.resolve();
    } catch (e) {
      this.fail(e);
    }
  }

  private checkable(): boolean {
    return (
      this.updater !== null && this.feed !== '' && this.info.phase !== 'downloading' && this.info.phase !== 'ready'
    );
  }

  private async attach(): Promise<AppUpdater> {
    if (this.updater) return this.updater;
    const updater = await this.options.updater();
    if (this.updater) return this.updater;
    await this.readPackagedConfig(updater);
    if (this.updater) return this.updater;
    updater.autoDownload = true;
    // The vet's own quit installs a downloaded update: no consult is cut short by it (quitting
    // while recording asks first), and nothing restarts behind the vet's back.
    updater.autoInstallOnAppQuit = true;
    updater.allowDowngrade = false;
    updater.logger = {
      info: (m: unknown) => this.options.log('info', `update: ${String(m)}`),
      warn: (m: unknown) => this.options.log('warn', `update: ${String(m)}`),
      // Its errors come again through 'error', said once there.
      error: () => undefined,
      debug: () => undefined,
    };
    updater.on('checking-for-update', () => {
      this.proxyAsked = null;
      this.set({ phase: 'checking', version: null, message: null });
    });
    updater.on('update-not-available', () => this.set({ phase: 'idle', version: null, message: null }));
    updater.on('update-available', (info: FeedUpdateInfo) =>
      this.set({
        phase: 'downloading',
        version: info.version,
        message: `Version ${info.version} is being downloaded.`,
      }),
    );
    updater.on('update-downloaded', (info: FeedUpdateInfo) => {
      this.options.log('info', `update: version ${info.version} downloaded and checked; installed at the next restart`);
      this.set({ phase: 'ready', version: info.version, message: 'Update ready: restart when free.' });
    });
    // A proxy that asks for a password: electron-updater passes the request's 'login' on to this
    // event, and Electron waits for its callback for ever (electron-updater's
    // ElectronHttpExecutor attaches a listener to every request, so Electron's own "no listener,
    // cancel" never applies); the pending check is then reused by every later one. Calling back
    // with no credentials cancels the request and hands the proxy's 407 to the updater (Electron's
    // ClientRequest document, event 'login'), so the check fails and says why. The app has no
    // proxy password to give and does not ask the vet for one: a proxy that lets the update
    // feed through, or one Chromium signs in to with the computer's own account, is IT's fix.
    updater.on('login', (authInfo, callback) => {
      this.proxyAsked = `${authInfo.host}:${authInfo.port}`;
      this.options.log(
        'warn',
        `update: the proxy ${this.proxyAsked} asks for a password (${authInfo.scheme}); the request is cancelled`,
      );
      // electron-updater types the callback with both strings required; it is Electron's, which
      // takes none to cancel.
      (callback as (username?: string, password?: string) => void)();
    });
    updater.on('error', (e: Error) => this.fail(e));
    this.limitAnswerTime(updater);
    this.updater = updater;
    return updater;
  }

  /**
   * Gives every request to the feed feedAnswerMs to start answering: one still silent then is
   * cancelled and fails, through the listeners electron-updater put on it, so the check (or the
   * download) fails as any other and electron-updater lets the next check start. The limit ends
   * at the first answer, so a slow download of a large installer is not cut short. Each request
   * is made by the updater's executor (its createRequest, for Electron's net or, in tests,
   * Node's client), which is wrapped here once.
   */
  private limitAnswerTime(updater: AppUpdater): void {
    const executor = (updater as unknown as { httpExecutor?: RequestMaker | null }).httpExecutor;
    if (!executor) {
      this.options.log('warn', 'update: this electron-updater has no httpExecutor; a silent feed is not timed out');
      return;
    }
    const create = executor.createRequest.bind(executor);
    const limitMs = this.feedAnswerMs;
    executor.createRequest = (options, callback) => {
      const request = create(options, callback);
      const timer = setTimeout(() => {
        // electron-updater listens for 'error' on each of its requests; Electron's abort() says nothing to them.
        if (request.listenerCount('error') > 0) request.emit('error', new FeedSilentError(limitMs));
        request.abort();
      }, limitMs);
      timer.unref();
      const answered = (): void => clearTimeout(timer);
      for (const event of ['response', 'error', 'abort', 'close']) request.once(event, answered);
      return request;
    };
  }

  /**
   * The packaged app-update.yml (resources/, written by electron-builder), read by the updater
   * itself before auto-update.ts points it at the generated file: its `configOnDisk` is the
   * updater's own reader of that file (public in electron-updater's source, though not in its
   * typings), so the path and the YAML are the updater's.
   */
  private async readPackagedConfig(updater: AppUpdater): Promise<void> {
    const reader = (updater as unknown as ConfigOnDisk).configOnDisk;
    let packaged: PackagedConfig | null = null;
    try {
      if (!reader) throw new Error('this electron-updater has no configOnDisk');
      packaged = await reader.value;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      this.options.log(
        code === 'ENOENT' ? 'info' : 'warn',
        `update: the packaged app-update.yml could not be read (${(e as Error).message})`,
      );
    }
    const names = packaged?.publisherName;
    const list = (Array.isArray(names) ? names : [names]).filter((n): n is string => typeof n === 'string' && n !== '');
    this.publisher = list.length > 0 ? list : null;
    if (this.platform !== 'win32') return;
    if (this.publisher) this.options.log('info', `update: installers must be signed by ${this.publisher.join(' or ')}`);
    else
      this.options.log(
        'warn',
        "update: this build names no publisher (it was not code-signed): a new version is checked against the feed's SHA-512 only",
      );
  }

  /** Whatever went wrong: a log line, and the phase 'failed' with a sentence for the vet. */
  private fail(e: unknown): void {
    // A failed check comes twice: as the updater's 'error' event, then as its rejected promise.
    if (e === this.lastError) return;
    this.lastError = e;
    const error = e as (Error & { code?: unknown }) | undefined;
    const words = (error?.message ?? String(e)).split('\n')[0]?.slice(0, 300) ?? '';
    this.options.log('warn', `update: ignored (${words}); the app goes on as it is`);
    // Late news of a feed since turned off: Settings keeps saying why updates are off.
    if (this.info.phase === 'off') return;
    const version = this.info.version;
    const named = version ? `Version ${version}` : 'The new version';
    let message: string;
    if (e instanceof FeedSilentError) {
      message = `The update feed did not answer in ${seconds(e.ms)} s; the app will check again later.`;
    } else if (this.proxyAsked) {
      message = `The update feed is reached through a proxy (${this.proxyAsked}) that asks for a password, which Vet Scribe does not give. The clinic's IT can let the feed through that proxy without one. The app goes on as it is.`;
    } else if (error?.code === 'ERR_UPDATER_INVALID_SIGNATURE') {
      message = `${named} was not installed: its installer is not signed by ${this.publisher?.join(' or ') ?? 'the publisher of this app'}. Tell the clinic's IT. The app goes on as it is.`;
    } else if (error?.code === 'ERR_CHECKSUM_MISMATCH' || /checksum mismatch/.test(words)) {
      message = `${named} from the update feed did not match its checksum and was discarded. Tell the clinic's IT if this happens again. The app goes on as it is.`;
    } else if (this.info.phase === 'ready') {
      // Reached on macOS: MacUpdater says 'update-downloaded' before Squirrel.Mac has checked
      // the download's signature, and Squirrel's refusal comes afterwards, as an error. Staying
      // 'ready' would offer a restart that waits for Squirrel for ever and stop every later
      // check (electron-updater's MacUpdater source).
      message = `${named} was downloaded but the system refused to install it (${words}). The app goes on as it is and tries again at the next check; tell the clinic's IT if this happens again.`;
    } else {
      message = `The update feed could not be used (${words}). The app goes on as it is and tries again in ${UPDATE_CHECK_HOURS} hours.`;
    }
    this.set({ phase: 'failed', version, message });
  }

  /** Quits and installs; the engine has checked that nothing is under way. */
  restart(): void {
    if (!this.updater || this.info.phase !== 'ready') return;
    this.updater.quitAndInstall(false, true);
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
