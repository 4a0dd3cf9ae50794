// The clinic relay as a clinic runs it: the real command (`node src/webhook-receiver/cli.ts`, what
// `npm run webhook-receiver` starts) in a child process, with the secret (and the database URL) in
// its environment as its README advises. Its own process keeps its work out of what the benchmark's
// process is timed on, as with the sandbox. Its stdout (one line per handled delivery) is read and
// counted, with when each delivery reached it, and its peak memory is read from the kernel.
// `startRelayFor` also registers it as a sandbox's webhook endpoint (PUT /webhook/update), so the
// sandbox's signed `scribe` deliveries reach it.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { SandboxProcess } from './sandbox-process.ts';

const ROOT = join(import.meta.dirname, '..', '..');

export interface RelayProcess {
  url: string;
  pid: number;
  /** Deliveries it printed a line for: the ones it handled. */
  handled(): number;
  /** When the relay accepted each delivery (ms since the epoch), by `<public_id>:<status>`. */
  delivered: Map<string, number>;
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
  /** PostgreSQL, for several relays; absent: the relay keeps its deliveries in memory. */
  databaseUrl?: string;
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
      env: {
        ...env,
        WEBHOOK_SECRET: options.secret,
        ...(options.databaseUrl ? { WEBHOOK_DATABASE_URL: options.databaseUrl } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  let lines = 0;
  const delivered = new Map<string, number>();
  const reader = createInterface({ input: proc.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    reader.once('line', (line) => {
      resolve((JSON.parse(line) as { url: string }).url);
      // Every line after the first is one handled delivery; they are read so that stdout never
      // fills, and kept for when each reached the relay.
      reader.on('line', (handled) => {
        lines += 1;
        const parsed = JSON.parse(handled) as {
          received_at?: string;
          payload?: { public_id?: string; status?: string };
        };
        if (parsed.payload?.public_id && parsed.received_at)
          delivered.set(`${parsed.payload.public_id}:${parsed.payload.status}`, Date.parse(parsed.received_at));
      });
    });
    void exited.then(() => reject(new Error(`the relay exited before listening: ${stderr}`)));
  });
  return {
    url,
    pid: proc.pid ?? -1,
    handled: () => lines,
    delivered,
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

/** A relay registered as a sandbox's webhook endpoint, and the organization it serves. */
export interface RegisteredRelay extends RelayProcess {
  organization: string;
}

async function json<T>(answer: Response, what: string): Promise<T> {
  if (!answer.ok) throw new Error(`${what}: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as T;
}

export async function startRelayFor(sandbox: SandboxProcess): Promise<RegisteredRelay> {
  // The organization and a token to register the webhook with: the demo vet's, as a clinic's
  // administrator would register the clinic's relay.
  const signIn = await json<{ access_token: string; user: { organization_id: string } }>(
    await fetch(`${sandbox.urls.agents_url}/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(sandbox.demo),
    }),
    'POST /auth/sign-in',
  );
  const organization = signIn.user.organization_id;
  const secret = randomBytes(24).toString('hex');
  const relay = await startRelayProcess({ scribeUrl: sandbox.urls.scribe_url, organization, secret });
  await json(
    await fetch(`${sandbox.urls.scribe_url}/webhook/update`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${signIn.access_token}` },
      body: JSON.stringify({ event_type: 'scribe', webhook_url: relay.url, auth_token: secret }),
    }),
    'PUT /webhook/update',
  );
  return { ...relay, organization };
}
