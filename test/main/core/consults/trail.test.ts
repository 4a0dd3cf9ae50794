// Who did what to a consult, through the real IPC handlers: two vets of one clinic on one
// computer, the sandbox over real HTTP, real files. A colleague reads and edits a sent note and
// the trail names them; an unsent consult and a deletion stay the recording vet's; an entry
// that cannot be written refuses its action as a whole; each vet keeps their own last template.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import type { ConsultInfo } from '../../../../src/shared/ipc.ts';
import { ConsultTrail } from '../../../../src/main/core/consults/trail.ts';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { COLLEAGUE_ACCOUNT } from '../../../../src/sandbox/state.ts';
import { recorderChunks, recordThrough, startCore, tempDir, waitForJob } from '../../../support/core.ts';

let core: AppCore | null = null;
afterEach(async () => {
  await core?.stop();
  core = null;
});

async function demoSignedIn(dataDir = tempDir()) {
  core = await startCore({ dataDir });
  const c = core;
  const demo = c.appInfo().sandbox?.demo;
  if (!demo) throw new Error('no sandbox');
  await c.session.signIn(demo.email, demo.password);
  const page = await c.session.withToken((t) => c.client.templates(t, 1, 50));
  const [first, second] = page.items;
  if (!first || !second) throw new Error('the sandbox has fewer than two templates');
  return { c, h: createHandlers(c), demo, templates: [first.id, second.id] as const, dataDir };
}

async function switchTo(c: AppCore, account: { email: string; password: string }) {
  await c.session.signOut('user');
  await c.session.signIn(account.email, account.password);
}

const folderOf = (c: AppCore, id: string) => dirname(c.recordings.audioPath(id));

describe('the trail and the owner’s (the recording vet’s) rights on a shared PC', () => {
  it('a colleague reads, edits and copies a sent note with their name in its trail; sending or deleting the other vet’s consult is refused in one sentence', async () => {
    const { c, h, demo, templates } = await demoSignedIn();
    const sent = await recordThrough(h, 'Bella');
    expect((await h['consults:submit']({ id: sent, templateId: templates[0] })).ok).toBe(true);
    await waitForJob(c, sent, (j) => j.state === 'completed');
    const unsent = await recordThrough(h, 'Rex');
    const owner = c.cache.consult(sent)?.recording.recordedBy?.name ?? '';
    expect(owner).not.toBe('');
    const ownerId = c.session.state().user?.id;

    await switchTo(c, COLLEAGUE_ACCOUNT);
    const colleague = c.session.state().user;
    expect(colleague?.id).not.toBe(ownerId);
    expect((await h['consults:note']({ id: sent })).ok).toBe(true);
    expect(await h['consults:saveNote']({ id: sent, text: '## Plan\nCarprofen instead.' })).toEqual({
      ok: true,
      data: { saved: true },
    });
    expect((await h['consults:noteUsed']({ id: sent, action: 'copied' })).ok).toBe(true);
    expect((await h['consults:export']({ id: sent, format: 'txt' })).ok).toBe(true);

    // The colleague is told before asking: each consult of the other vet says who may delete it.
    const listed = await h['consults:list'](undefined);
    expect(listed.ok && listed.data.map((x) => [x.recording.patientName, x.deleteRefused]).sort()).toEqual([
      ['Bella', `Only ${owner} can delete this consult.`],
      ['Rex', `Only ${owner} can delete this consult.`],
    ]);
    // And who may send, change, retry or ask again for the unsent one; the sent one is shared.
    const refusals = (x: ConsultInfo) => [x.sendRefused, x.changeRefused, x.retryRefused, x.askAgainRefused];
    const byName = new Map(listed.ok ? listed.data.map((x) => [x.recording.patientName, x]) : []);
    expect(refusals(byName.get('Rex')!)).toEqual([
      `Only ${owner} can send this consult.`,
      `Only ${owner} can change this consult.`,
      `Only ${owner} can retry this consult.`,
      `Only ${owner} can ask again for this consult's note.`,
    ]);
    expect(refusals(byName.get('Bella')!)).toEqual([undefined, undefined, undefined, undefined]);
    // Each sentence is the one a click would be refused with.
    expect(await h['consults:retry']({ id: unsent })).toEqual({
      ok: false,
      error: { code: 'not_owner', message: `Only ${owner} can retry this consult.` },
    });
    // Deletion is the recording vet's, sent or not; so is sending, or changing, an unsent one.
    expect(await h['consults:delete']({ id: sent })).toEqual({
      ok: false,
      error: { code: 'not_owner', message: `Only ${owner} can delete this consult.` },
    });
    expect(await h['consults:delete']({ id: unsent })).toEqual({
      ok: false,
      error: { code: 'not_owner', message: `Only ${owner} can delete this consult.` },
    });
    expect(await h['consults:submit']({ id: unsent, templateId: templates[0] })).toEqual({
      ok: false,
      error: { code: 'not_owner', message: `Only ${owner} can send this consult.` },
    });
    expect(await h['consults:update']({ id: unsent, patientName: 'Max' })).toEqual({
      ok: false,
      error: { code: 'not_owner', message: `Only ${owner} can change this consult.` },
    });
    expect(existsSync(folderOf(c, sent)) && existsSync(folderOf(c, unsent))).toBe(true);
    expect(c.pipeline.info(unsent)).toBeNull();

    const trail = await h['consults:trail']({ id: sent });
    if (!trail.ok) throw new Error(trail.error.message);
    expect(trail.data.entries.map((e) => [e.action, e.userId, e.name])).toEqual([
      ['recorded', ownerId, owner],
      ['sent', ownerId, owner],
      ['edited', colleague?.id, colleague?.name],
      ['copied', colleague?.id, colleague?.name],
      ['exported', colleague?.id, colleague?.name],
    ]);
    for (const e of trail.data.entries) expect(Number.isNaN(Date.parse(e.at))).toBe(false);

    // The vet who recorded it deletes it; the deletion outlives the consult's folder.
    await switchTo(c, demo);
    const own = await h['consults:list'](undefined);
    expect(own.ok && own.data.map((x) => x.deleteRefused)).toEqual([undefined, undefined]);
    expect(own.ok && own.data.flatMap(refusals).filter((x) => x !== undefined)).toEqual([]);
    expect(await h['consults:delete']({ id: sent })).toEqual({ ok: true, data: { deleted: true } });
    expect(existsSync(folderOf(c, sent))).toBe(false);
    const deletions = readFileSync(join(c.options.dataDir, 'deleted-consults.jsonl'), 'utf8').trim().split('\n');
    expect(JSON.parse(deletions.at(-1) ?? '{}')).toMatchObject({
      id: sent,
      patientName: 'Bella',
      action: 'deleted',
      userId: ownerId,
    });
  });

  it('an entry that cannot be written (a folder in the trail file’s place) refuses the edit, the copy and the deletion as a whole, and says so; nothing is lost', async () => {
    const { c, h, templates } = await demoSignedIn();
    const id = await recordThrough(h, 'Bella');
    await h['consults:submit']({ id, templateId: templates[0] });
    await waitForJob(c, id, (j) => j.state === 'completed');
    const before = c.pipeline.note(id, null);

    const trailFile = join(folderOf(c, id), 'trail.jsonl');
    rmSync(trailFile);
    mkdirSync(trailFile);
    expect((await h['consults:saveDraft']({ id, text: 'My edit' })).ok).toBe(true);
    const save = await h['consults:saveNote']({ id, text: 'My edit' });
    expect(save).toMatchObject({ ok: false, error: { code: 'io' } });
    expect(save.ok ? '' : save.error.message).toBe(
      'Nothing was done: the consult’s history could not be written to this computer’s disk; try again.',
    );
    // The note is as it was and the vet's edit is still kept as a draft.
    expect(c.pipeline.note(id, null)).toEqual(before);
    expect(await h['consults:draft']({ id })).toMatchObject({ ok: true, data: { text: 'My edit' } });
    expect((await h['consults:noteUsed']({ id, action: 'printed' })).ok).toBe(false);

    // A deletion that cannot be noted is refused: the consult stays.
    rmSync(trailFile, { recursive: true });
    mkdirSync(join(c.options.dataDir, 'deleted-consults.jsonl'));
    expect(await h['consults:delete']({ id })).toMatchObject({ ok: false, error: { code: 'io' } });
    expect(existsSync(c.recordings.audioPath(id))).toBe(true);

    // Stop with a template and a patient sends at once; not when "sent" cannot be noted: the
    // recording is kept, finished, and says how to send it.
    const started = await h['recording:start']({
      mimeType: 'audio/webm;codecs=opus',
      patientName: 'Rex',
      templateId: templates[0],
    });
    if (!started.ok) throw new Error(started.error.message);
    const rex = started.data.id;
    await h['recording:chunk']({ id: rex, seq: 0, data: new Uint8Array(recorderChunks()[0]!), elapsedMs: 1000 });
    rmSync(join(folderOf(c, rex), 'trail.jsonl'));
    mkdirSync(join(folderOf(c, rex), 'trail.jsonl'));
    const stopped = await h['recording:stop']({ id: rex, durationMs: 1000 });
    expect(stopped.ok ? '' : stopped.error.message).toBe(
      'The recording is kept but was not sent: its history could not be written to this computer’s disk; send it from Consults.',
    );
    expect(c.pipeline.info(rex)).toBeNull();
    expect(c.cache.consult(rex)?.recording.state).toBe('finished');

    // Writable again: the edit goes through, and the trail holds what happened, not what was refused.
    expect((await h['consults:saveNote']({ id, text: 'My edit' })).ok).toBe(true);
    const trail = await h['consults:trail']({ id });
    expect(trail.ok && trail.data.entries.map((e) => e.action)).toEqual(['edited']);
  });

  it('each vet’s last template is their own: the next patient of one gets theirs, a colleague signing in next gets their own or none', async () => {
    const { c, h, demo, templates } = await demoSignedIn();
    const [mine, theirs] = templates;
    const lastTemplate = async () => {
      const s = await h['settings:get'](undefined);
      if (!s.ok) throw new Error(s.error.message);
      return s.data.lastTemplateId;
    };
    const first = await recordThrough(h, 'Bella');
    expect((await h['consults:submit']({ id: first, templateId: mine })).ok).toBe(true);
    expect(await lastTemplate()).toBe(mine);

    await switchTo(c, COLLEAGUE_ACCOUNT);
    expect(await lastTemplate()).toBeNull();
    const second = await recordThrough(h, 'Rex');
    expect((await h['consults:submit']({ id: second, templateId: theirs })).ok).toBe(true);
    expect(await lastTemplate()).toBe(theirs);

    await c.session.signOut('user');
    expect(await lastTemplate()).toBeNull();
    await c.session.signIn(demo.email, demo.password);
    expect(await lastTemplate()).toBe(mine);

    // Kept across a restart, per vet.
    const dataDir = c.options.dataDir;
    await c.stop();
    core = null;
    const again = await demoSignedIn(dataDir);
    expect(
      await (async () => {
        const s = await again.h['settings:get'](undefined);
        return s.ok ? s.data.lastTemplateId : 'error';
      })(),
    ).toBe(mine);
  });

  it('stays bounded: past its size it keeps its first entry and the newest; a line cut short is left out; other core code adds entries', async () => {
    const dir = tempDir('vet-scribe-trail-');
    mkdirSync(join(dir, 'c1'));
    const vet = { id: 'u1', email: 'a@b.test', name: 'Dr. A', organizationId: 'o1' };
    const trail = new ConsultTrail({
      folder: (id) => join(dir, id),
      deletionsFile: join(dir, 'deleted.jsonl'),
    });
    await trail.add('c1', 'recorded', { who: vet });
    for (let i = 0; i < 1000; i++) await trail.add('c1', i % 2 ? 'copied' : 'printed', { who: vet });
    await trail.add('c1', 'conversation', { who: vet });
    expect(statSync(join(dir, 'c1', 'trail.jsonl')).size).toBeLessThanOrEqual(64 * 1024);
    appendFileSync(join(dir, 'c1', 'trail.jsonl'), '{"action":"edi');
    const entries = await trail.read('c1');
    expect(entries.length).toBeLessThanOrEqual(200);
    expect(entries[0]).toMatchObject({ action: 'recorded', userId: 'u1', name: 'Dr. A' });
    expect(entries.at(-1)).toMatchObject({ action: 'conversation', userId: 'u1' });
  });
});
