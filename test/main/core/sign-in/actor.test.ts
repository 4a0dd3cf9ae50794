// Work carries its actor: what a vet asks goes with that vet's sign-in to its last request, is
// noted on the trail as theirs, and its answer is never shown to the vet who sat down since.
// Through the sandbox over real HTTP (a recording proxy reads every token off the wire; a front
// holds chosen answers while the test switches user), the real engine and its handler table.
import { describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { ANSWER_FOR_ANOTHER_VET, createHandlers, type HandlerTable } from '../../../../src/main/core/ipc-handlers.ts';
import { COLLEAGUE_ACCOUNT, OTHER_ACCOUNT } from '../../../../src/sandbox/state.ts';
import { TEMPLATES } from '../../../../src/sandbox/templates.ts';
import type { JobInfo } from '../../../../src/shared/jobs.ts';
import { makeRecording, startCoreAgainst, waitForJob, until } from '../../../support/core.ts';
import { heldWire } from '../support.ts';
import { type SeenRequest, tokenUser } from '../../../support/recording-proxy.ts';

const SOAP = TEMPLATES.find((t) => t.name === 'SOAP')!.public_id;

const wire = heldWire({ scribeSeconds: 0.2 });
const { cores } = wire;

/** A core signed in as the demo vet, with one consult whose note is ready. */
async function demoWithNote(patientName = 'Bella'): Promise<{ c: AppCore; h: HandlerTable; id: string; demo: string }> {
  const c = await startCoreAgainst(wire.sandbox, { urls: wire.front.urls, pipeline: { pollDelay: () => 100 } });
  cores.push(c);
  await c.session.signIn(wire.sandbox.demo.email, wire.sandbox.demo.password);
  const id = await makeRecording(c, null, null, { patientName });
  await c.pipeline.submit(id, SOAP);
  expect((await waitForJob(c, id, (j: JobInfo) => j.state === 'completed' || j.state === 'failed')).state).toBe(
    'completed',
  );
  return { c, h: createHandlers(c), id, demo: c.session.state().user!.id };
}

/** The demo vet leaves (Switch user) and `next` signs in. */
async function switchTo(c: AppCore, h: HandlerTable, next: { email: string; password: string }): Promise<void> {
  expect((await h['session:switchUser'](undefined)).ok).toBe(true);
  await c.session.signIn(next.email, next.password);
}

/** The user the request's token was issued to. */
const subOfRequest = (r: SeenRequest) => tokenUser(r.headers.authorization);

describe('work carries the vet who asked', () => {
  it.each([
    ['a vet of another clinic', OTHER_ACCOUNT],
    ['a colleague of the same clinic', COLLEAGUE_ACCOUNT],
  ])(
    'a chat message queued behind a slow answer is sent with the asking vet’s sign-in or not at all when %s signs in',
    async (_who, next) => {
      const { c, h, id, demo } = await demoWithNote();
      const chats = () => wire.proxy.find('POST', '/chat').filter((r) => r.at >= started);
      const started = Date.now();
      wire.front.hold('POST', /\/chat$/);
      const first = h['consults:chat']({ id, message: 'What was her temperature?' });
      const second = h['consults:chat']({ id, message: 'And her weight?' });
      await until(() => wire.front.held() === 1);
      await switchTo(c, h, next);
      wire.front.release();
      const [a, b] = await Promise.all([first, second]);
      // Neither answer reaches the next vet's window.
      expect(a).toEqual({ ok: false, error: { code: 'signed_out', message: ANSWER_FOR_ANOTHER_VET } });
      expect(b).toEqual({ ok: false, error: { code: 'signed_out', message: ANSWER_FOR_ANOTHER_VET } });
      // One request went, with the demo vet's own token; the queued one was never sent with another's.
      expect(chats().map(subOfRequest)).toEqual([demo]);
      // The first turn is the demo vet's, kept with the consult, and on its trail as theirs.
      await c.session.signOut('user');
      await c.session.signIn(wire.sandbox.demo.email, wire.sandbox.demo.password);
      const turns = await h['consults:chatTurns']({ id });
      expect(turns.ok && turns.data.map((t) => t.message)).toEqual(['What was her temperature?']);
      const trail = await h['consults:trail']({ id });
      const conversation = trail.ok ? trail.data.entries.filter((e) => e.action === 'conversation') : [];
      expect(conversation.map((e) => e.userId)).toEqual([demo]);
    },
    60_000,
  );

  it('differentials answered after a colleague signed in are kept with the consult and noted on its trail as the asking vet’s', async () => {
    const { c, h, id, demo } = await demoWithNote('Rex');
    wire.front.hold('POST', /\/ddx_agent_v2$/);
    const asked = h['consults:askDdx']({ id, input: 'Dog, 6 years, vomiting for 3 days, ate from the bin.' });
    await until(() => wire.front.held() === 1);
    await switchTo(c, h, COLLEAGUE_ACCOUNT);
    const colleague = c.session.state().user!.id;
    wire.front.release();
    expect(await asked).toEqual({ ok: false, error: { code: 'signed_out', message: ANSWER_FOR_ANOTHER_VET } });
    // The colleague, who may see the consult, sees the answer as the demo vet's on the trail.
    const answers = await h['consults:answers']({ id });
    expect(answers.ok && answers.data.map((a) => a.kind)).toEqual(['ddx']);
    const trail = await h['consults:trail']({ id });
    const conversation = trail.ok ? trail.data.entries.filter((e) => e.action === 'conversation') : [];
    expect(conversation.map((e) => e.userId)).toEqual([demo]);
    expect(conversation.map((e) => e.userId)).not.toContain(colleague);
  }, 60_000);

  it('an agent’s answer that lands after a vet of another clinic signed in is withheld from their window', async () => {
    const { c, h, demo } = await demoWithNote('Milo');
    const started = Date.now();
    wire.front.hold('POST', /\/medication_agent_v2$/);
    const asked = h['agents:medication']({ input: 'meloxicam for a dog' });
    await until(() => wire.front.held() === 1);
    await switchTo(c, h, OTHER_ACCOUNT);
    wire.front.release();
    expect(await asked).toEqual({ ok: false, error: { code: 'signed_out', message: ANSWER_FOR_ANOTHER_VET } });
    const sent = wire.proxy.find('POST', '/medication_agent_v2').filter((r) => r.at >= started);
    expect(sent.map(subOfRequest)).toEqual([demo]);
    // The next vet's own question is answered to them.
    const theirs = await h['agents:medication']({ input: 'meloxicam for a cat' });
    expect(theirs.ok).toBe(true);
  }, 60_000);

  it('a clinic refresh still running at a switch answers its list to no one, and the next vet’s own read is made and answered', async () => {
    const { c, h, demo } = await demoWithNote('Rex');
    const started = Date.now();
    wire.front.hold('GET', /\/scribe\/all$/);
    const old = h['clinic:refresh'](undefined);
    await until(() => wire.front.held() === 1);
    await switchTo(c, h, OTHER_ACCOUNT);
    const other = c.session.state().user!.id;
    wire.front.release();
    expect(await old).toMatchObject({ ok: false, error: { code: 'signed_out' } });
    const mine = await h['clinic:refresh'](undefined);
    expect(mine.ok).toBe(true);
    // Nothing of the demo clinic's consults in the other clinic's list, and each read went with its own vet.
    expect(mine.ok && mine.data.consults.map((x) => x.patientName)).not.toContain('Rex');
    const reads = wire.proxy.find('GET', '/scribe/all').filter((r) => r.at >= started);
    expect(new Set(reads.map(subOfRequest))).toEqual(new Set([demo, other]));
    const view = await h['clinic:list'](undefined);
    expect(view.ok && view.data.consults.map((x) => x.patientName)).not.toContain('Rex');
  }, 60_000);
});
