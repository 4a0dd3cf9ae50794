// Random interleavings of what vets do at one shared exam-room PC — record, Switch user to a
// colleague or to a vet of another clinic, chat about a consult, ask for differentials, ask for
// another document, delete, refresh the clinic's list — against the sandbox over real HTTP with
// every answer slowed, so that answers land after the vet who asked has left. After every step:
// - no request carried the token of an account other than the one the work was for;
// - no answer, list, chat turn or trail entry reached a vet who may not see it;
// - nothing acknowledged was lost (a stopped recording, a chat turn answered, a kept answer).
// fast-check drives it from fixed seeds, a bounded number of runs and steps.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { createHandlers, type HandlerTable } from '../../../../src/main/core/ipc-handlers.ts';
import { COLLEAGUE_ACCOUNT, DEMO_ACCOUNT, OTHER_ACCOUNT } from '../../../../src/sandbox/state.ts';
import { TEMPLATES } from '../../../../src/sandbox/templates.ts';
import { recorderChunks, startCoreAgainst } from '../../../support/core.ts';
import { heldWire } from '../support.ts';
import { type SeenRequest, tokenUser } from '../../../support/recording-proxy.ts';

const SOAP = TEMPLATES.find((t) => t.name === 'SOAP')!.public_id;
const DISCHARGE = TEMPLATES.find((t) => t.public_id !== SOAP)!.public_id;
const RUNS = Number(process.env.INTERLEAVING_RUNS ?? 5);
const ACCOUNTS = [DEMO_ACCOUNT, COLLEAGUE_ACCOUNT, OTHER_ACCOUNT] as const;

// Every answer takes a while, so answers often land after a switch of user.
const wire = heldWire({ scribeSeconds: 0.4, latencyMs: 60 });
/** Each account's user id and organization, as the sandbox issues them. */
const users: { id: string; org: string }[] = [];

beforeAll(async () => {
  const probe = await startCoreAgainst(wire.sandbox, { urls: wire.proxy.urls });
  for (const account of ACCOUNTS) {
    await probe.session.signIn(account.email, account.password);
    const user = probe.session.state().user!;
    users.push({ id: user.id, org: user.organizationId });
  }
  await probe.stop();
  expect(users[0]!.org).toBe(users[1]!.org);
  expect(users[2]!.org).not.toBe(users[0]!.org);
});

type Action =
  | { kind: 'record'; template: boolean }
  | { kind: 'switch'; to: number | null }
  | { kind: 'chat'; pick: number }
  | { kind: 'ddx'; pick: number }
  | { kind: 'document'; pick: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'refresh' }
  | { kind: 'wait'; ms: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('record' as const), template: fc.boolean() }), weight: 3 },
  {
    arbitrary: fc.record({
      kind: fc.constant('switch' as const),
      to: fc.option(fc.integer({ min: 0, max: 2 }), { nil: null }),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('chat' as const), pick: fc.nat(9) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('ddx' as const), pick: fc.nat(9) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('document' as const), pick: fc.nat(9) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat(9) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('refresh' as const) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 300 }) }), weight: 2 },
);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One run: a fresh engine on a fresh folder, the actions in order, the checks after each. */
class Run {
  readonly c: AppCore;
  readonly h: HandlerTable;
  /** Every consult recorded in this run: its owner, and the vets who asked something of it. */
  readonly consults = new Map<
    string,
    { patient: string; owner: number; askers: Set<number>; documentAskers: Set<number>; deleted: boolean }
  >();
  /** Each tagged question (chat, differentials) and the vet who asked it. */
  readonly tags = new Map<string, number>();
  /** What was acknowledged to a vet and must still be there: chat turns by consult. */
  readonly turns: { id: string; tag: string }[] = [];
  readonly pending: Promise<unknown>[] = [];
  readonly problems: string[] = [];
  readonly sessions = new Map<string, string>();
  front: number | null = null;
  private n = 0;
  private readonly since: number;

  constructor(c: AppCore) {
    this.c = c;
    this.h = createHandlers(c);
    this.since = wire.proxy.seen.length;
  }

  private tag(): string {
    this.n += 1;
    return `q${this.n}x${Math.random().toString(36).slice(2, 8)}`;
  }

  /** Runs a vet's call as the window would, and checks that its answer went to no one else. */
  private call<T>(asker: number | null, what: string, p: Promise<{ ok: boolean; data?: T }>): Promise<T | null> {
    return p.then((r) => {
      if (r.ok && asker !== null && this.front !== asker)
        this.problems.push(`${what}: the answer for vet ${asker} was shown to vet ${this.front ?? 'none'}`);
      return r.ok ? (r.data as T) : null;
    });
  }

  /** The consults the vet in front may act on, newest first; the pick-th of those (wrapping), if any. */
  private async pickVisible(pick: number, ready = false): Promise<string | null> {
    const listed = await this.h['consults:list'](undefined);
    if (!listed.ok) return null;
    const mine = listed.data.filter(
      (c) => !c.claimable && this.consults.has(c.recording.id) && (!ready || c.job?.state === 'completed'),
    );
    return mine.length === 0 ? null : mine[pick % mine.length]!.recording.id;
  }

  async step(a: Action): Promise<void> {
    const { h } = this;
    const asker = this.front;
    switch (a.kind) {
      case 'record': {
        if (asker === null) return;
        const patient = `Pet${this.tag()}`;
        const started = await h['recording:start']({
          mimeType: 'audio/webm;codecs=opus',
          patientName: patient,
          ...(a.template ? { templateId: SOAP } : {}),
        });
        if (!started.ok) throw new Error(`recording:start: ${started.error.message}`);
        const id = started.data.id;
        this.consults.set(id, {
          patient,
          owner: asker,
          askers: new Set([asker]),
          documentAskers: new Set(),
          deleted: false,
        });
        for (const [seq, data] of recorderChunks().entries())
          await h['recording:chunk']({ id, seq, data: new Uint8Array(data), elapsedMs: (seq + 1) * 1000 });
        const stopped = await h['recording:stop']({ id, durationMs: 5000 });
        if (!stopped.ok && stopped.error.code !== 'not_found')
          throw new Error(`recording:stop: ${stopped.error.message}`);
        return;
      }
      case 'switch': {
        await h['session:switchUser'](undefined);
        this.front = null;
        if (a.to !== null) {
          await this.c.session.signIn(ACCOUNTS[a.to]!.email, ACCOUNTS[a.to]!.password);
          this.front = a.to;
        }
        return;
      }
      case 'chat':
      case 'ddx': {
        if (asker === null) return;
        const id = await this.pickVisible(a.pick, true);
        if (!id) return;
        const tag = this.tag();
        this.tags.set(tag, asker);
        this.consults.get(id)!.askers.add(asker);
        const message = `Dog with vomiting, what next? (${tag})`;
        if (a.kind === 'chat')
          this.pending.push(
            this.call(asker, 'consults:chat', h['consults:chat']({ id, message })).then((turn) => {
              if (turn) this.turns.push({ id, tag });
            }),
          );
        else this.pending.push(this.call(asker, 'consults:askDdx', h['consults:askDdx']({ id, input: message })));
        return;
      }
      case 'document': {
        if (asker === null) return;
        const id = await this.pickVisible(a.pick, true);
        if (!id) return;
        this.consults.get(id)!.askers.add(asker);
        this.consults.get(id)!.documentAskers.add(asker);
        this.pending.push(
          this.call(asker, 'consults:addDocument', h['consults:addDocument']({ id, templateId: DISCHARGE })),
        );
        return;
      }
      case 'delete': {
        if (asker === null) return;
        const id = await this.pickVisible(a.pick);
        if (!id) return;
        const r = await h['consults:delete']({ id });
        if (r.ok) this.consults.get(id)!.deleted = true;
        return;
      }
      case 'refresh':
        if (asker !== null) this.pending.push(this.call(asker, 'clinic:refresh', h['clinic:refresh'](undefined)));
        return;
      case 'wait':
        await sleep(a.ms);
    }
  }

  /** The checks that hold after every step. */
  async check(): Promise<void> {
    this.checkRequests();
    await this.checkShown();
  }

  /** Every request of this run went with the token of a vet the work was for. */
  private checkRequests(): void {
    for (const r of wire.proxy.seen.slice(this.since)) {
      const sub = subOfRequest(r);
      if (sub === null) continue;
      const who = users.findIndex((u) => u.id === sub);
      const body = JSON.stringify(r.json ?? '');
      for (const [tag, asker] of this.tags)
        if (body.includes(tag) && who !== asker)
          this.problems.push(`${r.method} ${r.path} asked by vet ${asker} went with vet ${who}'s token`);
      if (r.path.endsWith('/recording-sessions/create')) {
        const patient = (r.json as { patient_name?: string } | undefined)?.patient_name;
        const consult = [...this.consults.values()].find((c) => c.patient === patient);
        if (consult && who !== consult.owner)
          this.problems.push(`the session of ${patient} (vet ${consult.owner}'s) was made with vet ${who}'s token`);
        const made = (r.answer as { public_id?: string } | undefined)?.public_id;
        if (made && patient) this.sessions.set(made, patient);
      }
      if (r.path.endsWith('/scribe/request') || r.path.endsWith('/generate-upload-url')) {
        const session = (r.json as { recording_session_public_id?: string } | undefined)?.recording_session_public_id;
        const patient = session ? this.sessions.get(session) : undefined;
        const consult = [...this.consults.values()].find((c) => c.patient === patient);
        if (consult && !consult.askers.has(who))
          this.problems.push(`${r.path} for ${patient} went with vet ${who}'s token, who asked nothing of it`);
        // A further document is the work of the vet who asked for it; the note itself, its owner's.
        const template = (r.json as { template_public_id?: string } | undefined)?.template_public_id;
        if (consult && template === DISCHARGE && !consult.documentAskers.has(who))
          this.problems.push(`a document for ${patient} went with vet ${who}'s token, who did not ask for it`);
        if (consult && template === SOAP && who !== consult.owner)
          this.problems.push(`the note of ${patient} (vet ${consult.owner}'s) was asked with vet ${who}'s token`);
      }
      // Whatever the request, never across clinics: a consult's work stays in its organization.
      if (r.path.includes('/scribe/get/') && who >= 0) {
        const orgs = new Set([...this.consults.values()].map((c) => users[c.owner]!.org));
        if (orgs.size === 1 && !orgs.has(users[who]!.org))
          this.problems.push(`a note was asked for with the token of vet ${who} of another clinic`);
      }
    }
  }

  /** What the vet in front is shown: only what they may see; and nothing acknowledged is gone. */
  private async checkShown(): Promise<void> {
    const { h } = this;
    const front = this.front;
    const listed = await h['consults:list'](undefined);
    if (listed.ok)
      for (const c of listed.data) {
        const consult = this.consults.get(c.recording.id);
        if (!consult) continue;
        if (front === null || users[consult.owner]!.org !== users[front]!.org)
          this.problems.push(`${consult.patient} (vet ${consult.owner}'s) is listed to vet ${front ?? 'none'}`);
      }
    if (front !== null) {
      const clinic = await h['clinic:list'](undefined);
      if (clinic.ok)
        for (const c of clinic.data.consults) {
          const consult = [...this.consults.values()].find((x) => x.patient === c.patientName);
          if (consult && users[consult.owner]!.org !== users[front]!.org)
            this.problems.push(`${consult.patient} of another clinic is in vet ${front}'s clinic list`);
        }
    }
    // Nothing a vet was answered is lost, and the trail credits only vets who asked.
    for (const [id, consult] of this.consults) {
      if (consult.deleted) {
        if (this.c.cache.consult(id) !== null) this.problems.push(`${consult.patient} was deleted and is still here`);
        continue;
      }
      if (this.c.cache.consult(id) === null) this.problems.push(`${consult.patient} was recorded and is gone`);
    }
    for (const { id, tag } of this.turns) {
      const consult = this.consults.get(id)!;
      if (consult.deleted) continue;
      const owner = users[consult.owner]!;
      const actor = { userId: owner.id, organizationId: owner.org, name: '', email: '', service: this.c.serviceKey() };
      const kept = await this.c.conversation.list(id, actor);
      if (!kept.some((t) => t.message.includes(tag)))
        this.problems.push(`the chat turn ${tag} about ${consult.patient} was answered and is gone`);
    }
    for (const [id, consult] of this.consults) {
      if (consult.deleted || this.c.cache.consult(id) === null) continue;
      for (const e of await this.c.trail.read(id)) {
        if (e.action !== 'conversation') continue;
        const who = users.findIndex((u) => u.id === e.userId);
        if (!consult.askers.has(who))
          this.problems.push(`${consult.patient}'s trail credits vet ${who} with a conversation they did not start`);
      }
    }
  }

  async settle(): Promise<void> {
    await Promise.allSettled(this.pending);
  }
}

/** The user the request's token was issued to. */
const subOfRequest = (r: SeenRequest) => tokenUser(r.headers.authorization);

describe('any interleaving of vets at one PC', () => {
  it('never sends one vet’s work with another’s token, never shows it to another, never loses it', async () => {
    const seeds = (process.env.INTERLEAVING_SEEDS ?? '20261128,7,424242').split(',').map(Number);
    let runs = 0;
    let steps = 0;
    const counts = new Map<string, number>();
    for (const seed of seeds)
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 2 }),
          fc.array(action, { minLength: 6, maxLength: 20 }),
          async (first, actions) => {
            const c = await startCoreAgainst(wire.sandbox, {
              urls: wire.proxy.urls,
              pipeline: { pollDelay: () => 100 },
            });
            const run = new Run(c);
            try {
              await c.session.signIn(ACCOUNTS[first]!.email, ACCOUNTS[first]!.password);
              run.front = first;
              for (const a of actions) {
                await run.step(a);
                await run.check();
                steps += 1;
                counts.set(a.kind, (counts.get(a.kind) ?? 0) + 1);
                if (run.problems.length > 0) break;
              }
              await run.settle();
              await run.check();
            } finally {
              await c.stop();
            }
            runs += 1;
            expect(run.problems).toEqual([]);
          },
        ),
        { seed, numRuns: RUNS, endOnFailure: true },
      );
    // What ran, for the record (the closing numbers of a run are in the test's output).
    console.log(`interleavings: ${runs} runs, ${steps} steps, ${JSON.stringify(Object.fromEntries(counts))}`);
    expect(runs).toBeGreaterThanOrEqual(seeds.length * RUNS);
  }, 240_000);
});
