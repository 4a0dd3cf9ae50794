// Updates of the installed app from the clinic's own feed, with electron-updater's generic
// provider: the feed (a folder on a web server with latest.yml / latest-mac.yml /
// latest-linux.yml beside the installers, as `npm run dist` writes them) is set by the clinic's
// IT in Settings. Off without a feed, and in development. An update is
// downloaded in the background and checked against the feed's SHA-512 (on Windows also its
// signature, when the installer is signed); it is installed when the vet quits, or restarts from
// "Update ready: restart when free", which the engine refuses while a consult is recorded or
// sent. A feed that cannot be reached or serves a file that does not match is logged and
// ignored: the app keeps running as it is.
import { writeFileSync } from 'node:fs';
import type { AppUpdater, UpdateInfo as FeedUpdateInfo } from 'electron-updater';
import { UPDATE_CHECK_HOURS, updateFeedProblem, type UpdateInfo } from '../shared/updates.ts';

export interface AutoUpdateOptions {
  /**
   * electron-updater's updater: its `autoUpdater` in the app, loaded only once a feed is set
   * (it reads the app's version and paths when it is made); one on a test app in tests.
   */
  updater: () => Promise<AppUpdater>;
  /** Only an installed app updates itself. */
  isPackaged: boolean;
  /**
   * Where the updater's own settings go (electron-updater reads its cache folder from it); the
   * app is built without a publish target, so it writes them itself, beside its other data.
   */
  configPath: string;
  log: (level: 'info' | 'warn', line: string) => void;
  onChange: (info: UpdateInfo) => void;
}

const CACHE_DIR_NAME = 'vet-scribe-updater';

export class AutoUpdate {
  private readonly options: AutoUpdateOptions;
  private info: UpdateInfo = { phase: 'off', version: null, message: null };
  private updater: AppUpdater | null = null;
  private timer: NodeJS.Timeout | null = null;
  private feed = '';

  constructor(options: AutoUpdateOptions) {
    this.options = options;
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
      this.set({ phase: 'off', version: null, message: 'No update feed is set: the clinic installs new versions itself.' });
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
    let updater: AppUpdater;
    try {
      updater = await this.attach();
    } catch (e) {
      this.options.log('warn', `update: the updater could not start (${(e as Error).message}); updates are off`);
      this.set({ phase: 'off', version: null, message: 'Updates could not be started on this computer; see the log.' });
      return;
    }
    if (this.feed !== feedUrl) return;
    writeFileSync(this.options.configPath, `provider: generic\nurl: ${JSON.stringify(feedUrl)}\nupdaterCacheDirName: ${CACHE_DIR_NAME}\n`);
    updater.updateConfigPath = this.options.configPath;
    updater.setFeedURL({ provider: 'generic', url: feedUrl });
    if (this.info.phase !== 'ready') this.set({ phase: 'idle', version: null, message: null });
    void this.check();
    this.timer = setInterval(() => void this.check(), UPDATE_CHECK_HOURS * 3600_000);
    this.timer.unref();
  }

  /** One look at the feed; whatever goes wrong is a log line, never a fault of the app. */
  async check(): Promise<void> {
    if (!this.updater || this.feed === '' || this.info.phase === 'downloading' || this.info.phase === 'ready') return;
    try {
      const result = await this.updater.checkForUpdates();
      // A download that fails (a checksum that does not match) comes through 'error' too.
      result?.downloadPromise?.catch(() => undefined);
    } catch (e) {
      this.ignore(e);
    }
  }

  private async attach(): Promise<AppUpdater> {
    if (this.updater) return this.updater;
    const updater = await this.options.updater();
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
    updater.on('checking-for-update', () => this.set({ phase: 'checking', version: null, message: null }));
    updater.on('update-not-available', () => this.set({ phase: 'idle', version: null, message: null }));
    updater.on('update-available', (info: FeedUpdateInfo) => this.set({ phase: 'downloading', version: info.version, message: `Version ${info.version} is being downloaded.` }));
    updater.on('update-downloaded', (info: FeedUpdateInfo) => {
      this.options.log('info', `update: version ${info.version} downloaded and checked; installed at the next restart`);
      this.set({ phase: 'ready', version: info.version, message: 'Update ready: restart when free.' });
    });
    updater.on('error', (e: Error) => this.ignore(e));
    this.updater = updater;
    return updater;
  }

  /** A feed that cannot be reached, or a file that does not match its checksum: logged, ignored. */
  private ignore(e: unknown): void {
    const words = ((e as Error)?.message ?? String(e)).split('\n')[0]?.slice(0, 300);
    this.options.log('warn', `update: ignored (${words}); the app goes on as it is`);
    if (this.info.phase !== 'ready') this.set({ phase: 'idle', version: null, message: 'The update feed could not be used at the last check; the app goes on as it is.' });
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
