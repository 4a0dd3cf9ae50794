// Relay benchmark: the clinic relay (src/webhook-receiver, relay on) under a clinic group's load.
// 50 exam-room PCs subscribed with GET /events, each with its own vet's sign-in at the sandbox
// (one organization), and 200 consults' signed `scribe` deliveries, three each (requested,
// scribing, scribed), posted to the relay on PostgreSQL: with one relay, with two (deliveries
// and PCs spread over both), and with two of which one is killed (SIGKILL) halfway, its PCs
// resuming at the other with Last-Event-ID. Goal: every PC gets every event once and in order,
// and p99 delivery -> PC <= 250 ms on loopback, on one and on two relays.
//   npm run bench:relay [-- --subscribers 50 --consults 200 --rate 20 --only one|two|kill]
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { COLLEAGUE_ACCOUNT } from '../src/sandbox/index.ts';
import { canonicalJsonFromValue, SIGNATURE_HEADER, signWebhook } from '../src/shared/webhook/index.ts';
import { postgresMissing, startPostgres, type TestPostgres } from '../test/support/postgres.ts';
import { account, type CaseResult, type Delivery } from './support/relay-account.ts';
import { RelayPc } from './support/relay-pc.ts';
import { startRelayProcess, type RelayProcess } from './support/relay-process.ts';
import { progress, Report } from './support/report.ts';
import { startSandboxProcess, type SandboxProcess } from './support/sandbox-process.ts';
import { fixed, median, percentile, verdict } from './support/stats.ts';

const { values: args } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '50' },
    consults: { type: 'string', default: '200' },
    // Deliveries a second across the group, once every consult's three are under way.
    rate: { type: 'string', default: '20' },
    only: { type: 'string' },
  },
});
const SUBSCRIBERS = Number(args.subscribers);
const CONSULTS = Number(args.consults);
const RATE = Number(args.rate);
for (const [name, n] of [
  ['--subscribers', SUBSCRIBERS],
  ['--consults', CONSULTS],
  ['--rate', RATE],
] as const)
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number`);
const CASES = [
  { name: 'one', relays: 1, kill: false, title: 'one relay' },
  { name: 'two', relays: 2, kill: false, title: 'two relays' },
  { name: 'kill', relays: 2, kill: true, title: 'two relays, one killed halfway' },
].filter((c) => args.only === undefined || c.name === args.only);
if (CASES.length === 0) throw new Error('--only takes one, two or kill');

const SECRET = 'the-clinic-groups-webhook-secret';
const STATUSES = ['requested', 'scribing', 'scribed'] as const;
// When each status of a consult is delivered after its first: scribing soon after the request,
// the note a few seconds later, as the service sends them.
const OFFSETS_MS = [0, 500, 4000];
const P99_GOAL_MS = 250;
// How long after the halfway delivery is sent to relay 2 it is killed: while it handles it.
const KILL_AFTER_SEND_MS = 2;
// How long after the last delivery's answer the PCs are given to receive everything.
const SETTLE_MS = 30_000;

/** 200 consults' deliveries, signed as the service signs them, and when each is due. */
async function plan(runName: string): Promise<Delivery[]> {
  const gapMs = (STATUSES.length * 1000) / RATE;
  const out: Delivery[] = [];
  for (let consult = 0; consult < CONSULTS; consult++) {
    const publicId = randomUUID();
    for (let status = 0; status < STATUSES.length; status++) {
      const body = canonicalJsonFromValue({
        public_id: publicId,
        recording_session_public_id: `${runName}-visit-${consult}`,
        status: STATUSES[status],
        event_type: 'scribe',
      });
      out.push({
        key: `${publicId}:${STATUSES[status]}`,
        consult,
        status,
        body,
        signature: await signWebhook(SECRET, body),
        dueAt: consult * gapMs + (OFFSETS_MS[status] ?? 0),
        sentAt: null,
        answeredAt: null,
        resent: false,
        duplicate: false,
      });
    }
  }
  return out;
}

async function post(url: string, d: Delivery): Promise<{ status: number; duplicate: boolean }> {
  const answer = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: d.signature },
    body: d.body,
  });
  const json = (await answer.body.json()) as { duplicate?: boolean };
  return { status: answer.statusCode, duplicate: json.duplicate === true };
}

async function runCase(
  c: (typeof CASES)[number],
  sandbox: SandboxProcess,
  organization: string,
  tokens: string[],
  pg: TestPostgres,
): Promise<CaseResult> {
  const databaseUrl = await pg.createDatabase(`relay_${c.name}`);
  const relays: RelayProcess[] = await Promise.all(
    Array.from({ length: c.relays }, () =>
      startRelayProcess({ scribeUrl: sandbox.urls.scribe_url, organization, secret: SECRET, databaseUrl }),
    ),
  );
  const live = new Set(relays);
  const peakRssMb: (number | null)[] = relays.map(() => null);
  const pcs = tokens.map((token, i) => new RelayPc(i, token));
  const movedPcs = new Set<number>();
  const resubscribe = (pc: RelayPc) => {
    movedPcs.add(pc.index);
    // As a load balancer would: the next relay still up, asked again until one answers.
    void (async () => {
      for (let attempt = 0; attempt < 50; attempt++) {
        const to = [...live][attempt % live.size];
        if (to === undefined) return;
        try {
          await pc.subscribe(to.url, pc.lastId);
          return;
        } catch {
          await sleep(100);
        }
      }
    })();
  };
  // Subscribed one after another, as PCs coming on through the morning, before any delivery.
  for (const pc of pcs) {
    pc.onDrop = resubscribe;
    const relay = relays[pc.index % relays.length];
    if (relay === undefined) throw new Error('no relay');
    const sub = await pc.subscribe(relay.url, null);
    if (sub.readyLastId !== 0) throw new Error(`a fresh relay's ready said last_id ${sub.readyLastId}`);
  }
  progress(`${c.title}: ${pcs.length} PCs subscribed; ${CONSULTS * STATUSES.length} deliveries at ${RATE}/s`);

  const deliveries = await plan(c.name);
  let sent = 0;
  let killAt: number | null = null;
  const victim = relays[1];
  const start = performance.now() + 200;
  // One chain per consult: its statuses in order, each sent when due and after the one before
  // was answered, as the service sends them.
  const consultChain = async (consult: number) => {
    for (const d of deliveries.filter((x) => x.consult === consult)) {
      const wait = start + d.dueAt - performance.now();
      if (wait > 0) await sleep(wait);
      d.sentAt = performance.now();
      const n = sent++;
      const killNow = c.kill && victim !== undefined && n === Math.floor(deliveries.length / 2);
      if (killNow && victim !== undefined)
        // Halfway, with this delivery on its way to relay 2: relay 2 killed as the kernel would
        // kill it (its memory read just before), wherever the delivery had got to.
        setTimeout(() => {
          peakRssMb[1] = victim.peakRssMb();
          live.delete(victim);
          killAt = performance.now();
          void victim.stop('SIGKILL');
          progress(`${c.title}: relay 2 killed after ${n} deliveries`);
        }, KILL_AFTER_SEND_MS);
      for (let attempt = 0; ; attempt++) {
        const targets = [...live];
        const to = killNow && attempt === 0 ? victim : targets[(n + attempt) % targets.length];
        if (to === undefined) throw new Error('no relay left');
        try {
          const answer = await post(to.url, d);
          if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
          d.answeredAt = performance.now();
          d.duplicate = answer.duplicate;
          break;
        } catch (e) {
          // The relay died under the request: the service's retry reaches the other.
          if (attempt >= 5) throw new Error(`delivery ${d.key} failed: ${(e as Error).message}`, { cause: e });
          d.resent = true;
          await sleep(50);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: CONSULTS }, (_, i) => consultChain(i)));
  const sentAt = deliveries.map((d) => d.sentAt ?? 0);
  const sendSpanMs = Math.max(...sentAt) - Math.min(...sentAt);
  const deadline = performance.now() + SETTLE_MS;
  while (pcs.some((pc) => pc.receipts.length < deliveries.length) && performance.now() < deadline) await sleep(50);
  // Anything late that would count as repeated.
  await sleep(500);
  relays.forEach((r, i) => {
    if (live.has(r)) peakRssMb[i] = r.peakRssMb();
  });
  const handled = relays.reduce((sum, r) => sum + r.handled(), 0);
  for (const pc of pcs) pc.close();
  await Promise.all(relays.map((r) => r.stop()));
  return {
    title: c.title,
    relays: c.relays,
    kill: c.kill,
    deliveries,
    pcs,
    movedPcs,
    killAt,
    peakRssMb,
    handled,
    sendSpanMs,
  };
}

function tries(most: number): string {
  return most <= 1 ? 'each at its first try' : `in up to ${most} tries`;
}

function ms(values: number[]): string[] {
  return [median(values), percentile(values, 95), percentile(values, 99), Math.max(...values)].map((v) => fixed(v));
}

async function main(): Promise<void> {
  const missing = postgresMissing();
  if (missing !== null) throw new Error(`the relay is measured on PostgreSQL: ${missing}`);
  const report = new Report('relay', 'Relay benchmark: the clinic relay under load');
  const sandbox = await startSandboxProcess({ rateLimitPerMinute: 0 });
  const pg = await startPostgres();
  const results: CaseResult[] = [];
  try {
    // Every PC signs in for itself; the demo clinic's two vets take turns.
    const tokens: string[] = [];
    let organization = '';
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const account = i % 2 === 0 ? sandbox.demo : COLLEAGUE_ACCOUNT;
      const answer = await request(`${sandbox.urls.agents_url}/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(account),
      });
      const json = (await answer.body.json()) as { access_token: string; user: { organization_id: string } };
      if (answer.statusCode !== 200) throw new Error(`sign-in answered ${answer.statusCode}`);
      if (organization !== '' && json.user.organization_id !== organization) throw new Error('two organizations');
      organization = json.user.organization_id;
      tokens.push(json.access_token);
    }
    if (new Set(tokens).size !== tokens.length) throw new Error('two PCs were given the same token');
    for (const c of CASES) results.push(await runCase(c, sandbox, organization, tokens, pg));
  } finally {
    await pg.stop();
    await sandbox.close();
  }

  report.add(
    [
      `${SUBSCRIBERS} PCs subscribed with \`GET /events\`, each with its own sign-in at the sandbox (the demo clinic's two vets taking turns; one organization); the sandbox in its own process answers the relays' \`GET /users/me\`. ` +
        `${CONSULTS} consults, each delivered three times (requested, then scribing 0.5 s later, then scribed 4 s after the first), signed as the service signs them and posted by this process; ` +
        `a consult starts every ${fixed(3000 / RATE, 0)} ms, so ${RATE} deliveries a second reach the relays once the run is under way (${CONSULTS * 3} in ${fixed(results[0] ? results[0].sendSpanMs / 1000 : Number.NaN)} s), far above a clinic group's busiest hour (50 rooms at a consult every 10 minutes: 0.25 a second).`,
      `Each relay is the real command (\`node src/webhook-receiver/cli.ts --scribe-url … --organization …\`, the secret and \`--database-url\` in its environment) in its own process, on one throwaway PostgreSQL cluster (a fresh database per case; fsync off, as in the tests). With two relays the deliveries alternate between them and the PCs are split evenly. ` +
        `In the kill case, relay 2 is killed with SIGKILL ${KILL_AFTER_SEND_MS} ms after delivery ${Math.floor((CONSULTS * 3) / 2) + 1} of ${CONSULTS * 3} was sent to it; every delivery it had not answered is sent again to relay 1 (the service's retry, answered duplicate if relay 2 had handled it), and each of its PCs subscribes at relay 1 at once with Last-Event-ID (the app waits its backoff first, 1 s at most on its first try).`,
      `Delivery → PC: from the moment this process sent the POST to the moment a PC read the event (PCs and sender in one process, one clock); "answered → PC" starts at the POST's answer instead, and is negative when the event reached the PC first. "Handled" counts the lines the relays printed, one per delivery handled: a relay killed after printing a delivery's line and before recording it handled prints one that never counts, and the other relay handles the delivery again (the receiver's README, "Not exactly once"); the PCs still get its event once.`,
    ].join('\n\n'),
  );

  const rows: (string | number)[][] = [];
  const latency: (string | number)[][] = [];
  const notes: string[] = [];
  for (const r of results) {
    const a = account(r);
    const events = r.pcs.reduce((sum, pc) => sum + pc.receipts.length, 0);
    const correct = a.lost === 0 && a.repeated === 0 && a.outOfOrder === 0 && a.conflicting === 0 && a.malformed === 0;
    const p99 = percentile(a.sentToPc.stayed, 99);
    const goal = r.kill ? correct : correct && p99 <= P99_GOAL_MS;
    const resent = r.deliveries.filter((d) => d.resent);
    const rss = r.peakRssMb.map((m) => (m === null ? '?' : fixed(m))).join(' / ');
    rows.push([
      r.title,
      `${r.deliveries.filter((d) => d.answeredAt !== null).length} (${resent.length} sent again, ${resent.filter((d) => d.duplicate).length} of them answered duplicate)`,
      r.handled,
      events,
      `${a.lost} (worst PC ${a.worstLost})`,
      `${a.repeated} (worst PC ${a.worstRepeated})`,
      a.outOfOrder === 0 && a.conflicting === 0 ? 'yes' : `**no**: ${a.outOfOrder} PCs, ${a.conflicting} ids`,
      rss,
      `${r.kill ? '0 lost, 0 repeated, in order' : `0 lost, 0 repeated, in order, p99 ≤ ${P99_GOAL_MS} ms`}: ${verdict(goal)}`,
    ]);
    const posts = r.deliveries.map((d) => (d.answeredAt ?? Number.NaN) - (d.sentAt ?? Number.NaN));
    const label = r.kill ? `${r.title}: PCs that stayed` : r.title;
    latency.push([
      label,
      a.sentToPc.stayed.length,
      ...ms(a.sentToPc.stayed),
      fixed(median(a.answeredToPc)),
      ...ms(posts).slice(0, 2),
    ]);
    if (r.kill) {
      latency.push([`${r.title}: PCs that moved`, a.sentToPc.moved.length, ...ms(a.sentToPc.moved), '', '', '']);
      const fromKill = a.reconnectMs.map((x) => x.fromKill);
      const fromDrop = a.reconnectMs.map((x) => x.fromDrop);
      notes.push(
        `Kill: ${a.reconnectMs.length} PCs were on the killed relay; each was subscribed again at the other (its \`ready\` read) ` +
          `${fixed(median(fromKill))} ms after the kill (median; max ${fixed(Math.max(...fromKill))} ms), ` +
          `${fixed(median(fromDrop))} ms after its stream ended (max ${fixed(Math.max(...fromDrop))} ms), ` +
          `${tries(Math.max(...a.reconnectMs.map((x) => x.tries)))}; what was delivered meanwhile came first on the new stream (lost and repeated above).`,
      );
    }
    if (a.malformed > 0) notes.push(`${r.title}: ${a.malformed} events not as the protocol says.`);
  }
  report.add('## What every PC got');
  report.table(
    [
      'case',
      'deliveries answered 200',
      'handled (relays’ lines)',
      'events read by PCs',
      'lost',
      'repeated',
      'order kept',
      'relay peak RSS (MB)',
      'goal',
    ],
    rows,
  );
  report.add('## Delivery → PC (ms)');
  report.table(
    ['case', 'events', 'median', 'p95', 'p99', 'max', 'answered → PC median', 'POST answered median', 'p95'],
    latency,
  );
  if (notes.length > 0) report.add(notes.join('\n\n'));
  report.write();
}

await main();
