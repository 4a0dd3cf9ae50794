// What the receiver's tests share: receivers started in a test and closed after it, deliveries
// signed as the service signs them, the published payload, and the command as a real process.
// Importing it registers the hook that closes, after each test, what that test opened.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { request, type Dispatcher } from 'undici';
import { afterEach, expect } from 'vitest';
import { canonicalJson, canonicalJsonFromValue, signWebhook } from '../../src/shared/webhook/index.ts';
import {
  startWebhookReceiver,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from '../../src/webhook-receiver/receiver.ts';

export const SECRET = 'clinic-secret';
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const COMMAND = 'src/webhook-receiver/cli.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()?.();
});

/** Closes it once the test is over, whether it passed or not. */
export function closeAfterTest(close: () => Promise<void>): void {
  closers.push(close);
}

/** A receiver in this process, keeping the lines it prints. */
export async function receiver(
  options: Partial<WebhookReceiverOptions> = {},
): Promise<WebhookReceiver & { lines: string[] }> {
  const lines: string[] = [];
  const r = await startWebhookReceiver({ port: 0, secret: SECRET, out: (line) => lines.push(line), ...options });
  closeAfterTest(() => r.close());
  return Object.assign(r, { lines });
}

export interface Answer {
  status: number;
  json: Record<string, unknown>;
  headers: Record<string, unknown>;
}

/** A request as the test writes it, signed or not; every answer of the receiver is JSON. */
export async function post(
  url: string,
  body: string | Buffer | undefined,
  headers: Record<string, string> = {},
  method = 'POST',
  dispatcher?: Dispatcher,
): Promise<Answer> {
  const a = await request(url, {
    method: method as 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
    ...(dispatcher ? { dispatcher } : {}),
  });
  const text = await a.body.text();
  expect(a.headers['content-type']).toBe('application/json');
  return { status: a.statusCode, json: JSON.parse(text) as Record<string, unknown>, headers: a.headers };
}

/** A delivery as the service sends it: the body signed, over its canonical form, with the secret. */
export async function deliver(url: string, raw: string, secret = SECRET, dispatcher?: Dispatcher): Promise<Answer> {
  return post(url, raw, { 'x-webhook-signature': await signWebhook(secret, canonicalJson(raw)) }, 'POST', dispatcher);
}

/** A published `scribe` delivery: no event id, known by its public_id and status. */
export function published(publicId: string, status = 'scribed', extra: Record<string, unknown> = {}): string {
  return canonicalJsonFromValue({
    public_id: publicId,
    recording_session_public_id: `rs-${publicId}`,
    status,
    event_type: 'scribe',
    ...extra,
  });
}

export function expectError(answer: Answer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.json).toEqual({ detail: expect.any(String), code });
}

export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(25);
  }
}

/** The command's environment: the variables the test gives, and none of the developer's WEBHOOK_ ones. */
function commandEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const own = Object.entries(process.env).filter(([name]) => !name.startsWith('WEBHOOK_'));
  return { ...Object.fromEntries(own), ...env };
}

/** The command run to its end, for what it refuses at start. */
export function runCommand(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [COMMAND, ...args], {
    cwd: ROOT,
    env: commandEnv(env),
    encoding: 'utf8',
    timeout: 20_000,
  });
}

export interface Command {
  url: string;
  /** Where it says handled deliveries are kept. */
  seen: string;
  proc: ChildProcess;
  /** Lines printed on stdout after the first (the address): one per handled event. */
  lines: string[];
  stderr: () => string;
  /** Stops it (SIGTERM unless told); resolves its exit code once its stdout is read to the end. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The command as a real process, serving once it has printed its address; stopped after the test. */
export async function startCommand(args: string[], env: Record<string, string> = {}): Promise<Command> {
  const proc = spawn(process.execPath, [COMMAND, ...args], {
    cwd: ROOT,
    env: commandEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const lines: string[] = [];
  const reader = createInterface({ input: proc.stdout });
  const ended = new Promise<void>((resolve) => reader.on('close', resolve));
  const started = await new Promise<{ url: string; seen: string }>((resolve, reject) => {
    reader.once('line', (line) => {
      resolve(JSON.parse(line) as { url: string; seen: string });
      reader.on('line', (l) => lines.push(l));
    });
    void exited.then((code) => reject(new Error(`the receiver exited (${code}) before listening: ${stderr}`)));
  });
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
    const code = await exited;
    await ended;
    return code;
  };
  closeAfterTest(async () => void (await stop()));
  return { ...started, proc, lines, stderr: () => stderr, stop };
}
