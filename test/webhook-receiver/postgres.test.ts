// Receivers sharing one PostgreSQL: each delivery is handled exactly once across them, even when
// its copies reach both at the same moment; a slow handler keeps its key; a failed handler, a
// frozen receiver or a killed one lets the copy through; a record lost after the handler calls
// it again with the same delivery key. One real server is started for the whole file (support/postgres.ts),
// each test in a database of its own.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { openPostgresSeenStore, SEEN_TABLE } from '../../src/webhook-receiver/postgres-seen-store.ts';
import { DEFAULT_REMEMBER_MS } from '../../src/webhook-receiver/seen-store.ts';
import { postgresMissing, startPostgres, type TestPostgres } from '../support/postgres.ts';
import {
  closeAfterTest,
  deliver,
  published,
  receiver,
  ROOT,
  runCommand,
  SECRET,
  startCommand,
  until,
  type Answer,
  type Command,
} from './support.ts';
const missing = postgresMissing();

let server: TestPostgres | null = null;
beforeAll(async () => {
  if (missing === null) server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

let databases = 0;
/** A database of the test's own. Without PostgreSQL: a failure under CI, a skip that says why elsewhere. */
async function database(ctx: TestContext): Promise<string> {
  if (missing !== null) {
    if (process.env['CI'] === 'true') throw new Error(`${missing} (CI=true: these tests fail rather than skip)`);
    ctx.skip(missing);
  }
  if (!server) throw new Error('PostgreSQL did not start');
  databases += 1;
  return server.createDatabase(`receiver_${databases}`);
}

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

// The child receivers' handler. Markers in HANDLER_DIR make "the first attempt" mean the first
// across both processes: `hang-*` hangs there for good, every 7th event fails there, every 5th
// is slow every time.
const HANDLER = `
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
const first = (name) => {
  try {
    closeSync(openSync(join(process.env.HANDLER_DIR, name), 'wx'));
    return true;
  } catch {
    return false;
  }
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export default async function handle(event) {
  const id = String(event.payload.public_id);
  if (id.startsWith('hang-') && first(id + '.started')) await new Promise(() => {});
  const n = Number(id.split('-')[1]);
  if (n % 5 === 0) await sleep(100 + (n % 4) * 100);
  if (n % 7 === 0 && first(id + '.failed')) {
    await sleep(50);
    throw new Error('the clinic system is down');
  }
}
`;

function handlerDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vet-scribe-handler-'));
  writeFileSync(join(dir, 'handler.mjs'), HANDLER);
  return dir;
}

/** The command with the handler above; the database URL by flag or, with viaEnv, by WEBHOOK_DATABASE_URL. */
function startCli(databaseUrl: string, dir: string, viaEnv = false): Promise<Command> {
  return startCommand(
    ['--port', '0', '--handler', join(dir, 'handler.mjs'), ...(viaEnv ? [] : ['--database-url', databaseUrl])],
    { WEBHOOK_SECRET: SECRET, HANDLER_DIR: dir, ...(viaEnv ? { WEBHOOK_DATABASE_URL: databaseUrl } : {}) },
  );
}

/** An answer's status and body, for comparing whole. */
async function outcome(answer: Promise<Answer>): Promise<Pick<Answer, 'status' | 'json'>> {
  const { status, json } = await answer;
  return { status, json };
}

const publicIds = (lines: string[]) =>
  lines.map((line) => String((JSON.parse(line) as { payload: { public_id: string } }).payload.public_id));

describe('webhook receivers sharing PostgreSQL', () => {
  it('share one table: a copy at the other receiver waits for the first, and is handled when the first fails', async (ctx) => {
    const url = await database(ctx);
    let calls = 0;
    const onEvent = async (): Promise<void> => {
      calls += 1;
      if (calls === 1) {
        await sleep(300);
        throw new Error('the clinic system is down');
      }
    };
    const [a, b] = [await receiver({ databaseUrl: url, onEvent }), await receiver({ databaseUrl: url, onEvent })];
    expect(a.seenStore).toMatch(
      /^PostgreSQL postgres:\/\/postgres@127\.0\.0\.1:\d+\/receiver_\d+ \(table webhook_seen\)$/,
    );
    const raw = published('sc-1');
    const answers = await Promise.all([deliver(a.url, raw), deliver(b.url, raw)]);
    answers.sort((x, y) => x.status - y.status);
    expect(answers.map((x) => x.status)).toEqual([200, 500]);
    expect(answers[0]?.json).toEqual({ received: true, duplicate: false });
    expect([...a.lines, ...b.lines]).toHaveLength(1);
    // The failed copy's retry, at either receiver, is a duplicate.
    expect((await deliver(a.url, raw)).json).toEqual({ received: true, duplicate: true });
    expect((await deliver(b.url, raw)).json).toEqual({ received: true, duplicate: true });
    expect(calls).toBe(2);
    expect(await query<{ key: string }>(url, `SELECT key FROM ${SEEN_TABLE}`)).toEqual([
      { key: 'scribe:sc-1:scribed' },
    ]);
  });

  it('remembers a key for the memory, not the old 4 h 21 min, then claims it again; a released claim leaves no trace', async (ctx) => {
    const url = await database(ctx);
    const t0 = Date.parse('2026-03-02T08:00:00Z');
    const store = await openPostgresSeenStore(url, { now: t0 });
    closeAfterTest(() => store.close());
    await (await store.claim('k', t0))?.commit();
    expect(await store.claim('k', t0 + (4 * 60 + 22) * 60_000)).toBeNull();
    expect(await store.claim('k', t0 + DEFAULT_REMEMBER_MS - 60_000)).toBeNull();
    const again = await store.claim('k', t0 + DEFAULT_REMEMBER_MS + 60_000);
    expect(again).not.toBeNull();
    await again?.release();
    const failed = await store.claim('other', t0);
    await failed?.release();
    expect(await query<{ key: string }>(url, `SELECT key FROM ${SEEN_TABLE}`)).toEqual([{ key: 'k' }]);
    // Opening it later drops what is past keeping.
    const later = await openPostgresSeenStore(url, { now: t0 + DEFAULT_REMEMBER_MS + 60_000 });
    await later.close();
    expect(await query(url, `SELECT key FROM ${SEEN_TABLE}`)).toEqual([]);
  });

  it('a handler that runs longer than the lease keeps its key: the copy at another receiver waits, is a duplicate, and the handler runs once', async (ctx) => {
    const url = await database(ctx);
    let calls = 0;
    const onEvent = async (): Promise<void> => {
      calls += 1;
      await sleep(5_000);
    };
    // A short lease, renewed every 667 ms: a busy machine would have to stall for over a second to lose it.
    const [slow, other] = [
      await receiver({ databaseUrl: url, holdLimitMs: 2_000, onEvent }),
      await receiver({ databaseUrl: url, holdLimitMs: 2_000, onEvent }),
    ];
    const raw = published('sc-slow');
    const atSlow = deliver(slow.url, raw);
    await until(() => calls === 1, 'the first handler started');
    const atOther = await deliver(other.url, raw);
    expect(atOther.json).toEqual({ received: true, duplicate: true });
    expect(await outcome(atSlow)).toEqual({ status: 200, json: { received: true, duplicate: false } });
    expect(calls).toBe(1);
    expect([...slow.lines, ...other.lines]).toHaveLength(1);
  });

  it('a receiver frozen while handling stops renewing its lease and is cut off after it: the copy at the other is handled, the frozen one answers 500', async (ctx) => {
    const url = await database(ctx);
    const dir = mkdtempSync(join(tmpdir(), 'vet-scribe-frozen-'));
    const script = join(dir, 'frozen.mjs');
    writeFileSync(
      script,
      `import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWebhookReceiver } from ${JSON.stringify(join(ROOT, 'src/webhook-receiver/receiver.ts'))};
const r = await startWebhookReceiver({
  port: 0,
  secret: ${JSON.stringify(SECRET)},
  databaseUrl: process.env.DATABASE_URL,
  holdLimitMs: 1000,
  out: () => {},
  onEvent: async () => {
    writeFileSync(join(${JSON.stringify(dir)}, 'started'), '');
    await new Promise((resolve) => setTimeout(resolve, 2000));
  },
});
process.stdout.write(r.url + '\\n');
process.once('SIGTERM', () => r.close().then(() => process.exit(0)));
`,
    );
    const proc = spawn(process.execPath, [script], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    closeAfterTest(async () => {
      proc.kill('SIGCONT');
      proc.kill('SIGKILL');
    });
    const frozenUrl = await new Promise<string>((resolve) =>
      createInterface({ input: proc.stdout! }).once('line', (line) => resolve(line)),
    );
    let otherCalls = 0;
    const other = await receiver({ databaseUrl: url, onEvent: () => void (otherCalls += 1) });
    const raw = published('sc-frozen');
    const atFrozen = deliver(frozenUrl, raw);
    await until(() => existsSync(join(dir, 'started')), 'the frozen receiver is handling it');
    proc.kill('SIGSTOP');
    expect((await deliver(other.url, raw)).json).toEqual({ received: true, duplicate: false });
    expect(otherCalls).toBe(1);
    proc.kill('SIGCONT');
    const late = await atFrozen;
    expect(late.status).toBe(500);
    expect(late.json['code']).toBe('store_failed');
  });

  it('a connection lost between the handler and the commit answers 500; the retry calls the handler again with the same key, and a handler filing under the key does its work once', async (ctx) => {
    const url = await database(ctx);
    // The clinic's own system: its work filed under the delivery key, in the same server.
    const clinic = new pg.Pool({ connectionString: url, max: 2 });
    closeAfterTest(() => clinic.end());
    await clinic.query('CREATE TABLE filed_notes (delivery_key text PRIMARY KEY, public_id text NOT NULL)');
    const keys: (string | null)[] = [];
    const r = await receiver({
      databaseUrl: url,
      onEvent: async (event) => {
        keys.push(event.delivery_key);
        await clinic.query(
          'INSERT INTO filed_notes (delivery_key, public_id) VALUES ($1, $2) ON CONFLICT (delivery_key) DO NOTHING',
          [event.delivery_key, (event.payload as { public_id: string }).public_id],
        );
        // The first time, the receiver's connections to the database are cut as the handler returns.
        if (keys.length === 1)
          await clinic.query(
            "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE application_name = 'webhook-receiver' AND datname = current_database()",
          );
      },
    });
    const raw = published('sc-lost');
    const first = await deliver(r.url, raw);
    expect(first.status).toBe(500);
    expect(first.json['code']).toBe('store_failed');
    expect(await outcome(deliver(r.url, raw))).toEqual({ status: 200, json: { received: true, duplicate: false } });
    expect(await outcome(deliver(r.url, raw))).toEqual({ status: 200, json: { received: true, duplicate: true } });
    expect(keys).toEqual(['scribe:sc-lost:scribed', 'scribe:sc-lost:scribed']);
    expect((await clinic.query('SELECT delivery_key, public_id FROM filed_notes')).rows).toEqual([
      { delivery_key: 'scribe:sc-lost:scribed', public_id: 'sc-lost' },
    ]);
  });

  it('a receiver killed while handling does not keep the key: the copy waiting at the other is handled', async (ctx) => {
    const url = await database(ctx);
    const dir = handlerDir();
    const [a, b] = await Promise.all([startCli(url, dir), startCli(url, dir, true)]);
    const raw = published('hang-1');
    const atA = deliver(a.url, raw).catch((error: unknown) => error);
    await until(() => existsSync(join(dir, 'hang-1.started')), 'the first receiver is handling it');
    const atB = deliver(b.url, raw);
    // The copy waits in PostgreSQL on the key the first holds.
    await until(
      async () =>
        (
          await query(
            url,
            "SELECT 1 FROM pg_stat_activity WHERE application_name = 'webhook-receiver' AND wait_event_type = 'Lock'",
          )
        ).length === 1,
      'the copy waits on the key',
    );
    a.proc.kill('SIGKILL');
    expect((await atB).json).toEqual({ received: true, duplicate: false });
    expect(await atA).toBeInstanceOf(Error);
    expect(await b.stop()).toBe(0);
    expect(publicIds(b.lines)).toEqual(['hang-1']);
    expect(a.lines).toEqual([]);
  });

  it('two receiver processes handle each of 200 events exactly once when its copies reach both at the same moment', async (ctx) => {
    const url = await database(ctx);
    const dir = handlerDir();
    const started = Date.now();
    const receivers = await Promise.all([startCli(url, dir), startCli(url, dir, true)]);
    for (const r of receivers) {
      await until(() => r.stderr().includes('kept in'), 'the receiver says where it keeps deliveries');
      expect(r.stderr()).toMatch(/handled deliveries are kept in PostgreSQL postgres:\/\/postgres@127\.0\.0\.1/);
      expect(r.stderr()).not.toContain('trust-ignores-this');
    }
    const EVENTS = 200;
    // Enough connections that every copy of an event is in flight together, few enough for a default open-files limit.
    const agent = new Agent({ connections: 200 });
    closeAfterTest(() => agent.close());
    const id = (i: number) => `ev-${i}`;
    // Each event as 3 or 4 copies, alternating between the receivers, all sent at once.
    const copies = Array.from({ length: EVENTS }, (_, i) =>
      Array.from({ length: 3 + (i % 2) }, (_, c) => ({ i, at: (i + c) % 2 })),
    ).flat();
    const fired = Date.now();
    const answers = await Promise.all(
      copies.map(async ({ i, at }) => ({
        i,
        at,
        ...(await deliver(receivers[at]?.url ?? '', published(id(i)), SECRET, agent).catch((): Answer => ({
          status: 0,
          json: {},
          headers: {},
        }))),
      })),
    );
    const burstMs = Date.now() - fired;
    const byStatus = (status: number, duplicate?: boolean) =>
      answers.filter((a) => a.status === status && (duplicate === undefined || a.json['duplicate'] === duplicate))
        .length;

    // The sender retries a delivery until one copy is answered 200.
    const answered = new Set(answers.filter((a) => a.status === 200).map((a) => a.i));
    let retried = 0;
    let retriedNew = 0;
    for (let round = 0; round < 5 && answered.size < EVENTS; round++) {
      for (let i = 0; i < EVENTS; i++) {
        if (answered.has(i)) continue;
        retried += 1;
        const retry = await deliver(receivers[i % 2]?.url ?? '', published(id(i)));
        if (retry.status !== 200) continue;
        answered.add(i);
        if (retry.json['duplicate'] === false) retriedNew += 1;
      }
    }
    // A replay of every event, to the other receiver, is known.
    const replays = await Promise.all(
      Array.from({ length: EVENTS }, (_, i) =>
        deliver(receivers[(i + 1) % 2]?.url ?? '', published(id(i)), SECRET, agent),
      ),
    );
    const replayDuplicates = replays.filter((a) => a.status === 200 && a.json['duplicate'] === true).length;

    expect(await Promise.all(receivers.map((r) => r.stop()))).toEqual([0, 0]);
    const handled = new Map<string, number>();
    for (const line of publicIds(receivers.flatMap((r) => r.lines))) handled.set(line, (handled.get(line) ?? 0) + 1);
    const once = [...handled.values()].filter((n) => n === 1).length;
    const twice = [...handled.values()].filter((n) => n > 1).length;
    const never = EVENTS - handled.size;
    // An event answered 200 whose handling then failed would have no line, the sender having stopped.
    const answeredUnhandled = answers.filter((a) => a.status === 200 && !handled.has(id(a.i))).length;
    const failedFirst = Array.from({ length: EVENTS }, (_, i) => i).filter((i) => i % 7 === 0).length;
    const slow = Array.from({ length: EVENTS }, (_, i) => i).filter((i) => i % 5 === 0).length;
    console.log(
      `webhook receivers on PostgreSQL: ${EVENTS} events fired as ${copies.length} copies all at once across 2 receiver processes ` +
        `(${copies.filter((c) => c.at === 0).length} + ${copies.filter((c) => c.at === 1).length}), ${slow} slow handlers, ${failedFirst} failing once; ` +
        `answers 200 new ${byStatus(200, false)}, 200 duplicate ${byStatus(200, true)}, 500 ${byStatus(500)}, 503 ${byStatus(503)}, none ${byStatus(0)}; ` +
        `${retried} retried; handled exactly once ${once}, twice or more ${twice}, never ${never}; copies answered 200 for an unhandled event ${answeredUnhandled}; ` +
        `replays answered duplicate ${replayDuplicates} of ${EVENTS}; burst ${burstMs} ms, test ${Date.now() - started} ms`,
    );
    expect({ once, twice, never, answeredUnhandled, replayDuplicates }).toEqual({
      once: EVENTS,
      twice: 0,
      never: 0,
      answeredUnhandled: 0,
      replayDuplicates: EVENTS,
    });
    // One copy of each event was answered "handled", every other 200 a duplicate.
    expect(byStatus(200, false) + retriedNew).toBe(EVENTS);
    // 500s only where a handler failed on purpose; every copy got an HTTP answer.
    expect(answers.filter((a) => a.status === 500 && a.i % 7 !== 0)).toEqual([]);
    expect(byStatus(0)).toBe(0);
    expect(await query<{ n: string }>(url, `SELECT count(*) AS n FROM ${SEEN_TABLE}`)).toEqual([{ n: String(EVENTS) }]);
  });

  it('the command stops at start, naming the database without its password, when it cannot reach it; a folder and a database together are refused', () => {
    const cli = (...args: string[]) => runCommand(['--port', '0', '--secret', 's', ...args]);
    const unreachable = cli('--database-url', 'postgres://clinic:hunter2@127.0.0.1:1/deliveries');
    expect(unreachable.status).toBe(1);
    expect(unreachable.stderr).toMatch(
      /^webhook-receiver: cannot keep deliveries in PostgreSQL postgres:\/\/clinic@127\.0\.0\.1:1\/deliveries \(table webhook_seen\): .*ECONNREFUSED/,
    );
    expect(unreachable.stderr).not.toContain('hunter2');
    expect(unreachable.stdout).toBe('');
    const both = cli('--database-url', 'postgres://127.0.0.1/x', '--data-dir', tmpdir());
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/give either a data folder .* or a database .*, not both/);
  });
});
