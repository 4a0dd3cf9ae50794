// Starts src/sandbox in a child process (sandbox-child.ts) and talks to it over IPC: the same
// startSandbox() the tests use, with its stats() counters, but outside the measured process.
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { SandboxOptions, SandboxStats, SandboxUrls } from '../../src/sandbox/index.ts';

export interface SandboxProcess {
  urls: SandboxUrls;
  origin: string;
  demo: { email: string; password: string };
  options: SandboxOptions;
  pid: number;
  stats(): Promise<SandboxStats>;
  close(): Promise<void>;
}

type FromChild =
  | {
      type: 'ready';
      urls: SandboxUrls;
      origin: string;
      demo: { email: string; password: string };
      options: SandboxOptions;
    }
  | { type: 'stats'; id: number; stats: SandboxStats };

export async function startSandboxProcess(overrides: Partial<SandboxOptions> = {}): Promise<SandboxProcess> {
  const child: ChildProcess = fork(join(import.meta.dirname, 'sandbox-child.ts'), [JSON.stringify(overrides)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, (s: SandboxStats) => void>();
  let nextId = 0;
  const ready = await new Promise<Extract<FromChild, { type: 'ready' }>>((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`the sandbox process ended before it was ready (exit ${code})`));
    child.once('exit', onExit);
    child.on('message', (m: FromChild) => {
      if (m.type === 'ready') {
        child.off('exit', onExit);
        resolve(m);
      } else if (m.type === 'stats') {
        waiting.get(m.id)?.(m.stats);
        waiting.delete(m.id);
      }
    });
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    urls: ready.urls,
    origin: ready.origin,
    demo: ready.demo,
    options: ready.options,
    pid: child.pid ?? -1,
    stats: () =>
      new Promise<SandboxStats>((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve);
        child.send({ type: 'stats', id });
      }),
    async close() {
      if (child.exitCode === null && child.connected) child.send({ type: 'close' });
      await exited;
    },
  };
}
