// The receiver's command (`npm run webhook-receiver`) as a real child process: what it prints,
// where it keeps what it handled, the secret from the environment, and what it refuses at start.
// The command is given none of the developer's WEBHOOK_ variables, only the test's.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scribeEvent } from '../support/webhook-vectors.ts';
import { deliver, expectError, published, runCommand, startCommand, until } from './support.ts';

describe('webhook receiver CLI', () => {
  it('prints its URL, then one line per accepted event, and stops on SIGTERM', async () => {
    const command = await startCommand(['--port', '0', '--secret', 's']);
    expect(command.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);

    const raw = JSON.stringify({ ...scribeEvent('evt-cli'), owner: 'Müller' });
    const answer = await deliver(command.url, raw, 's');
    expect(answer.json).toEqual({ received: true, duplicate: false });
    await until(() => command.lines.length > 0, 'the event is printed');
    expect(JSON.parse(command.lines[0] ?? '')).toMatchObject({
      event_id: 'evt-cli',
      event_type: 'scribe',
      payload: { owner: 'Müller', status: 'completed' },
    });

    expect(await command.stop('SIGTERM')).toBe(0);
  });

  it('without a secret, exits 2 and says why', () => {
    const run = runCommand(['--port', '0']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/no webhook secret: pass --secret or set WEBHOOK_SECRET/);
    expect(run.stdout).toBe('');
  });

  it('keeps what it handled in WEBHOOK_DATA_DIR or --data-dir across a restart of the command; without either, a restart forgets', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vet-scribe-webhooks-'));
    const raw = published('sc-cli', 'scribing');
    const run = async (args: string[], env: Record<string, string> = {}) => {
      const command = await startCommand(['--port', '0', '--secret', 's', ...args], env);
      const answer = await deliver(command.url, raw, 's');
      expect(await command.stop()).toBe(0);
      expect(command.stderr()).not.toMatch(/ExperimentalWarning/);
      return { seen: command.seen, duplicate: answer.json['duplicate'], stderr: command.stderr() };
    };
    const file = join(dir, 'webhook-seen.sqlite');
    const first = await run([], { WEBHOOK_DATA_DIR: dir });
    expect(first).toMatchObject({ seen: file, duplicate: false });
    expect(first.stderr).toBe(`webhook-receiver: handled deliveries are kept in ${file}\n`);
    expect(await run(['--data-dir', dir])).toMatchObject({ seen: file, duplicate: true });
    expect(await run([], { WEBHOOK_DATA_DIR: dir })).toMatchObject({ seen: file, duplicate: true });

    const memory = await run([]);
    expect(memory).toMatchObject({ seen: expect.stringMatching(/^memory/), duplicate: false });
    expect(memory.stderr).toMatch(
      /kept in memory only, so a retry after a restart is handled again; pass --data-dir or set WEBHOOK_DATA_DIR/,
    );
    expect(await run([])).toMatchObject({ duplicate: false });
  });

  it('a data folder it cannot use stops it at once, naming the folder', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'vet-scribe-webhooks-')), 'plain-file');
    writeFileSync(file, 'not a folder');
    const bad = join(file, 'store');
    const run = runCommand(['--port', '0', '--secret', 's', '--data-dir', bad]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`webhook-receiver: cannot keep deliveries in the folder ${bad}:`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe('');
  });

  it('refuses a memory shorter than the retries, an unreadable one, and a handler that is not a function (exit 2)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vet-scribe-webhooks-'));
    writeFileSync(join(dir, 'not-a-handler.mjs'), 'export const handle = () => {};');
    const run = (args: string[], env: Record<string, string> = {}) =>
      runCommand(['--port', '0', '--secret', 's', ...args], env);
    const short = run(['--remember-for', '1h']);
    expect(short.status).toBe(2);
    expect(short.stderr).toMatch(/--remember-for must be at least 4 h 21 min, the sender's retries and a margin/);
    expect(run([], { WEBHOOK_REMEMBER_FOR: '3h' }).status).toBe(2);
    const unreadable = run(['--remember-for', 'a week']);
    expect(unreadable.status).toBe(2);
    expect(unreadable.stderr).toMatch(/a number and a unit \(s, m, h, d\), such as 7d or 36h, not "a week"/);
    const handler = run(['--handler', join(dir, 'not-a-handler.mjs')]);
    expect(handler.status).toBe(2);
    expect(handler.stderr).toMatch(/has no default export that is a function/);
  });

  it('takes the secret from WEBHOOK_SECRET', async () => {
    const command = await startCommand(['--port', '0'], { WEBHOOK_SECRET: 'from-env' });
    expect((await deliver(command.url, '{"event_id":"e"}', 'from-env')).status).toBe(200);
    expectError(await deliver(command.url, '{"event_id":"f"}', 's'), 403, 'invalid_signature');
    expect(await command.stop('SIGINT')).toBe(0);
  });

  it('refuses relay options it cannot use (exit 2), and says which organization the relay serves', async () => {
    const run = (...args: string[]) => runCommand(['--port', '0', '--secret', 's', ...args]);
    const badUrl = run('--scribe-url', 'ftp://scribe.example');
    expect(badUrl.status).toBe(2);
    expect(badUrl.stderr).toMatch(/--scribe-url must be an http:\/\/ or https:\/\/ address/);
    expect(run('--organization', 'org-1').stderr).toMatch(/give --scribe-url too/);
    expect(run('--scribe-url', 'http://127.0.0.1:9', '--heartbeat', '0').stderr).toMatch(/--heartbeat must be/);
    expect(run('--scribe-url', 'http://127.0.0.1:9', '--organization', 'a b').stderr).toMatch(/public id/);
    const relay = await startCommand(['--port', '0', '--scribe-url', 'http://127.0.0.1:9', '--organization', 'org-1'], {
      WEBHOOK_SECRET: 's',
    });
    await until(() => relay.stderr().includes('relay on'), 'the relay to say it is on');
    expect(relay.stderr()).toContain('serving organization org-1 (--organization)');
    const learning = await startCommand(['--port', '0', '--scribe-url', 'http://127.0.0.1:9'], { WEBHOOK_SECRET: 's' });
    await until(() => learning.stderr().includes('no --organization'), 'the relay to say it has no organization');
    await deliver(learning.url, published('p-1', 'requested', { organization_public_id: 'org-2' }), 's');
    await until(
      () => learning.stderr().includes('serving organization org-2, named by a verified delivery'),
      'the learned organization',
    );
  });
});
