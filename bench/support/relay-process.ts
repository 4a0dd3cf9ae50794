// The clinic relay as a clinic runs it, for bench/relay.ts: the real command
// (`node src/webhook-receiver/cli.ts`, what `npm run webhook-receiver` starts) in a child process,
// with the secret and the database URL in its environment as its README advises. Its stdout (one
// line per handled delivery) is read and counted, and its peak memory is read from the kernel.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = join(import.meta.dirname, '..', '..');

export interface RelayProcess {
  url: string;
  pid: number;
  /** Deliveries it printed a line for: the ones it handled. */
  handled(): number;
  /** The kernel's peak resident set (VmHWM) of the process so far, in MB; null once it is gone. */
  peakRssMb(): number | null;
  stderr(): string;
  /** Ends it with the signal (SIGTERM unless told) and waits until it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function startRelayProcess(options: {
  scribeUrl: string;
  organization: string;
  secret: string;
  databaseUrl: string;
}): Promise<RelayProcess> {
  // The developer's own WEBHOOK_ variables are left out: only what the bench gives counts.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('WEBHOOK_')));
  const proc = spawn(
    process.execPath,
    [
      'src/webhook-receiver/cli.ts',
      '--port',
      '0',
      '--scribe-url',
      options.scribeUrl,
      '--organization',
      options.organization,
    ],
    {
      cwd: ROOT,
      env: { ...env, WEBHOOK_SECRET: options.secret, WEBHOOK_DATABASE_URL: options.databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  let lines = 0;
  const reader = createInterface({ input: proc.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    reader.once('line', (line) => {
      resolve((JSON.parse(line) as { url: string }).url);
      reader.on('line', () => (lines += 1));
    });
    void exited.then(() => reject(new Error(`the relay exited before listening: ${stderr}`)));
  });
  return {
    url,
    pid: proc.pid ?? -1,
    handled: () => lines,
    peakRssMb() {
      try {
        const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))?.[1];
        return kb === undefined ? null : Number(kb) / 1024;
      } catch {
        return null;
      }
    },
    stderr: () => stderr,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      await exited;
    },
  };
}
