// The app under test as the specs see it (`TestHost`), and its `browser` target: one browser
// host as a child process, on a data folder of its own. It can be killed the hard way
// (SIGKILL, as a crash or a power cut would) and started again on the same folder, to show
// that the pipeline resumes from its job files. The `electron` target is electron-host.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Page } from '@playwright/test';
import { decodeWire, encodeWire } from '../../../src/shared/ipc-wire.ts';
import type { RecorderAction } from '../../../src/shared/desktop.ts';
import type { InvokeChannel, InvokeInput, InvokeOutput, IpcResult } from '../../../src/shared/ipc.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = resolve(ROOT, 'src/main/web-host/cli.ts');
const START_TIMEOUT_MS = 30_000;

export interface Demo {
  email: string;
  password: string;
}

/** Faults and timings of the embedded sandbox (src/sandbox/README.md), the same every run. */
export interface SandboxFaults {
  /** Delay before every answer of the service. */
  latencyMs?: number;
  /** Share of requests answered 503 with Retry-After. */
  failRate?: number;
  /** Share of connections cut in the middle of the answer. */
  dropRate?: number;
  /** Access token lifetime in seconds. */
  accessTtl?: number;
  /** Seconds a presigned upload URL stays valid. */
  uploadTtl?: number;
  /** Processing time of a scribe job; 2 s unless given. */
  scribeSeconds?: number;
}

export interface TestHostOptions {
  dataDir: string;
  rendererDir: string;
  sandbox: SandboxFaults;
  /** Where the core writes its debug log and the sandbox notes each token it issues. */
  logFile: string;
  tokenLog: string;
  /** Node's own switches for the host process (a benchmark's `--inspect=127.0.0.1:0`). */
  nodeArgs?: readonly string[];
}

/** The environment of one run of the app: the sandbox's options and where the logs go. */
export function hostEnv(o: Pick<TestHostOptions, 'sandbox' | 'logFile' | 'tokenLog'>): NodeJS.ProcessEnv {
  // Nothing of the caller's own SANDBOX_* or log settings leaks into the run.
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('SANDBOX_') && !k.startsWith('VET_SCRIBE_LOG')) env[k] = v;
  const s = o.sandbox;
  return {
    ...env,
    SANDBOX_SCRIBE_SECONDS: String(s.scribeSeconds ?? 2),
    SANDBOX_LATENCY_MS: String(s.latencyMs ?? 0),
    SANDBOX_FAIL_RATE: String(s.failRate ?? 0),
    SANDBOX_DROP_RATE: String(s.dropRate ?? 0),
    ...(s.accessTtl !== undefined ? { SANDBOX_ACCESS_TTL: String(s.accessTtl) } : {}),
    ...(s.uploadTtl !== undefined ? { SANDBOX_UPLOAD_TTL: String(s.uploadTtl) } : {}),
    // The fault dice roll the same way every run.
    SANDBOX_SEED: '1',
    SANDBOX_TOKEN_LOG: o.tokenLog,
    VET_SCRIBE_LOG_FILE: o.logFile,
    VET_SCRIBE_LOG_LEVEL: 'debug',
  };
}

/** What a spec may ask of the app under test, whichever target runs it. */
export interface TestHost {
  /** The window's address. */
  readonly url: string;
  /** The embedded sandbox's demo account; null when the app runs on no sandbox. */
  readonly demo: Demo | null;
  /** The app's data folder (recordings, jobs, settings). */
  readonly dataDir: string;
  /** Everything the app wrote on stderr, for the report of a failed test. */
  readonly stderr: string;
  /** Kills the app without warning and starts it again on the same data folder. */
  restart(): Promise<void>;
  /** Calls the IPC contract as the window does, to compare what the window shows with the engine's answer. */
  call<C extends InvokeChannel>(channel: C, input?: InvokeInput<C>): Promise<InvokeOutput<C>>;
  /** Shows the app in `page`: the browser loads the host's address; Electron's window is already there. */
  open(page: Page): Promise<void>;
  /** The text on the system clipboard, as a paste into another program would get it. */
  clipboardText(page: Page): Promise<string>;
  /** The clipboard's plain-text, HTML and RTF flavours ('' for one that is not there). */
  clipboardFlavours(page: Page): Promise<ClipboardFlavours>;
  /** Runs `action` in the window and returns the engine's answer to the window's call on `channel`. */
  windowAnswer<C extends InvokeChannel>(page: Page, channel: C, action: () => Promise<void>): Promise<InvokeOutput<C>>;
  /** A command to the window's recorder, as the tray menu or the global shortcut sends it. */
  recorderCommand(action: RecorderAction): Promise<void>;
}

export interface ClipboardFlavours {
  text: string;
  html: string;
  rtf: string;
}

export class BrowserHost implements TestHost {
  readonly options: TestHostOptions;
  /** The address the host printed: its root with this host's access token, which the page keeps in a cookie. */
  url = '';
  private readonly accessToken = randomBytes(32).toString('base64url');
  demo: Demo | null = null;
  /** Everything every run of the host wrote on stderr. */
  stderr = '';
  private child: ChildProcess | null = null;
  private port = 0;

  constructor(options: TestHostOptions) {
    this.options = options;
  }

  get dataDir(): string {
    return this.options.dataDir;
  }

  async start(): Promise<void> {
    try {
      await this.spawn(this.port);
    } catch (e) {
      // Another process took the port between a kill and the restart: any port will do.
      if (this.port === 0) throw e;
      await this.spawn(0);
    }
  }

  /** Kills the host without warning and starts it again on the same data folder. */
  async restart(): Promise<void> {
    await this.kill();
    await this.start();
  }

  /** The host's process, forgotten by the host: null when there is none or it has ended. */
  private detach(): ChildProcess | null {
    const child = this.child;
    this.child = null;
    return child && child.exitCode === null && child.signalCode === null ? child : null;
  }

  /** SIGKILL: no chance to save anything that was not already on disk. */
  async kill(): Promise<void> {
    const child = this.detach();
    if (!child) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  /** SIGTERM (the host closes its core), then SIGKILL if it has not gone in 5 s. */
  async stop(): Promise<void> {
    const child = this.detach();
    if (!child) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }

  /** Calls the IPC contract as the window does, to compare what the window shows with the engine's answer. */
  async call<C extends InvokeChannel>(channel: C, input?: InvokeInput<C>): Promise<InvokeOutput<C>> {
    const response = await fetch(`${new URL(this.url).origin}/ipc/${encodeURIComponent(channel)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-vet-scribe-token': this.accessToken },
      body: input === undefined ? '' : encodeWire(input),
    });
    const result = decodeWire(await response.text()) as IpcResult<InvokeOutput<C>>;
    if (!result.ok) throw new Error(`${channel}: ${result.error.code}: ${result.error.message}`);
    return result.data;
  }

  async open(page: Page): Promise<void> {
    await page.goto(this.url);
  }

  async clipboardText(page: Page): Promise<string> {
    return page.evaluate<string>('navigator.clipboard.readText()');
  }

  async clipboardFlavours(page: Page): Promise<ClipboardFlavours> {
    // Chromium hands a web custom format ('web text/rtf') to a page that reads the clipboard
    // with the Async Clipboard API, as a paste into a web editor would get it. Page-side code
    // is plain JavaScript: the e2e tsconfig has no DOM types.
    const types = await page.evaluate<Record<string, string>>(`(async () => {
      const out = {};
      for (const item of await navigator.clipboard.read()) {
        for (const type of item.types) out[type] = await (await item.getType(type)).text();
      }
      return out;
    })()`);
    return { text: types['text/plain'] ?? '', html: types['text/html'] ?? '', rtf: types['web text/rtf'] ?? '' };
  }

  async windowAnswer<C extends InvokeChannel>(
    page: Page,
    channel: C,
    action: () => Promise<void>,
  ): Promise<InvokeOutput<C>> {
    const path = `/ipc/${encodeURIComponent(channel)}`;
    const answered = page.waitForResponse((r) => r.url().endsWith(path) || r.url().endsWith(`/ipc/${channel}`));
    await action();
    const result = decodeWire(await (await answered).text()) as IpcResult<InvokeOutput<C>>;
    if (!result.ok) throw new Error(`${channel}: ${result.error.code}: ${result.error.message}`);
    return result.data;
  }

  /** Typed on the host's input, where the browser host takes the tray's commands. */
  async recorderCommand(action: RecorderAction): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin) throw new Error('the host is not running');
    await new Promise<void>((resolve, reject) =>
      stdin.write(`recorder ${action}\n`, (e) => (e ? reject(e) : resolve())),
    );
  }

  private async spawn(port: number): Promise<void> {
    const o = this.options;
    const args = [
      ...(o.nodeArgs ?? []),
      CLI,
      '--port',
      String(port),
      '--data-dir',
      o.dataDir,
      '--renderer-dir',
      o.rendererDir,
    ];
    // One token for every run of this host, so a page open before a restart still gets in.
    const env = { ...hostEnv(o), VET_SCRIBE_HOST_TOKEN: this.accessToken };
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      this.stderr += text;
    });
    const lines = createInterface({ input: child.stdout });
    const first = await new Promise<string>((resolveLine, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the host printed nothing in ${START_TIMEOUT_MS / 1000} s\n${this.stderr}`)),
        START_TIMEOUT_MS,
      );
      lines.once('line', (line) => {
        clearTimeout(timer);
        resolveLine(line);
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the host exited (${signal ?? code}) before it was ready\n${this.stderr}`));
      });
    });
    // Keep draining stdout so the child never blocks on a full pipe.
    lines.on('line', () => {});
    const ready = JSON.parse(first) as { url: string; data_dir: string; demo: Demo | null };
    this.url = ready.url;
    this.demo = ready.demo;
    this.port = Number(new URL(ready.url).port);
  }
}
