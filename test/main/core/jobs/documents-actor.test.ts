// A colleague's work on another vet's consult is the colleague's: Dr. Demo Vet records Bella and
// switches user while her own work is on its way (her sign-in is kept in the background for
// it); a colleague of the same clinic signs in and, on Bella's consult, asks for another
// document, asks again for a late note, or asks again for a document the service refused. Each of
// those requests goes with the colleague's own sign-in, is noted on the trail as theirs, and
// keeps only their sign-in alive: Dr. Demo's background sign-in ends once her own work is done.
// Through the sandbox over real HTTP: a recording proxy reads each token off the wire (the user
// it was issued to, its `sub`), and a front holds Dr. Demo's answers or refuses a request on cue.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { createHandlers, type HandlerTable } from '../../../../src/main/core/ipc-handlers.ts';
import { COLLEAGUE_ACCOUNT } from '../../../../src/sandbox/state.ts';
import { TEMPLATES } from '../../../../src/sandbox/templates.ts';
import type { JobState } from '../../../../src/shared/jobs.ts';
import { makeRecording, startCoreAgainst, waitForJob, until } from '../../../support/core.ts';
import { heldWire } from '../support.ts';
import { type SeenRequest, tokenUser } from '../../../support/recording-proxy.ts';

const SOAP = TEMPLATES.find((t) => t.name === 'SOAP')!.public_id;
const DISCHARGE = TEMPLATES.find((t) => t.name === 'Discharge instructions')!.public_id;

const wire = heldWire({ scribeSeconds: 0.2 });
const { cores } = wire;

const done = (j: { state: JobState }) => j.state === 'completed' || j.state === 'failed';
const since = (at: number) => (r: SeenRequest) => r.at >= at;

/** The scribe id a POST /scribe/request seen on the wire was answered with. */
const scribeIdOf = (r: SeenRequest) => (r.answer as { public_id: string }).public_id;

/** The scribe requests made since `at` for a template. */
function scribeRequests(templateId: string, at: number): SeenRequest[] {
  return wire.proxy
    .find('POST', '/scribe/request')
    .filter(since(at))
    .filter((r) => (r.json as { template_public_id?: string }).template_public_id === templateId);
}

/** The answer of a poll, changed to say the note is still being written. */
const stillWriting = (answer: unknown) => ({
  ...(answer as object),
  status: 'scribing',
  categories_output: [],
  rtf_output: null,
});

/**
 * The discharge instructions asked since `at` are written slowly: polls of them answer 'scribing'
 * until the function given back is called.
 */
function dischargeWrittenSlowly(at: number): () => void {
  let slow = true;
  wire.proxy.rewrite = (request, answer) =>
    slow &&
    request.method === 'GET' &&
    scribeRequests(DISCHARGE, at).some((r) => request.path.endsWith(`/scribe/get/${scribeIdOf(r)}`))
      ? stillWriting(answer)
      : undefined;
  return () => {
    slow = false;
  };
}

/** The scribe requests (and polls of their scribes) made since `at` for a template, each with the user whose token it carried. */
function requestsFor(templateId: string, at: number): { what: string; sub: string | null }[] {
  const asked = scribeRequests(templateId, at);
  const ids = new Set(asked.map(scribeIdOf));
  const polls = wire.proxy
    .find('GET', '/scribe/get/')
    .filter((r) => ids.has(r.path.split('/').pop() ?? ''))
    .map((r) => ({ what: `GET ${r.path}`, sub: tokenUser(r.headers.authorization) }));
  return [...asked.map((r) => ({ what: 'POST /scribe/request', sub: tokenUser(r.headers.authorization) })), ...polls];
}

interface Clinic {
  c: AppCore;
  h: HandlerTable;
  demo: string;
  colleague: string;
  /** Bella's consult, Dr. Demo's. */
  bella: string;
}

/**
 * Dr. Demo records Bella (SOAP) and, when told, leaves Rex's note being written with its poll
 * held at the front (her own work still on its way); she switches user and the colleague signs in.
 */
async function handOver(options: {
  bellaDone: boolean;
  overdueMinutes?: number;
  /** Bella's scribe request is refused by the service, so her consult stops failed. */
  bellaRefused?: boolean;
}): Promise<Clinic> {
  const c = await startCoreAgainst(wire.sandbox, {
    urls: wire.front.urls,
    pipeline: {
      pollDelay: () => 100,
      statusBoard: false,
      slowPollMs: 300,
      ...(options.overdueMinutes ? { overdueMinutes: () => options.overdueMinutes! } : {}),
    },
  });
  cores.push(c);
  const h = createHandlers(c);
  await c.session.signIn(wire.sandbox.demo.email, wire.sandbox.demo.password);
  const demo = c.session.state().user!.id;
  const bella = await makeRecording(c, null, null, { patientName: 'Bella' });
  const refused = options.bellaRefused
    ? wire.front.refuseNext('POST', /\/scribe\/request$/, 404, { detail: 'Template not found.', code: 'not_found' })
    : null;
  expect(await h['consults:submit']({ id: bella, templateId: SOAP })).toMatchObject({ ok: true });
  if (refused) {
    expect(tokenUser((await refused).authorization)).toBe(demo);
    expect((await waitForJob(c, bella, done)).state).toBe('failed');
  } else if (options.bellaDone) expect((await waitForJob(c, bella, done)).state).toBe('completed');
  else await waitForJob(c, bella, (j) => j.state === 'scribe_requested');

  // Rex's note is on its way for Dr. Demo: its poll's answer is held until the test lets it go.
  const at = Date.now();
  const rex = await makeRecording(c, null, null, { patientName: 'Rex' });
  expect(await h['consults:submit']({ id: rex, templateId: SOAP })).toMatchObject({ ok: true });
  await waitForJob(c, rex, (j) => j.state === 'scribe_requested');
  const rexScribe = scribeIdOf(wire.proxy.find('POST', '/scribe/request').filter(since(at))[0]!);
  wire.front.hold('GET', new RegExp(`/scribe/get/${rexScribe}$`));
  await until(() => wire.front.held() > 0);

  expect((await h['session:switchUser'](undefined)).ok).toBe(true);
  expect(c.background.has(demo)).toBe(true);
  await c.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
  const colleague = c.session.state().user!.id;
  expect(colleague).not.toBe(demo);
  return { c, h, demo, colleague, bella };
}

/** The consult's trail entries for an action, as the window reads them. */
async function trail(h: HandlerTable, id: string) {
  const answer = await h['consults:trail']({ id });
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.data.entries;
}

describe('a colleague’s action on another vet’s consult is the colleague’s', () => {
  it('another document asked by the colleague goes with the colleague’s sign-in, is noted as theirs, and keeps no sign-in of Dr. Demo’s alive', async () => {
    const { c, h, demo, colleague, bella } = await handOver({ bellaDone: true });
    const at = Date.now();
    // The colleague's document is written slowly: the service says 'scribing' until told.
    const written = dischargeWrittenSlowly(at);
    const added = await h['consults:addDocument']({
      id: bella,
      templateId: DISCHARGE,
      templateName: 'Discharge instructions',
    });
    expect(added).toMatchObject({ ok: true });
    const documentId = c.pipeline.info(bella)!.documents[0]!.id;
    await waitForJob(c, bella, (j) => j.documents[0]?.state === 'scribe_requested');
    expect(requestsFor(DISCHARGE, at).filter((r) => r.sub !== colleague)).toEqual([]);
    // Kept in the document's job file, so a restart sends it with the same vet's sign-in.
    const file = join(dirname(c.recordings.audioPath(bella)), 'documents', `${documentId}.json`);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { actor: { userId: string } | null }).actor?.userId).toBe(
      colleague,
    );

    // Dr. Demo's own work (Rex) finishes: her background sign-in ends, the colleague's document still on its way.
    wire.front.release();
    await until(() => !c.background.has(demo));
    expect(c.pipeline.info(bella)!.documents[0]!.state).toBe('scribe_requested');

    written();
    expect((await waitForJob(c, bella, (j) => j.documents.every(done))).documents[0]!.state).toBe('completed');
    const requests = requestsFor(DISCHARGE, at);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(requests.filter((r) => r.sub !== colleague)).toEqual([]);
    expect(await trail(h, bella)).toContainEqual(
      expect.objectContaining({ action: 'sent', documentId, userId: colleague, name: 'Dr. Colleague Vet' }),
    );
  });

  it('Ask again by the colleague on a late note goes with the colleague’s sign-in, is noted as theirs, and Dr. Demo’s sign-in ends with her own work', async () => {
    // Bella's note never comes on its first request (the first of this test): it is late after 1.5 s.
    const at = Date.now();
    wire.proxy.rewrite = (request, answer) => {
      const first = wire.proxy.find('POST', '/scribe/request').filter(since(at))[0];
      return first && request.method === 'GET' && request.path.endsWith(`/scribe/get/${scribeIdOf(first)}`)
        ? stillWriting(answer)
        : undefined;
    };
    const { c, h, demo, colleague, bella } = await handOver({ bellaDone: false, overdueMinutes: 0.025 });
    await waitForJob(c, bella, (j) => j.overdue, 15_000);

    const asked = Date.now();
    expect(await h['consults:askAgain']({ id: bella })).toMatchObject({ ok: true });
    expect((await waitForJob(c, bella, done)).state).toBe('completed');
    // Her own work (Rex) is still held: her sign-in is kept for it, not used for the colleague's request.
    expect(c.background.has(demo)).toBe(true);
    const requests = requestsFor(SOAP, asked);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(requests.filter((r) => r.sub !== colleague)).toEqual([]);
    const entries = await trail(h, bella);
    expect(entries.at(-1)).toMatchObject({ action: 'sent', userId: colleague, name: 'Dr. Colleague Vet' });
    expect(entries.at(-1)!.documentId).toBeUndefined();

    wire.front.release();
    await until(() => !c.background.has(demo));
  });

  it('Retry by the colleague of a consult the service refused goes with the colleague’s sign-in, is noted as theirs, and keeps no sign-in of Dr. Demo’s alive', async () => {
    const { c, h, demo, colleague, bella } = await handOver({ bellaDone: false, bellaRefused: true });
    const at = Date.now();
    expect(await h['consults:retry']({ id: bella })).toMatchObject({ ok: true });
    expect((await waitForJob(c, bella, done)).state).toBe('completed');
    const requests = requestsFor(SOAP, at);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(requests.filter((r) => r.sub !== colleague)).toEqual([]);
    expect((await trail(h, bella)).at(-1)).toMatchObject({ action: 'sent', userId: colleague });
    // Her own work (Rex) is still held: her sign-in is kept for it alone, and ends with it.
    expect(c.background.has(demo)).toBe(true);
    wire.front.release();
    await until(() => !c.background.has(demo));
  });

  it('a document the service refused, asked again by the colleague, goes with the colleague’s sign-in both times and is noted as theirs', async () => {
    const { c, h, demo, colleague, bella } = await handOver({ bellaDone: true });
    const at = Date.now();
    const refused = wire.front.refuseNext('POST', /\/scribe\/request$/, 404, {
      detail: 'Template not found.',
      code: 'not_found',
    });
    expect(
      await h['consults:addDocument']({ id: bella, templateId: DISCHARGE, templateName: 'Discharge instructions' }),
    ).toMatchObject({ ok: true });
    expect(tokenUser((await refused).authorization)).toBe(colleague);
    const failed = await waitForJob(c, bella, (j) => j.documents.every(done));
    expect(failed.documents[0]).toMatchObject({
      state: 'failed',
      error: { message: expect.stringContaining('Template not found.') },
    });
    const documentId = failed.documents[0]!.id;

    expect(await h['consults:retryDocument']({ id: bella, documentId })).toMatchObject({ ok: true });
    expect((await waitForJob(c, bella, (j) => j.documents.every(done))).documents[0]!.state).toBe('completed');
    const requests = requestsFor(DISCHARGE, at);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(requests.filter((r) => r.sub !== colleague)).toEqual([]);
    expect((await trail(h, bella)).filter((e) => e.documentId === documentId)).toEqual([
      expect.objectContaining({ action: 'sent', userId: colleague }),
      expect.objectContaining({ action: 'sent', userId: colleague }),
    ]);

    wire.front.release();
    await until(() => !c.background.has(demo));
  });

  it('a document asked by the colleague who then signs out waits for them, saying so, and never goes with Dr. Demo’s sign-in, across a restart', async () => {
    // Bella's note is held back (the service says 'scribing'): the colleague's document waits its turn behind it.
    const at = Date.now();
    let stalled = true;
    wire.proxy.rewrite = (request, answer) => {
      const first = wire.proxy.find('POST', '/scribe/request').filter(since(at))[0];
      return stalled && first && request.method === 'GET' && request.path.endsWith(`/scribe/get/${scribeIdOf(first)}`)
        ? stillWriting(answer)
        : undefined;
    };
    const { c, h, demo, colleague, bella } = await handOver({ bellaDone: false });
    wire.front.release();
    expect(
      await h['consults:addDocument']({ id: bella, templateId: DISCHARGE, templateName: 'Discharge instructions' }),
    ).toMatchObject({ ok: true });
    await waitForJob(c, bella, (j) => j.documents[0]?.waitingFor === 'turn');

    // The colleague signs out; Dr. Demo comes back in front, and her note is written.
    expect((await h['session:signOut'](undefined)).ok).toBe(true);
    await c.session.signIn(wire.sandbox.demo.email, wire.sandbox.demo.password);
    stalled = false;
    const waiting = await waitForJob(c, bella, (j) => j.documents[0]!.waitingFor === 'owner');
    expect(waiting.state).toBe('completed');
    expect(waiting.documents[0]).toMatchObject({
      state: 'uploaded',
      askedBy: { userId: colleague, name: 'Dr. Colleague Vet' },
    });
    expect(scribeRequests(DISCHARGE, at)).toEqual([]);

    // Started again on the same folder: the document still waits for the colleague, not for whoever is in front.
    const { dataDir } = c.options;
    await cores.pop()!.stop();
    const again = await startCoreAgainst(wire.sandbox, {
      urls: wire.front.urls,
      dataDir,
      secretStore: c.options.secretStore,
      pipeline: { pollDelay: () => 100, statusBoard: false },
    });
    cores.push(again);
    expect(again.session.state().user?.id).toBe(demo);
    await until(() => again.pipeline.info(bella)!.documents[0]!.waitingFor === 'owner');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(scribeRequests(DISCHARGE, at)).toEqual([]);

    // The colleague signs in: the document goes, with their sign-in.
    const h2 = createHandlers(again);
    expect((await h2['session:switchUser'](undefined)).ok).toBe(true);
    await again.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    expect((await waitForJob(again, bella, (j) => j.documents.every(done))).documents[0]!.state).toBe('completed');
    const requests = requestsFor(DISCHARGE, at);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(requests.filter((r) => r.sub !== colleague)).toEqual([]);
  });

  it('a colleague who switches user while their document is on its way keeps it going with their own background sign-in, not with Dr. Demo’s in front', async () => {
    const { c, h, demo, colleague, bella } = await handOver({ bellaDone: true });
    wire.front.release();
    await until(() => !c.background.has(demo));
    const at = Date.now();
    const written = dischargeWrittenSlowly(at);
    expect(
      await h['consults:addDocument']({ id: bella, templateId: DISCHARGE, templateName: 'Discharge instructions' }),
    ).toMatchObject({ ok: true });
    await waitForJob(c, bella, (j) => j.documents[0]?.state === 'scribe_requested');

    // The colleague leaves with their document on its way: their sign-in is kept for it; Dr. Demo is back in front.
    expect((await h['session:switchUser'](undefined)).ok).toBe(true);
    expect(c.background.has(colleague)).toBe(true);
    await c.session.signIn(wire.sandbox.demo.email, wire.sandbox.demo.password);
    written();
    expect((await waitForJob(c, bella, (j) => j.documents.every(done))).documents[0]!.state).toBe('completed');
    const requests = requestsFor(DISCHARGE, at);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(requests.filter((r) => r.sub !== colleague)).toEqual([]);
    // Done: the colleague's background sign-in ends.
    await until(() => !c.background.has(colleague));
  });
});
