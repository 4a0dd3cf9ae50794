// The `electron` target: the real app (out/, as `electron-vite build` makes it) started by
// Playwright's _electron.launch on a user-data folder of the test's own (Chromium's
// --user-data-dir, which Electron honours for app.getPath('userData')), with the embedded
// sandbox that main starts by default, a private keyring, and the fake microphone fed from
// the same WAV fixture as the browser target. It is killed with SIGKILL and launched again
// on the same folder for the resume tests.
//
// The fault and timing options of a spec (`test.use({ sandbox })`) reach main's embedded
// sandbox as SANDBOX_* variables, which an app that is not packaged honours (src/main/index.ts).
import { copyFileSync, existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron, type ElectronApplication, type Page } from '@playwright/test';
import type { RecorderAction } from '../../../src/shared/desktop.ts';
import type { InvokeChannel, InvokeInput, InvokeOutput, IpcResult } from '../../../src/shared/ipc.ts';
import { NO_BUS, PrivateKeyring } from './electron-keyring.ts';
import { hostEnv, type ClipboardFlavours, type Demo, type SandboxFaults, type TestHost } from './test-host.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const START_TIMEOUT_MS = 30_000;
const CLOSE_TIMEOUT_MS = 10_000;

export interface ElectronHostOptions {
  dataDir: string;
  sandbox: SandboxFaults;
  /** Where main's log is copied when the app stops, and where the sandbox notes each token it issues. */
  logFile: string;
  tokenLog: string;
  /** The WAV file the fake microphone plays. */
  fakeAudio: string;
  /** Where each run's trace is written. */
  artifactsDir: string;
}

/** window.bridge.invoke (src/shared/ipc.ts BridgeApi), untyped: the call crosses into the page as data. */
type Invoke = (channel: string, input: unknown) => Promise<IpcResult<unknown>>;

export class ElectronHost implements TestHost {
  readonly options: ElectronHostOptions;
  url = '';
  demo: Demo | null = null;
  stderr = '';
  /** The trace of every run of the app so far (one per launch). */
  readonly traces: string[] = [];
  /**
   * The window of the app as it is now: after a restart the same object drives the new
   * window, as the same tab of the browser target does after a reload.
   */
  readonly page: Page;
  private app: ElectronApplication | null = null;
  private window: Page | null = null;
  private keyring: PrivateKeyring | null = null;
  private keyringDir: string | null = null;

  constructor(options: ElectronHostOptions) {
    this.options = options;
    this.page = new Proxy({} as Page, {
      get: (_target, property) => {
        const window = this.current();
        const value: unknown = Reflect.get(window, property, window);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(window) : value;
      },
    });
  }

  get dataDir(): string {
    return this.options.dataDir;
  }

  private current(): Page {
    if (!this.window) throw new Error('the Electron app is not running');
    return this.window;
  }

  async start(): Promise<void> {
    try {
      await this.launch();
    } catch (e) {
      await this.stop();
      throw e;
    }
  }

  private async launch(): Promise<void> {
    if (!this.keyringDir) {
      this.keyringDir = mkdtempSync(join(tmpdir(), 'vet-scribe-e2e-keyring-'));
      this.keyring = await PrivateKeyring.start(this.keyringDir);
    }
    const o = this.options;
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(hostEnv(o))) {
      // A dev server address or run-as-node from the caller's shell would start another app.
      if (v !== undefined && k !== 'ELECTRON_RENDERER_URL' && k !== 'ELECTRON_RUN_AS_NODE') env[k] = v;
    }
    env['DBUS_SESSION_BUS_ADDRESS'] = this.keyring?.address ?? NO_BUS;

    const app = await _electron.launch({
      args: [
        ROOT,
        `--user-data-dir=${o.dataDir}`,
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-audio-capture=${o.fakeAudio}`,
        '--autoplay-policy=no-user-gesture-required',
        '--disable-gpu',
      ],
      cwd: ROOT,
      env,
      colorScheme: 'light',
      locale: 'en-GB',
      timeout: START_TIMEOUT_MS,
    });
    this.app = app;
    app.process().stderr?.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString('utf8');
    });
    const userData = await app.evaluate(({ app: electronApp }) => electronApp.getPath('userData'));
    if (realpathSync(userData) !== realpathSync(o.dataDir)) {
      throw new Error(
        `the app keeps its data in ${userData}, not in the test's folder ${o.dataDir}: --user-data-dir was not honoured`,
      );
    }
    await app.context().tracing.start({ screenshots: true, snapshots: true });
    this.window = await app.firstWindow({ timeout: START_TIMEOUT_MS });
    await this.window.waitForLoadState('domcontentloaded');
    this.url = this.window.url();
    this.demo = (await this.call('app:info')).sandbox?.demo ?? null;
  }

  async restart(): Promise<void> {
    await this.kill();
    await this.start();
  }

  /** SIGKILL: no chance to save anything that was not already on disk. */
  async kill(): Promise<void> {
    const app = this.app;
    if (!app) return;
    await this.saveTrace(app);
    this.app = null;
    this.window = null;
    const child = app.process();
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  /** Quits the app as the user would (main lets the pipeline write its last step), SIGKILL if it hangs. */
  async stop(): Promise<void> {
    const app = this.app;
    if (app) {
      await this.saveTrace(app);
      this.app = null;
      this.window = null;
      const child = app.process();
      const timer = setTimeout(() => child.kill('SIGKILL'), CLOSE_TIMEOUT_MS);
      await app.close().catch(() => {});
      clearTimeout(timer);
    }
    // electron-log writes main's log into <userData>/logs on Linux and Windows.
    const log = join(this.options.dataDir, 'logs', 'main.log');
    if (existsSync(log)) copyFileSync(log, this.options.logFile);
    await this.keyring?.stop();
    this.keyring = null;
    if (this.keyringDir) rmSync(this.keyringDir, { recursive: true, force: true });
    this.keyringDir = null;
  }

  private async saveTrace(app: ElectronApplication): Promise<void> {
    const path = join(this.options.artifactsDir, `electron-trace-${this.traces.length + 1}.zip`);
    try {
      await app.context().tracing.stop({ path });
      this.traces.push(path);
    } catch {
      // An app that has already died has no trace to give.
    }
  }

  async call<C extends InvokeChannel>(channel: C, input?: InvokeInput<C>): Promise<InvokeOutput<C>> {
    // Through the preload's bridge, as the window itself calls: main checks the sender.
    const result = (await this.current().evaluate(
      ([c, i]) => (globalThis as unknown as { bridge: { invoke: Invoke } }).bridge.invoke(c, i),
      [channel, input] as [string, unknown],
    )) as IpcResult<InvokeOutput<C>>;
    if (!result.ok) throw new Error(`${channel}: ${result.error.code}: ${result.error.message}`);
    return result.data;
  }

  async open(_page: Page): Promise<void> {
    // The app opened its window when it started.
  }

  async clipboardText(_page: Page): Promise<string> {
    // The window may not read the clipboard (main grants it the microphone only); the system
    // clipboard is what a paste into the practice-management system would get. Since Electron
    // 44 readText() answers a Promise (Electron's breaking-changes document: the clipboard was
    // rebuilt on the W3C asynchronous clipboard); evaluate awaits it.
    if (!this.app) throw new Error('the Electron app is not running');
    return this.app.evaluate(({ clipboard }) => clipboard.readText());
  }

  async clipboardFlavours(_page: Page): Promise<ClipboardFlavours> {
    if (!this.app) throw new Error('the Electron app is not running');
    // Electron 45 has no readHTML or readRTF (removed in Electron 44): the flavours come from
    // clipboard.read() as ClipboardItems, each type's payload a Blob (electron.d.ts), under the
    // MIME types main wrote them with (src/main/index.ts).
    return this.app.evaluate(async ({ clipboard }) => {
      const out: Record<string, string> = {};
      for (const item of await clipboard.read()) {
        for (const type of item.types) {
          if (type !== 'text/plain' && type !== 'text/html' && type !== 'text/rtf') continue;
          const payload = await item.getType(type);
          out[type] = payload instanceof Blob ? await payload.text() : '';
        }
      }
      return { text: out['text/plain'] ?? '', html: out['text/html'] ?? '', rtf: out['text/rtf'] ?? '' };
    });
  }

  /** What the tray menu sends: the command to the window's recorder, from main. */
  async recorderCommand(action: RecorderAction): Promise<void> {
    if (!this.app) throw new Error('the Electron app is not running');
    await this.app.evaluate(({ BrowserWindow }, a) => {
      const win = BrowserWindow.getAllWindows()[0];
      if (!win) throw new Error('the app has no window');
      win.webContents.send('recorder:command', { action: a });
    }, action);
  }

  async windowAnswer<C extends InvokeChannel>(
    _page: Page,
    channel: C,
    action: () => Promise<void>,
  ): Promise<InvokeOutput<C>> {
    const app = this.app;
    if (!app) throw new Error('the Electron app is not running');
    // Main answers the window through ipcMain's handler table; Electron has no public way to
    // observe an answer, so the handler of `channel` is wrapped for one call and what it returns
    // is kept. This reads one Electron internal, the table itself (ipcMain._invokeHandlers, the
    // map ipcMain.handle fills), and says so if it moves; the answer is the handler's own return
    // value, not Electron's reply plumbing (its invoke event no longer has a _reply).
    await app.evaluate(({ ipcMain }, name) => {
      type Handler = (event: unknown, ...args: unknown[]) => unknown;
      const handlers = (ipcMain as unknown as { _invokeHandlers?: Map<string, Handler> })._invokeHandlers;
      const original = handlers?.get(name);
      if (!handlers || !original)
        throw new Error(`cannot watch the answers to ${name}: ipcMain keeps its handlers elsewhere in this Electron`);
      const box = globalThis as unknown as { vetScribeAnswers?: Promise<unknown> };
      box.vetScribeAnswers = new Promise((resolveAnswer, rejectAnswer) => {
        handlers.set(name, async (event, ...args) => {
          handlers.set(name, original);
          try {
            const value = await original(event, ...args);
            resolveAnswer(value);
            return value;
          } catch (e) {
            rejectAnswer(e);
            throw e;
          }
        });
      });
    }, channel as string);
    await action();
    const result = (await app.evaluate(
      () => (globalThis as unknown as { vetScribeAnswers?: Promise<unknown> }).vetScribeAnswers,
    )) as IpcResult<InvokeOutput<C>>;
    if (!result.ok) throw new Error(`${channel}: ${result.error.code}: ${result.error.message}`);
    return result.data;
  }
}
