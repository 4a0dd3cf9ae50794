// Consults belong to the account that recorded them: two accounts of two clinics on one
// computer, through the sandbox over real HTTP. The other clinic's consults are not listed, not
// opened, not deleted, and an unfinished one is never sent with the other account's sign-in: it
// waits for its owner, then goes on.
import { afterEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src/main/core/app-core.ts';
import { createHandlers } from '../../src/main/core/ipc-handlers.ts';
import { OTHER_ACCOUNT } from '../../src/sandbox/state.ts';
import { firstTemplateId, recorderChunks, startCore, waitForJob } from './support/core.ts';

let core: AppCore | null = null;
afterEach(async () => {
  await core?.stop();
  core = null;
});

const NO_SUCH = 'That consult is not on this computer, or it belongs to another clinic’s account.';

describe('two accounts of two clinics on one computer', () => {
  it("each sees only its clinic's consults, and an unfinished consult waits for its owner's sign-in", async () => {
    core = await startCore({ sandbox: { scribeSeconds: 0.3 } });
    const c = core;
    const h = createHandlers(c);
    const demo = c.appInfo().sandbox?.demo;
    if (!demo) throw new Error('no sandbox');
    const record = async (patientName: string) => {
      const started = await h['recording:start']({ mimeType: 'audio/webm;codecs=opus', patientName });
      if (!started.ok) throw new Error(started.error.message);
      for (const [seq, data] of recorderChunks().entries()) await h['recording:chunk']({ id: started.data.id, seq, data: new Uint8Array(data), elapsedMs: (seq + 1) * 1000 });
      await h['recording:stop']({ id: started.data.id, durationMs: 5000 });
      return started.data.id;
    };

    // Dr. Demo Vet records Bella and signs out before sending it: signed out, no one's consults
    // are listed or acted on.
    await c.session.signIn(demo.email, demo.password);
    const template = await firstTemplateId(c);
    const bella = await record('Bella');
    expect(c.consult(bella)?.recording.recordedBy).toMatchObject({ email: demo.email, name: 'Dr. Demo Vet' });
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
    expect(listed.ok && listed.data.map((x) => [x.recording.patientName, x.recording.recordedBy?.email])).toEqual([['Rex', OTHER_ACCOUNT.email]]);
    await c.session.signOut('user');

    // Back as Dr. Demo Vet: Bella is listed, sent with the owner's sign-in, and finishes; Rex is not listed.
    await c.session.signIn(demo.email, demo.password);
    expect((await h['consults:submit']({ id: bella, templateId: template })).ok).toBe(true);
    expect((await waitForJob(c, bella, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe('completed');
    const mine = await h['consults:list'](undefined);
    expect(mine.ok && mine.data.map((x) => x.recording.patientName)).toEqual(['Bella']);
  });

  it("a consult waiting to be sent is never sent with another account's sign-in: it says whose it is and goes on when its owner signs in", async () => {
    core = await startCore({ sandbox: { scribeSeconds: 0.3 } });
    const c = core;
    const h = createHandlers(c);
    const demo = c.appInfo().sandbox?.demo;
    if (!demo) throw new Error('no sandbox');
    await c.session.signIn(demo.email, demo.password);
    const template = await firstTemplateId(c);
    const started = await h['recording:start']({ mimeType: 'audio/webm;codecs=opus', patientName: 'Bella', templateId: template });
    if (!started.ok) throw new Error(started.error.message);
    const id = started.data.id;
    for (const [seq, data] of recorderChunks().entries()) await h['recording:chunk']({ id, seq, data: new Uint8Array(data), elapsedMs: (seq + 1) * 1000 });
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
