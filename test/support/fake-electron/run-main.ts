// Starts the BUILT main (out/main/index.js) under plain Node with the fake Electron of this
// folder (register.ts), for the tests that drive it (test/build/built-main.test.ts, test/main/electron-glue/).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { QUIT_PREFIX, REPORT_PREFIX, type QuitReport, type Report } from './report.ts';

export const ROOT = join(import.meta.dirname, '../../..');
export const MAIN = join(ROOT, 'out', 'main', 'index.js');
const REGISTER = join(import.meta.dirname, 'register.ts');
// A session bus that does not exist: keytar's probe fails at once, as on a machine without a
// keychain, and the developer's own keyring is never touched.
const NO_BUS = 'unix:path=/nonexistent/vet-scribe-no-bus';
const RUN_TIMEOUT_MS = 15_000;

export interface Run<R = Report> {
  report: R;
  quit: QuitReport;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * How every quit of main ends: will-quit is held once while the engine stops, then the quit
 * goes on. What comes before it says how the quit began.
 */
export const ENGINE_STOPS_AT_WILL_QUIT = ['will-quit (prevented)', 'before-quit', 'will-quit', 'quit'];

/** What a run left open when it ended, beyond its own stdio pipes (a server, a socket, a timer…). */
export function leftOpen(quit: QuitReport): string[] {
  return Object.keys(quit.resources).filter((r) => r !== 'PipeWrap' && r !== 'TTYWrap');
}

/**
 * One run of the built main for the calling describe, on a home folder of its own: started
 * before its first test with `command` and `env`, the folder deleted after its last.
 */
export function runOnce(
  label: string,
  command: Command,
  env: NodeJS.ProcessEnv,
): { readonly run: Run; readonly home: string } {
  let home: string | undefined;
  let run: Run | undefined;
  beforeAll(async () => {
    expect(builtMainExists(), 'out/main/index.js is missing: run "npm run build" first').toBe(true);
    home = mkdtempSync(join(tmpdir(), `vet-scribe-glue-${label}-`));
    run = await runMain(home, join(home, 'tokens.txt'), command, env);
  });
  afterAll(() => {
    if (home) rmSync(home, { recursive: true, force: true });
  });
  return {
    get run() {
      if (!run) throw new Error('the built main has not run: see the failure of beforeAll');
      return run;
    },
    get home() {
      if (!home) throw new Error('the built main has no home yet: see the failure of beforeAll');
      return home;
    },
  };
}

/** The JSON of the first stdout line that starts with `prefix`, or undefined. */
export function lineOf<T>(stdout: string, prefix: string): T | undefined {
  const line = stdout
    .split('\n')
    .find((l) => l.startsWith(prefix))
    ?.slice(prefix.length);
  return line === undefined ? undefined : (JSON.parse(line) as T);
}

/** Whether the built main is there to run ("npm run build", or electron-vite build, makes it). */
export function builtMainExists(): boolean {
  return existsSync(MAIN);
}

/**
 * Starts the built main on `home`, waits for the driver's report, sends `command`, waits for the
 * end. With no command, main is expected to end by itself, without a window (a failed start).
 * An Electron API the fake lacks ends the run at once, with what the child printed.
 */
export type Command =
  | 'close'
  | 'quit'
  | 'keep-recording'
  | 'desktop'
  | 'activate'
  | 'toast-timeout'
  | 'session-end'
  | 'wayland'
  | 'note-click'
  | 'held-start';
export function runMain(home: string, tokenLog: string, command: Command, extraEnv?: NodeJS.ProcessEnv): Promise<Run>;
export function runMain(home: string, tokenLog: string, command: null): Promise<Run<Report | null>>;
export function runMain(
  home: string,
  tokenLog: string,
  command: Command | null,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<Run<Report | null>> {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // A dev server address would load another page; SANDBOX_* from the shell would change the
    // sandbox; NODE_OPTIONS would change the runtime; the shell's own desktop session would
    // change what main says about the global shortcut.
    if (
      key === 'ELECTRON_RENDERER_URL' ||
      key === 'ELECTRON_RUN_AS_NODE' ||
      key === 'NODE_OPTIONS' ||
      key.startsWith('SANDBOX_')
    )
      continue;
    if (key === 'XDG_SESSION_TYPE' || key === 'WAYLAND_DISPLAY') continue;
    env[key] = value;
  }
  Object.assign(env, {
    FAKE_ELECTRON_HOME: home,
    FAKE_ELECTRON_APP_PATH: ROOT,
    DBUS_SESSION_BUS_ADDRESS: NO_BUS,
    SANDBOX_TOKEN_LOG: tokenLog,
    // Everything main logs reaches the file, so the token check below checks the most.
    VET_SCRIBE_LOG_LEVEL: 'debug',
    ...extraEnv,
  });
  const child = spawn(process.execPath, ['--import', pathToFileURL(REGISTER).href, MAIN], {
    cwd: ROOT,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let report: Report | null = null;
  let quit: QuitReport | null = null;
  return new Promise<Run<Report | null>>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${why}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`));
    };
    // Two consults taken to their notes need longer than a window's errands.
    const timeoutMs = command === 'note-click' ? 3 * RUN_TIMEOUT_MS : RUN_TIMEOUT_MS;
    const timer = setTimeout(
      () => fail(`the built main did not ${report || !command ? 'end' : 'report'} within ${timeoutMs} ms`),
      timeoutMs,
    );
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const found = report ? undefined : lineOf<Report>(stdout, REPORT_PREFIX);
      if (found !== undefined) {
        report = found;
        if (command) child.stdin.write(`${command}\n`);
        else fail('the built main opened a window where its start should have failed');
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (/^fake electron: .* is not implemented$/m.test(stderr))
        fail('the built main used an Electron API the fake does not have (support/fake-electron/electron.ts)');
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    // 'close': the process ended and its stdout and stderr are read to the end.
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      quit = lineOf<QuitReport>(stdout, QUIT_PREFIX) ?? null;
      if ((command && !report) || !quit) {
        reject(
          new Error(
            `the built main ended (code ${code}, signal ${signal}) before ${report || !command ? 'quitting through the fake' : 'reporting'}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`,
          ),
        );
        return;
      }
      resolve({ report, quit, code, signal, stdout, stderr });
    });
  });
}
