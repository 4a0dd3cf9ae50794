// The clinic relay (src/webhook-receiver, relay on) in a process of its own, as a clinic runs it
// (`npm run webhook-receiver -- --port 0 --scribe-url … --organization …`, the secret in
// WEBHOOK_SECRET), registered as the sandbox's webhook endpoint with PUT /webhook/update, so the
// sandbox's signed `scribe` deliveries reach it. Its own process keeps its work out of what the
// engines in the benchmark's process are timed on, as with the sandbox.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { SandboxProcess } from './sandbox-process.ts';

export interface RelayProcess {
  /** The address the exam-room PCs subscribe at (settings `relayUrl`). */
  url: string;
  organization: string;
  /** When the relay accepted each delivery (ms since the epoch), by `<public_id>:<status>`. */
  delivered: Map<string, number>;
  close(): Promise<void>;
}

const CLI = join(import.meta.dirname, '..', '..', 'src', 'webhook-receiver', 'cli.ts');

async function json<T>(answer: Response, what: string): Promise<T> {
  if (!answer.ok) throw new Error(`${what}: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as T;
}

export async function startRelayFor(sandbox: SandboxProcess): Promise<RelayProcess> {
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
  const child = spawn(
    process.execPath,
    [CLI, '--port', '0', '--scribe-url', sandbox.urls.scribe_url, '--organization', organization],
    { env: { ...process.env, WEBHOOK_SECRET: secret }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // Its stderr says where deliveries are kept and what it serves: shown only if it fails to start.
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const delivered = new Map<string, number>();
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the relay ended before it listened (exit ${code}): ${stderr}`)));
    // Every line after the first is one handled delivery; they are read so that stdout never
    // fills, and kept for when each reached the relay.
    lines.on('line', (line) => {
      const parsed = JSON.parse(line) as {
        url?: string;
        received_at?: string;
        payload?: { public_id?: string; status?: string };
      };
      if (parsed.url) resolve(parsed.url);
      else if (parsed.payload?.public_id && parsed.received_at)
        delivered.set(`${parsed.payload.public_id}:${parsed.payload.status}`, Date.parse(parsed.received_at));
    });
  });
  await json(
    await fetch(`${sandbox.urls.scribe_url}/webhook/update`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${signIn.access_token}` },
      body: JSON.stringify({ event_type: 'scribe', webhook_url: url, auth_token: secret }),
    }),
    'PUT /webhook/update',
  );
  return {
    url,
    organization,
    delivered,
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
