// Two relays (the command, as real processes) sharing one PostgreSQL: every subscriber of either
// gets every event once and in id order, whichever relay the delivery reached, even with
// deliveries reaching both at once; Last-Event-ID works on the other relay, so a PC whose relay
// was killed resumes there with no gap; a relay whose listening connection is cut listens again
// and misses nothing. One PostgreSQL and one sandbox (for GET /users/me) for the file.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { signIn } from '../support/http.ts';
import { postgresMissing, startPostgres, type TestPostgres } from '../support/postgres.ts';
import { deliver, published, SECRET, startCommand, until } from './support.ts';
import { subscribe, type Subscription } from './subscriber.ts';

const missing = postgresMissing();
let server: TestPostgres | null = null;
let sandbox: Sandbox;
let organization: string;
beforeAll(async () => {
  sandbox = await startSandbox({ scribeSeconds: 0.2 });
  organization = (await signIn(sandbox)).user.organization_id;
  if (missing === null) server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
});

async function database(ctx: TestContext, name: string): Promise<string> {
  if (missing !== null) {
    if (process.env['CI'] === 'true') throw new Error(`${missing} (CI=true: these tests fail rather than skip)`);
    ctx.skip(missing);
  }
  if (!server) throw new Error('PostgreSQL did not start');
  return server.createDatabase(name);
}

function startRelay(databaseUrl: string) {
  return startCommand(
    ['--port', '0', '--scribe-url', sandbox.urls.scribe_url, '--organization', organization, '--heartbeat', '1'],
    { WEBHOOK_SECRET: SECRET, WEBHOOK_DATABASE_URL: databaseUrl },
  );
}

/** Ids 1..n, each once, in order: nothing lost, nothing repeated. */
function expectEvery(sub: Subscription, n: number): void {
  expect(sub.scribe().map((e) => e.id)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
}

describe('relays sharing PostgreSQL', () => {
  it('give every subscriber of both relays every event once, in order, whichever relay each delivery reached', async (ctx) => {
    const url = await database(ctx, 'relay_fanout');
    const [a, b] = await Promise.all([startRelay(url), startRelay(url)]);
    // Said on stderr, which can come after the listening line on stdout.
    await until(() => a.stderr().includes('serving organization'), 'the relay to say what it serves');
    expect(a.stderr()).toContain(`serving organization ${organization} (--organization)`);
    const me = await signIn(sandbox);
    const subs = await Promise.all([a.url, a.url, b.url, b.url].map((u) => subscribe(u, me.access)));
    // Deliveries to both relays at once, and each one also sent to the other relay (a retry
    // that the load balancer sent elsewhere): one event each.
    const ids = Array.from({ length: 20 }, (_, i) => `s-${i}`);
    await Promise.all(
      ids.map(async (id, i) => {
        const [first, second] = i % 2 === 0 ? [a.url, b.url] : [b.url, a.url];
        expect((await deliver(first, published(id))).status).toBe(200);
        expect((await deliver(second, published(id))).json).toEqual({ received: true, duplicate: true });
      }),
    );
    for (const sub of subs) await sub.waitFor(20);
    for (const sub of subs) expectEvery(sub, 20);
    expect(new Set(subs[0]?.scribe().map((e) => e.public_id))).toEqual(new Set(ids));
  }, 60_000);

  it('a PC whose relay is killed resumes at the other with Last-Event-ID, with no gap', async (ctx) => {
    const url = await database(ctx, 'relay_failover');
    const [a, b] = await Promise.all([startRelay(url), startRelay(url)]);
    const me = await signIn(sandbox);
    const pc = await subscribe(a.url, me.access);
    for (const id of ['x-1', 'x-2']) await deliver(b.url, published(id));
    await pc.waitFor(2);
    await a.stop('SIGKILL');
    // Delivered while the PC is between relays.
    for (const id of ['x-3', 'x-4']) await deliver(b.url, published(id));
    const last = pc.scribe().at(-1)?.id ?? 0;
    const resumed = await subscribe(b.url, me.access, { 'last-event-id': String(last) });
    expect(resumed.events[0]?.data).toEqual({ organization, last_id: 4 });
    await deliver(b.url, published('x-5'));
    await resumed.waitFor(3);
    expect([...pc.scribe(), ...resumed.scribe()].map((e) => [e.id, e.public_id])).toEqual(
      [1, 2, 3, 4, 5].map((n) => [n, `x-${n}`]),
    );
    // GET /links on either relay pairs each note with its recording session.
    const links = await fetch(`${b.url}links?since=3`, { headers: { authorization: `Bearer ${me.access}` } });
    expect(await links.json()).toEqual({
      links: [4, 5].map((n) => ({
        id: n,
        public_id: `x-${n}`,
        recording_session_public_id: `rs-x-${n}`,
        status: 'scribed',
        at: expect.any(String),
      })),
      last_id: 5,
    });
    // What the relays printed names no token.
    for (const relay of [a, b]) expect(relay.stderr() + relay.lines.join('\n')).not.toContain(me.access);
  }, 60_000);

  it('a relay whose listening connection is cut listens again and passes on what it missed', async (ctx) => {
    const url = await database(ctx, 'relay_relisten');
    const [a, b] = await Promise.all([startRelay(url), startRelay(url)]);
    const me = await signIn(sandbox);
    const pc = await subscribe(a.url, me.access);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const listening = async () =>
      (
        await admin.query(
          "SELECT pid FROM pg_stat_activity WHERE application_name = 'webhook-receiver relay' AND datname = current_database()",
        )
      ).rows.map((row: { pid: number }) => row.pid);
    try {
      const before = await listening();
      expect(before).toHaveLength(2);
      await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [before]);
      for (const id of ['y-1', 'y-2', 'y-3']) await deliver(b.url, published(id));
      await pc.waitFor(3, 'the three events after the relay listened again');
      expectEvery(pc, 3);
      // Both relays listen again, on new connections.
      await until(async () => {
        const now = await listening();
        return now.length === 2 && now.every((pid) => !before.includes(pid));
      }, 'both relays to listen again');
    } finally {
      await admin.end();
    }
  }, 60_000);
});
