// The clinic's consults from the service: two exam-room computers (two data folders) against
// one sandbox over real HTTP. A consult recorded on the first shows on the second as from the
// service, its note read and copied there, and never twice on the first; another clinic sees
// none of it; lists that page wrongly are read bounded and once per item; a list that fails
// leaves the last copy; the copy opens offline after a restart; a pair the clinic relay names
// puts a listed note under its visit without reading the lists again.
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { MAX_ITEMS, MAX_PAGES } from '../../../../src/main/core/service/pages.ts';
import { createHandlers, type HandlerTable } from '../../../../src/main/core/ipc-handlers.ts';
import { MemorySecretStore } from '../../../../src/main/core/sign-in/secret-store.ts';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.ts';
import { OTHER_ACCOUNT, COLLEAGUE_ACCOUNT } from '../../../../src/sandbox/state.ts';
import { firstTemplateId, recordThrough, startCoreAgainst, tempDir, waitForJob } from '../../../support/core.ts';
import { closedAfterEach, ok } from '../support.ts';
import { list, notesIn, refresh } from './support.ts';
import type { ClinicView } from '../../../../src/shared/clinic.ts';

const atEnd = closedAfterEach();

async function computer(sandbox: Sandbox, dataDir = tempDir(), secretStore = new MemorySecretStore()) {
  const core: AppCore<Sandbox> = await startCoreAgainst(sandbox, { dataDir, secretStore });
  atEnd(() => core.stop());
  return { core, h: createHandlers(core), dataDir, secretStore };
}

function listCalls(sandbox: Sandbox): number {
  return Object.entries(sandbox.stats().byRoute)
    .filter(([route]) => /scribe\/all|recording-sessions\/all/.test(route))
    .reduce((n, [, count]) => n + count, 0);
}

/**
 * A sandbox and two computers on it: exam room 2 with the demo vet signed in, and the office with
 * `officeVet` (the demo vet too unless told); the first template.
 */
async function twoComputers(officeVet?: { email: string; password: string }) {
  const sandbox = await startSandbox({ scribeSeconds: 0.3, rateLimitPerMinute: 0 });
  atEnd(() => sandbox.close());
  const room2 = await computer(sandbox);
  const office = await computer(sandbox);
  await room2.core.session.signIn(sandbox.demo.email, sandbox.demo.password);
  const vet = officeVet ?? sandbox.demo;
  await office.core.session.signIn(vet.email, vet.password);
  return { sandbox, room2, office, template: await firstTemplateId(room2.core) };
}

async function recordAndSend(core: AppCore, h: HandlerTable, patient: string, template: string): Promise<string> {
  const id = await recordThrough(h, patient, 'Coughing for three days');
  await ok(h['consults:submit']({ id, templateId: template }));
  const job = await waitForJob(core, id, (j) => j.state === 'completed' || j.state === 'failed');
  expect(job.state).toBe('completed');
  return id;
}

describe("the clinic's consults, two exam-room computers and one service", () => {
  it('shows a consult recorded on the other computer, reads and copies its note, never twice, never to another clinic, and offline from the last copy', async () => {
    const { sandbox, room2, office, template } = await twoComputers(COLLEAGUE_ACCOUNT);

    // Exam room 2 records Bella, and one more document of the same consult.
    const bella = await recordAndSend(room2.core, room2.h, 'Bella', template);
    const templates = await ok(room2.h['templates:list']({ page: 1 }));
    const other = templates.items.find((t) => t.id !== template)!;
    await ok(room2.h['consults:addDocument']({ id: bella, templateId: other.id, templateName: other.name }));
    await waitForJob(room2.core, bella, (j) => j.documents[0]?.state === 'completed');

    // On the computer that recorded it, nothing of it comes again from the service.
    const here = await refresh(room2.h);
    expect(here.error).toBeNull();
    expect(here.consults).toEqual([]);

    // At the office, the colleague of the same clinic sees it as from the service: one row, the
    // session by its patient, with the two notes written then as its candidates by date and
    // template (the published lists link no note to its session, and none is guessed).
    const there = await refresh(office.h);
    expect(there.error).toBeNull();
    expect(there.consults).toHaveLength(1);
    const notes = notesIn(there.consults);
    const sessions = there.consults.filter((c) => c.scribeId === null);
    expect(notes).toHaveLength(2);
    expect(sessions[0]!.candidates).toEqual(notes);
    expect(notes.every((c) => c.patientName === null && c.templateName !== null && c.status === 'scribed')).toBe(true);
    expect(sessions.map((c) => [c.patientName, c.description])).toEqual([['Bella', 'Coughing for three days']]);

    // Its note is read there and copied as text, HTML and RTF.
    const first = notes[0]!;
    const note = await ok(office.h['clinic:note']({ key: first.key }));
    expect(note.note).toContain('Bella');
    const formats = await ok(office.h['clinic:noteFormats']({ key: first.key }));
    expect(formats.text).toContain('Bella');
    expect(formats.html).toMatch(/^<.*Bella/s);
    expect(formats.rtf.startsWith('{\\rtf1')).toBe(true);
    // Whose note it is comes first, and here the service does not say: in each flavour.
    expect(formats.text).toMatch(/^Patient not named by the service \u2014 /);
    expect(formats.html).toMatch(/^<h1>Patient not named by the service \u2014 /);
    expect(formats.rtf).toContain('Patient not named by the service');
    expect(formats.fileBase).not.toContain('not named');
    const pdf = await ok(office.h['clinic:export']({ key: first.key, format: 'pdf' }));
    expect(new TextDecoder().decode(pdf.data.slice(0, 5))).toBe('%PDF-');
    expect(notesIn((await list(office.h)).consults).find((c) => c.key === first.key)?.noteKept).toBe(true);
    // A session with no note linked has no note to open: one sentence.
    const noNote = await office.h['clinic:note']({ key: sessions[0]!.key });
    expect(noNote).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'The service has no note linked to this consult.' },
    });
    // A key that is not a consult of the list is refused before it goes anywhere.
    expect((await office.h['clinic:note']({ key: '../../etc/passwd' })).ok).toBe(false);

    // The office records Rex: it is the office's own, listed there once (never from the service),
    // and it shows in exam room 2.
    await recordAndSend(office.core, office.h, 'Rex', template);
    const officeAfter = await refresh(office.h);
    expect(officeAfter.consults.some((c) => c.patientName === 'Rex')).toBe(false);
    expect(notesIn(officeAfter.consults)).toHaveLength(2);
    expect((await refresh(room2.h)).consults.map((c) => c.patientName)).toContain('Rex');
    // Bella deleted in exam room 2 stays deleted there: she does not come back as recorded elsewhere.
    await ok(room2.h['consults:delete']({ id: bella }));
    expect((await refresh(room2.h)).consults.some((c) => c.patientName === 'Bella')).toBe(false);
    expect(notesIn((await refresh(room2.h)).consults)).toHaveLength(1);

    // A vet of another clinic at the office computer sees none of it, from disk or the service.
    await office.core.session.signOut('user');
    expect(await list(office.h)).toEqual({ consults: [], refreshedAt: null, error: null, truncated: false });
    await office.core.session.signIn(OTHER_ACCOUNT.email, OTHER_ACCOUNT.password);
    expect((await list(office.h)).consults).toEqual([]);
    expect((await refresh(office.h)).consults).toEqual([]);
    expect((await office.h['clinic:note']({ key: first.key })).ok).toBe(false);
    await office.core.session.signOut('user');
    await office.core.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    expect(notesIn((await list(office.h)).consults).map((c) => c.key)).toContain(first.key);

    // Offline: the service is gone and the app restarts; the copy and its note open as they were.
    const before = await list(office.h);
    await office.core.stop();
    await sandbox.close();
    const again = await computer(sandbox, office.dataDir, office.secretStore);
    const offline = await list(again.h);
    expect(offline.consults).toEqual(before.consults);
    expect((await ok(again.h['clinic:note']({ key: first.key }))).note).toBe(note.note);
    const failed = await refresh(again.h);
    expect(failed.error).toMatch(/^Could not refresh the clinic's consults: .+\.$/);
    expect(failed.consults).toEqual(before.consults);
    // One copy file per account on disk (the colleague's and the other clinic's vet's), no temp left.
    expect(readdirSync(join(office.dataDir, 'clinic')).filter((f) => /^[0-9a-f]{32}\.json$/.test(f))).toHaveLength(2);
    expect(readdirSync(join(office.dataDir, 'clinic')).some((f) => f.endsWith('.tmp'))).toBe(false);
  }, 60_000);

  it('puts a listed note under its visit when the clinic relay names the pair, with no read of the lists, for its own organization only', async () => {
    const { sandbox, room2, office, template } = await twoComputers(COLLEAGUE_ACCOUNT);
    const bella = await recordAndSend(room2.core, room2.h, 'Bella', template);
    const [scribeId] = room2.core.pipeline.serviceIds(bella).scribeIds;
    const [recordingSessionId] = room2.core.pipeline.serviceIds(bella).recordingSessionIds;
    // Read before the pair is known: the note by its date, the visit by its patient.
    const there = await refresh(office.h);
    expect(notesIn(there.consults).find((c) => c.scribeId === scribeId)?.patientName).toBeNull();
    const told: ClinicView[] = [];
    office.core.on('clinic:changed', (view) => told.push(view));
    const reads = listCalls(sandbox);
    const link = {
      scribeId: scribeId!,
      recordingSessionId: recordingSessionId!,
      status: 'scribed',
      organizationId: office.core.session.state().user!.organizationId,
    };

    // Another organization's pair, or one for a consult of this computer, is not this list's.
    await office.core.clinic.heardLink({ ...link, organizationId: 'another-clinic' });
    await room2.core.clinic.heardLink(link);
    expect(told).toEqual([]);
    expect((await list(office.h)).consults).toEqual(there.consults);
    expect((await list(room2.h)).consults).toEqual([]);

    await office.core.clinic.heardLink(link);
    const now = await list(office.h);
    expect(now.consults.filter((c) => c.scribeId === scribeId || c.recordingSessionId === recordingSessionId)).toEqual([
      expect.objectContaining({ scribeId, recordingSessionId, patientName: 'Bella', status: 'scribed' }),
    ]);
    expect(told.at(-1)).toEqual(now);
    expect(now.refreshedAt).toBe(there.refreshedAt);
    expect(listCalls(sandbox)).toBe(reads);
    // Heard again (the relay's events of one consult each name it): nothing more to tell.
    await office.core.clinic.heardLink(link);
    expect(told).toHaveLength(1);
  });

  it('reads lists that page wrongly bounded and once per item, and a failing list leaves the last copy', async () => {
    const { sandbox, room2, office, template } = await twoComputers();
    for (const patient of ['Bella', 'Milo', 'Luna']) await recordAndSend(room2.core, room2.h, patient, template);
    const good = await refresh(office.h);
    // Three visits, each with the three notes written minutes apart as its candidates.
    expect(good.consults).toHaveLength(3);
    expect(good.consults.map((c) => c.candidates?.length)).toEqual([3, 3, 3]);
    const keys = good.consults.map((c) => c.key).sort();
    // The sandbox's lists as published: page 1 of 50 by default, has_next, no total.
    const raw = (path: string) =>
      office.core.session.withToken(async (t) => {
        const answer = await fetch(`${sandbox.urls.scribe_url}${path}`, { headers: { authorization: `Bearer ${t}` } });
        return (await answer.json()) as { items: { public_id: string }[]; has_next: boolean };
      });
    expect(await raw('/scribe/all')).toMatchObject({ has_next: false, current_page: 1, items_per_page: 50 });
    expect((await raw('/recording-sessions/all?page=1&limit=2')).has_next).toBe(true);

    // An empty page that says has_next: the list ends there (sandbox: page 2 on is empty).
    sandbox.options.listFault = 'empty-page';
    let calls = listCalls(sandbox);
    const empty = await refresh(office.h);
    expect(empty.error).toBeNull();
    expect(empty.consults.map((c) => c.key).sort()).toEqual(keys);
    expect(listCalls(sandbox) - calls).toBe(4);

    // The same item on two pages: listed once.
    sandbox.options.listFault = 'repeat';
    const [page1, page2] = [await raw('/scribe/all?limit=2'), await raw('/scribe/all?page=2&limit=2')];
    expect(page2.items[0]?.public_id).toBe(page1.items[1]?.public_id);
    expect((await refresh(office.h)).consults.map((c) => c.key).sort()).toEqual(keys);

    // Thousands of items: read up to the bound, each once, and the list says it is not all.
    sandbox.options.listFault = 'thousands';
    calls = listCalls(sandbox);
    const many = await refresh(office.h);
    expect(many.error).toBeNull();
    expect(many.truncated).toBe(true);
    expect(many.consults.length).toBeLessThanOrEqual(2 * MAX_ITEMS);
    expect(new Set(many.consults.map((c) => c.key)).size).toBe(many.consults.length);
    expect(listCalls(sandbox) - calls).toBeLessThanOrEqual(2 * MAX_PAGES);

    // A failing list: the last copy stays as it was, with one sentence.
    sandbox.options.listFault = 'none';
    const kept = await refresh(office.h);
    sandbox.options.listFault = 'fail';
    const failed = await refresh(office.h);
    expect(failed.error).toMatch(/^Could not refresh the clinic's consults: .+\.$/);
    expect(failed.consults).toEqual(kept.consults);
    expect(failed.refreshedAt).toBe(kept.refreshedAt);
    // This computer's consults are untouched by it.
    expect((await ok(room2.h['consults:list'](undefined))).length).toBe(3);
    sandbox.options.listFault = 'none';
    expect((await refresh(office.h)).error).toBeNull();
  }, 60_000);
});
