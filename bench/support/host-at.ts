// The browser host (src/main/web-host/cli.ts) of a given source (the working tree, or another
// commit's, see source-at.ts) on a data folder of the benchmark's making, so that a window and
// the engine that serves it come from the same commit. Launched as the end-to-end suite's
// BrowserHost launches it, with its environment (hostEnv), and tokens kept in memory.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { hostEnv, type Demo } from '../../test/e2e/support/test-host.ts';
import type { Source } from './source-at.ts';

export interface RunningHost {
  url: string;
  demo: Demo;
  /** From spawning to the host's first line (its core started on the data folder), ms. */
  startMs: number;
  pid: number;
  stop(): Promise<void>;
}

export async function startHostAt(
  source: Source,
  options: { dataDir: string; rendererDir: string; logFile: string; timeoutMs: number },
): Promise<RunningHost> {
  const env = {
    ...hostEnv({ sandbox: {}, logFile: options.logFile, tokenLog: `${options.logFile}.tokens` }),
    VET_SCRIBE_HOST_TOKEN: randomBytes(32).toString('base64url'),
  };
  const cli = join(source.root, 'src/main/web-host/cli.ts');
  const began = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    [cli, '--port', '0', '--data-dir', options.dataDir, '--renderer-dir', options.rendererDir, '--memory-tokens'],
    { cwd: source.root, env, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  const lines = createInterface({ input: child.stdout! });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const first = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the host printed nothing in ${options.timeoutMs / 1000} s\n${stderr}`)),
        options.timeoutMs,
      );
      lines.once('line', (line) => {
        clearTimeout(timer);
        resolve(line);
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the host exited (${signal ?? code}) before it was ready\n${stderr}`));
      });
    });
    const startMs = performance.now() - began;
    // Kept draining, so the host never blocks on a full pipe.
    lines.on('line', () => undefined);
    const ready = JSON.parse(first) as { url: string; demo: Demo | null };
    if (!ready.demo) throw new Error('the host runs no sandbox, so it has no demo account');
    return { url: ready.url, demo: ready.demo, startMs, pid: child.pid!, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
