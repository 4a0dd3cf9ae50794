// A vet's unsaved edit of a note is theirs: on a shared exam-room PC, the colleague who opens the
// same note after Switch user neither sees it, nor saves it as their own, nor throws it away; the
// vet finds it again at their next sign-in. Through the sandbox over real HTTP, the real engine,
// its handler table and its drafts folder on disk.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { createHandlers, type HandlerTable } from '../../../../src/main/core/ipc-handlers.ts';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.ts';
import { COLLEAGUE_ACCOUNT } from '../../../../src/sandbox/state.ts';
import { TEMPLATES } from '../../../../src/sandbox/templates.ts';
import type { JobInfo } from '../../../../src/shared/jobs.ts';
import { makeRecording, startCoreAgainst, tempDir, waitForJob } from '../../../support/core.ts';
import { ok } from '../support.ts';

const SOAP = TEMPLATES.find((t) => t.name === 'SOAP')!.public_id;
const OTHER_TEMPLATE = TEMPLATES.find((t) => t.name !== 'SOAP')!;
const DEMO_TYPED = 'S: Bella vomited twice.\nP: Recheck Friday — typed by the demo vet, not saved.';

let sandbox: Sandbox;
const cores: AppCore[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimitPerMinute: 0, scribeSeconds: 0.2 });
});
afterEach(async () => {
  while (cores.length) await cores.pop()?.stop();
});
afterAll(async () => {
  await sandbox.close();
});

async function start(dataDir = tempDir()): Promise<{ c: AppCore; h: HandlerTable }> {
  const c = await startCoreAgainst(sandbox, { dataDir, pipeline: { pollDelay: () => 100 } });
  cores.push(c);
  return { c, h: createHandlers(c) };
}

async function signIn(h: HandlerTable, account: { email: string; password: string }): Promise<string> {
  const signed = await h['session:signIn'](account);
  if (!signed.ok) throw new Error(signed.error.message);
  return signed.data.user!.id;
}

/** The vet in front leaves (Switch user) and `next` signs in; their user id. */
async function switchTo(h: HandlerTable, next: { email: string; password: string }): Promise<string> {
  expect((await h['session:switchUser'](undefined)).ok).toBe(true);
  return signIn(h, next);
}

/** The demo vet's consult of Bella, its note written. */
async function demoConsult(c: AppCore): Promise<string> {
  const id = await makeRecording(c, null, null, { patientName: 'Bella' });
  await c.pipeline.submit(id, SOAP);
  expect((await waitForJob(c, id, (j: JobInfo) => j.state === 'completed' || j.state === 'failed')).state).toBe(
    'completed',
  );
  return id;
}

/** The text of the draft `consults:draft` answers the vet in front, or null. */
async function draftText(h: HandlerTable, id: string): Promise<string | null> {
  const answer = await h['consults:draft']({ id });
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.data?.text ?? null;
}

describe("a vet's unsaved edit is theirs", () => {
  it('after Switch user, a colleague of the same clinic does not see it, and their Save and Discard leave it; the vet finds it again', async () => {
    const { c, h } = await start();
    const demo = await signIn(h, sandbox.demo);
    const id = await demoConsult(c);
    await ok(h['consults:saveDraft']({ id, text: DEMO_TYPED }));
    expect(await draftText(h, id)).toBe(DEMO_TYPED);

    const colleague = await switchTo(h, COLLEAGUE_ACCOUNT);
    // Not "Your changes": the colleague has none. They are told whose unsaved changes there are, not what.
    expect(await draftText(h, id)).toBeNull();
    const note = await ok(h['consults:note']({ id }));
    expect(note.othersEditing).toEqual(['Dr. Demo Vet']);
    expect(JSON.stringify(note)).not.toContain('typed by the demo vet');
    // Their own edit is theirs, and Discard throws away only that.
    await ok(h['consults:saveDraft']({ id, text: 'The colleague starts an edit.' }));
    expect(await draftText(h, id)).toBe('The colleague starts an edit.');
    await ok(h['consults:saveDraft']({ id, text: null }));
    expect(await draftText(h, id)).toBeNull();
    // Their Save files their text, as their edit, and clears their draft only.
    await ok(h['consults:saveDraft']({ id, text: 'The colleague’s edit, saved.' }));
    await ok(h['consults:saveNote']({ id, text: 'The colleague’s edit, saved.' }));
    expect(await draftText(h, id)).toBeNull();
    expect(c.pipeline.note(id).editedNote).toBe('The colleague’s edit, saved.');
    const trail = await ok(h['consults:trail']({ id }));
    expect(trail.entries.filter((e) => e.action === 'edited').map((e) => [e.userId, e.name])).toEqual([
      [colleague, 'Dr. Colleague Vet'],
    ]);

    await switchTo(h, sandbox.demo);
    const back = await ok(h['consults:draft']({ id }));
    expect(back?.text).toBe(DEMO_TYPED);
    // Her own draft is not "another vet's", and the colleague has none left.
    expect((await ok(h['consults:note']({ id }))).othersEditing).toEqual([]);
    // Her edit is still hers to save: the trail names her for it.
    await ok(h['consults:saveNote']({ id, text: DEMO_TYPED }));
    expect(c.pipeline.note(id).editedNote).toBe(DEMO_TYPED);
    const after = await ok(h['consults:trail']({ id }));
    expect(after.entries.filter((e) => e.action === 'edited').map((e) => e.userId)).toEqual([colleague, demo]);
    expect(await draftText(h, id)).toBeNull();

    // The folder names no vet: no e-mail, name or user id in a file name.
    const dir = join(c.options.dataDir, 'drafts');
    for (const name of readdirSync(dir))
      for (const said of [demo, colleague, sandbox.demo.email, COLLEAGUE_ACCOUNT.email, 'Demo', 'Colleague'])
        expect(name).not.toContain(said);
  }, 60_000);

  it('a further document’s draft is the vet’s too', async () => {
    const { c, h } = await start();
    await signIn(h, sandbox.demo);
    const id = await demoConsult(c);
    const added = await ok(
      h['consults:addDocument']({ id, templateId: OTHER_TEMPLATE.public_id, templateName: OTHER_TEMPLATE.name }),
    );
    const documentId = added.job!.documents.at(-1)!.id;
    await waitForJob(c, id, (j) => j.documents.some((d) => d.id === documentId && d.hasNote));
    await ok(h['consults:saveDraft']({ id, documentId, text: 'Typed by the demo vet.' }));

    await switchTo(h, COLLEAGUE_ACCOUNT);
    expect(await ok(h['consults:draft']({ id, documentId }))).toBeNull();
    await ok(h['consults:saveDraft']({ id, documentId, text: null }));
    await ok(h['consults:saveNote']({ id, documentId, text: 'The colleague’s.' }));

    await switchTo(h, sandbox.demo);
    expect((await ok(h['consults:draft']({ id, documentId })))?.text).toBe('Typed by the demo vet.');
  }, 60_000);

  it('deleting the consult removes every vet’s drafts of it, older ones and leftovers of a write included', async () => {
    const { c, h } = await start();
    await signIn(h, sandbox.demo);
    const id = await demoConsult(c);
    const other = await demoConsult(c);
    await ok(h['consults:saveDraft']({ id, text: 'the demo vet’s' }));
    await ok(h['consults:saveDraft']({ id: other, text: 'kept: another consult' }));
    await switchTo(h, COLLEAGUE_ACCOUNT);
    await ok(h['consults:saveDraft']({ id, text: 'the colleague’s' }));
    const dir = join(c.options.dataDir, 'drafts');
    // As an older version left it, and a write cut short.
    writeFileSync(join(dir, `${id}.json`), JSON.stringify({ text: 'older', savedAt: new Date().toISOString() }));
    const mine = readdirSync(dir).filter((f) => f.startsWith(`${id}+`));
    expect(mine).toHaveLength(2);
    writeFileSync(join(dir, `${mine[0]}.0b6d3c4e-1f2a-4b5c-8d9e-0f1a2b3c4d5e.tmp`), '{"text":"half');

    await switchTo(h, sandbox.demo);
    expect(await ok(h['consults:delete']({ id }))).toEqual({ deleted: true });
    expect(readdirSync(dir).filter((f) => f.startsWith(id))).toEqual([]);
    expect(await draftText(h, other)).toBe('kept: another consult');
  }, 60_000);
});

describe('drafts an older version kept, with no vet', () => {
  it('are the recording vet’s after a restart: the colleague neither sees nor removes one; the vet finds it, and it goes once she saves over it', async () => {
    const dataDir = tempDir();
    const first = await start(dataDir);
    await signIn(first.h, sandbox.demo);
    const id = await demoConsult(first.c);
    await first.c.stop();
    cores.splice(cores.indexOf(first.c), 1);
    // As an older version wrote it: one draft per consult, whoever typed it.
    const older = join(dataDir, 'drafts', `${id}.json`);
    mkdirSync(join(dataDir, 'drafts'), { recursive: true });
    const kept = { text: 'Typed before the update.', savedAt: '2026-11-26T09:20:00.000Z' };
    writeFileSync(older, JSON.stringify(kept));

    const { c, h } = await start(dataDir);
    await signIn(h, COLLEAGUE_ACCOUNT);
    expect(await draftText(h, id)).toBeNull();
    expect((await ok(h['consults:note']({ id }))).othersEditing).toEqual(['Dr. Demo Vet']);
    await ok(h['consults:saveDraft']({ id, text: 'The colleague’s.' }));
    await ok(h['consults:saveDraft']({ id, text: null }));
    await ok(h['consults:saveNote']({ id, text: 'The colleague’s edit.' }));
    expect(JSON.parse(readFileSync(older, 'utf8'))).toEqual(kept);

    await switchTo(h, sandbox.demo);
    expect(await ok(h['consults:draft']({ id }))).toEqual(kept);
    await ok(h['consults:saveDraft']({ id, text: 'Typed before the update, and after.' }));
    expect(existsSync(older)).toBe(false);
    expect(await draftText(h, id)).toBe('Typed before the update, and after.');
    expect(c.pipeline.note(id).editedNote).toBe('The colleague’s edit.');
  }, 60_000);
});
