// Consults belong to the account that recorded them: two accounts of two clinics on one
// computer, through the sandbox over real HTTP. The other clinic's consults are not listed, not
// opened, not deleted, and an unfinished one is never sent with the other account's sign-in: it
// waits for its owner, then goes on.
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { COLLEAGUE_ACCOUNT, OTHER_ACCOUNT } from '../../../../src/sandbox/state.ts';
import type { JobInfo } from '../../../../src/shared/jobs.ts';
import { firstTemplateId, recordThrough, waitForJob } from '../../../support/core.ts';
import { builtInCores, closedAfterEach, proxiedCores, startAndFeed, startUploadFront } from '../support.ts';

const { core } = builtInCores();
const proxied = proxiedCores();
const atEnd = closedAfterEach();

/** A core on the sandbox with the demo vet signed in, its window's calls and a template. */
async function demoSignedIn(scribeSeconds: number) {
  const c = await core({ sandbox: { scribeSeconds } });
  const demo = c.appInfo().sandbox?.demo;
  if (!demo) throw new Error('no sandbox');
  await c.session.signIn(demo.email, demo.password);
  return { c, h: createHandlers(c), demo, template: await firstTemplateId(c) };
}

const NO_SUCH = 'That consult is not on this computer, or it belongs to another clinic’s account.';

describe('two accounts of two clinics on one computer', () => {
  it("each sees only its clinic's consults, and an unfinished consult waits for its owner's sign-in", async () => {
    const c = await core({ sandbox: { scribeSeconds: 0.3 } });
    const h = createHandlers(c);
    const demo = c.appInfo().sandbox!.demo;
    const record = (patientName: string) => recordThrough(h, patientName);

    // Dr. Demo Vet records Bella and signs out before sending it: signed out, no one's consults
    // are listed or acted on.
    await c.session.signIn(demo.email, demo.password);
    const template = await firstTemplateId(c);
    const bella = await record('Bella');
    expect(c.cache.consult(bella)?.recording.recordedBy).toMatchObject({ email: demo.email, name: 'Dr. Demo Vet' });
    await c.session.signOut('user');
    expect((await h['consults:submit']({ id: bella, templateId: template })).ok).toBe(false);
    // Signed out: nobody's consults are listed.
    expect(await h['consults:list'](undefined)).toEqual({ ok: true, data: [] });

    // Dr. Other Vet, of another clinic, signs in at the same computer.
    await c.session.signIn(OTHER_ACCOUNT.email, OTHER_ACCOUNT.password);
    expect(await h['consults:list'](undefined)).toEqual({ ok: true, data: [] });
    for (const answer of [
      await h['consults:note']({ id: bella }),
      await h['consults:export']({ id: bella, format: 'txt' }),
      await h['consults:delete']({ id: bella }),
      await h['consults:saveNote']({ id: bella, text: 'not mine' }),
      await h['consults:submit']({ id: bella, templateId: template }),
      await h['consults:audioUrl']({ id: bella }),
    ]) {
      expect(answer).toEqual({ ok: false, error: { code: 'not_found', message: NO_SUCH } });
    }
    // Dr. Other Vet's own consult goes with their account and is theirs alone.
    const rex = await record('Rex');
    await h['consults:submit']({ id: rex, templateId: template });
    expect((await waitForJob(c, rex, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe('completed');
    const listed = await h['consults:list'](undefined);
    expect(listed.ok && listed.data.map((x) => [x.recording.patientName, x.recording.recordedBy?.email])).toEqual([
      ['Rex', OTHER_ACCOUNT.email],
    ]);
    await c.session.signOut('user');

    // Back as Dr. Demo Vet: Bella is listed, sent with the owner's sign-in, and finishes; Rex is not listed.
    await c.session.signIn(demo.email, demo.password);
    expect((await h['consults:submit']({ id: bella, templateId: template })).ok).toBe(true);
    expect((await waitForJob(c, bella, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe(
      'completed',
    );
    const mine = await h['consults:list'](undefined);
    expect(mine.ok && mine.data.map((x) => x.recording.patientName)).toEqual(['Bella']);
  });

  it("a consult waiting to be sent is never sent with another account's sign-in: it says whose it is and goes on when its owner signs in", async () => {
    const { c, h, demo, template } = await demoSignedIn(0.3);
    const id = await startAndFeed(h, { patientName: 'Bella', templateId: template });
    // Signed out first, so the job is queued without a token; then the other clinic signs in.
    await c.session.signOut('user');
    await h['recording:stop']({ id, durationMs: 5000 });
    const sessionsBefore = c.embeddedSandbox?.stats().byRoute['POST /scribe/recording-sessions/create'] ?? 0;
    await c.session.signIn(OTHER_ACCOUNT.email, OTHER_ACCOUNT.password);
    const waiting = await waitForJob(c, id, (j) => j.waitingFor === 'owner');
    expect(waiting.state).toBe('recorded');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(c.embeddedSandbox?.stats().byRoute['POST /scribe/recording-sessions/create'] ?? 0).toBe(sessionsBefore);
    expect(c.pipeline.info(id)).toMatchObject({ state: 'recorded', waitingFor: 'owner' });

    await c.session.signOut('user');
    await c.session.signIn(demo.email, demo.password);
    expect((await waitForJob(c, id, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe('completed');
    // The count watched above is the real one: the owner's sign-in made the session.
    expect(c.embeddedSandbox?.stats().byRoute['POST /scribe/recording-sessions/create']).toBe(sessionsBefore + 1);
  });
});

describe('another account signs in during an upload', () => {
  it('the upload stops where it is and waits for its owner; nothing goes on with the other sign-in; the owner back, it completes', async () => {
    const { sandbox, c, h, proxy, template } = await proxied({ scribeSeconds: 0.3 });
    // Storage that takes the first upload's bytes and never answers it; later ones go on to the
    // sandbox's own storage.
    let held = 0;
    const storage = await startUploadFront(proxy, (req) => {
      if (held++ > 0) return true;
      req.resume();
      return false;
    });
    atEnd(() => storage.close());
    const id = await startAndFeed(h, { patientName: 'Bella', templateId: template });
    await h['recording:stop']({ id, durationMs: 5000 });
    // The upload is under way (its answer held back by the storage).
    for (let i = 0; held === 0 && i < 200; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(held).toBe(1);
    expect(c.pipeline.info(id)?.state).toBe('upload_url');

    await c.session.signOut('user');
    await c.session.signIn(OTHER_ACCOUNT.email, OTHER_ACCOUNT.password);
    const otherToken = (await c.options.secretStore.load())?.accessToken ?? '';
    const waiting = await waitForJob(c, id, (j) => j.waitingFor === 'owner');
    expect(waiting.state).toBe('upload_url');
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Nothing was asked of the service with the other account's sign-in for this consult.
    expect(
      proxy.seen.filter(
        (r) =>
          r.headers.authorization === `Bearer ${otherToken}` &&
          /recording-sessions|generate-upload-url|scribe\/request/.test(r.path),
      ),
    ).toEqual([]);
    expect(proxy.find('POST', '/scribe/request')).toHaveLength(0);

    await c.session.signOut('user');
    await c.session.signIn(sandbox.demo.email, sandbox.demo.password);
    expect((await waitForJob(c, id, (j) => j.state === 'completed' || j.state === 'failed', 30_000)).state).toBe(
      'completed',
    );
    // The upload went again, in full, with the owner back.
    expect(held).toBeGreaterThanOrEqual(2);
    expect(proxy.find('POST', '/scribe/request')).toHaveLength(1);
  });

  it("consults:search finds a clinic's consults by patient, visit and the words of the note (the edit when there is one), as plain text, and never another clinic's", async () => {
    const { c, h, demo, template } = await demoSignedIn(0.2);
    const record = (patientName: string, description?: string) => recordThrough(h, patientName, description);
    const search = async (query: string) => {
      const a = await h['consults:search']({ query });
      if (!a.ok) throw new Error(a.error.message);
      return [...a.data.ids].sort();
    };

    await c.session.signOut('user');
    await c.session.signIn(OTHER_ACCOUNT.email, OTHER_ACCOUNT.password);
    const theirs = await record('Bella', 'Vomiting');
    await c.session.signOut('user');
    await c.session.signIn(demo.email, demo.password);
    const bella = await record('Bella', 'Limping (left hind)');
    const rex = await record('Rex', 'Vaccination');
    await h['consults:submit']({ id: rex, templateId: template });
    await waitForJob(c, rex, (j) => j.state === 'completed');

    expect(await search('bella')).toEqual([bella]);
    expect(await search('BELLA left')).toEqual([bella]);
    // Pattern characters are words like any other.
    expect(await search('(left')).toEqual([bella]);
    expect(await search('.*')).toEqual([]);
    // The note's words: the sandbox's example note names the patient and says what it is.
    expect(await search('example note rex')).toEqual([rex]);
    await h['consults:saveNote']({ id: rex, text: '## Plan\nBooster due in twelve months.' });
    expect(await search('twelve months')).toEqual([rex]);
    expect(await search('vomiting')).toEqual([]);
    expect(await search('')).toEqual([bella, rex].sort());
    expect(theirs).not.toBe(bella);
    const long = await h['consults:search']({ query: 'x'.repeat(201) });
    expect(long).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(long.ok ? '' : long.error.message).toMatch(/query.*longer than 200 characters/);
  });

  it('a colleague of the same clinic signed in: the consult waits for its owner, and says at once that it goes on when the owner is back', async () => {
    // A note that takes a while: the job is polling when the colleague signs in.
    const { c, h, demo, template } = await demoSignedIn(60);
    const id = await recordThrough(h, 'Bella');
    await h['consults:submit']({ id, templateId: template });
    // Settled at the service's 'scribing': polls from now on change nothing of the job.
    await waitForJob(c, id, (j) => j.state === 'scribe_requested' && j.serviceStatus === 'scribing');

    await c.session.signOut('user');
    await c.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    // The colleague's clinic is the same: the consult is listed, waiting for its owner.
    await waitForJob(c, id, (j) => j.waitingFor === 'owner');
    const listed = await h['consults:list'](undefined);
    expect(listed.ok && listed.data.map((x) => x.recording.id)).toEqual([id]);

    const events: JobInfo[] = [];
    c.pipeline.on('job', (j: JobInfo) => {
      if (j.recordingId === id) events.push(j);
    });
    await c.session.signOut('user');
    await c.session.signIn(demo.email, demo.password);
    // An event says it no longer waits, while the note is still being written.
    await expect
      .poll(() => events.some((j) => j.waitingFor === null && j.state === 'scribe_requested'), { timeout: 10_000 })
      .toBe(true);
  });
});
