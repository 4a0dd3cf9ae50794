// A conversation about a note of the clinic's from elsewhere, and that note found by its words.
// Two exam-room computers (two data folders) against one sandbox over real HTTP, the office's
// calls through a recording proxy: the note kept on the office's computer goes as the context of
// the first message, the conversation's id with the next; the turns are the account's, shown
// again by a new core on the same data folder and to no vet of another clinic; a note read is
// found by the words of its note, one unread is not.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { ActorAwayError } from '../../../../src/main/core/sign-in/actor.ts';
import { ClinicConversation } from '../../../../src/main/core/clinic/clinic-conversation.ts';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { MemorySecretStore } from '../../../../src/main/core/sign-in/secret-store.ts';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.ts';
import { COLLEAGUE_ACCOUNT, OTHER_ACCOUNT } from '../../../../src/sandbox/state.ts';
import { clinicMatches } from '../../../../src/shared/clinic.ts';
import type { ChatTurn } from '../../../../src/shared/ipc.ts';
import { startRecordingProxy } from '../../../support/recording-proxy.ts';
import { firstTemplateId, recordThrough, startCoreAgainst, tempDir, waitForJob } from '../../../support/core.ts';
import { closedAfterEach, ok } from '../support.ts';
import { list, notesIn, refresh } from './support.ts';

const atEnd = closedAfterEach();

describe("a note of the clinic's from elsewhere", () => {
  it('starts a conversation with the kept note, keeps its turns for the account alone, and is found by its words once read', async () => {
    const sandbox = await startSandbox({ scribeSeconds: 0.3, rateLimitPerMinute: 0 });
    atEnd(() => sandbox.close());
    const proxy = await startRecordingProxy(sandbox);
    atEnd(() => proxy.close());
    const room2 = await startCoreAgainst(sandbox, { dataDir: tempDir() });
    atEnd(() => room2.stop());
    const officeDir = tempDir();
    const secretStore = new MemorySecretStore();
    const startOffice = async () => {
      const core: AppCore<Sandbox> = await startCoreAgainst(sandbox, {
        urls: proxy.urls,
        dataDir: officeDir,
        secretStore,
      });
      atEnd(() => core.stop());
      return { core, h: createHandlers(core) };
    };
    const office = await startOffice();
    await room2.session.signIn(sandbox.demo.email, sandbox.demo.password);
    await office.core.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);

    // Exam room 2 records Bella and Milo; their notes reach the office as from the service.
    const h2 = createHandlers(room2);
    const template = await firstTemplateId(room2);
    for (const [patient, visit] of [
      ['Bella', 'Coughing for three days'],
      ['Milo', 'Limping on the left hind leg'],
    ] as const) {
      const id = await recordThrough(h2, patient, visit);
      await ok(h2['consults:submit']({ id, templateId: template }));
      expect((await waitForJob(room2, id, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe(
        'completed',
      );
    }
    const notes = notesIn((await refresh(office.h)).consults);
    expect(notes).toHaveLength(2);

    // Unread, a note is not found by the words of its note: its patient is not named in the list.
    expect(notes.filter((c) => clinicMatches(c, 'bella'))).toEqual([]);
    const bella = notes[0]!;
    // The first note listed: Bella's or Milo's (the list names neither), read at the office.
    const note = await ok(office.h['clinic:note']({ key: bella.key }));
    const [patient, other] = note.note.includes('Bella') ? ['Bella', 'Milo'] : ['Milo', 'Bella'];
    expect(note.note).toContain(patient);

    // Read, it is found by a word of its note (any case), the other note is not; the list's
    // other filters still work on it.
    // (Its visit is listed too, by its patient, with the notes of its time as its candidates.)
    const read = notesIn((await list(office.h)).consults);
    expect(read.filter((c) => clinicMatches(c, patient.toUpperCase())).map((c) => c.key)).toEqual([bella.key]);
    expect(read.filter((c) => clinicMatches(c, `${patient} ${other}`))).toEqual([]);
    expect(read.filter((c) => clinicMatches(c, bella.templateName!)).length).toBe(2);
    expect(read.find((c) => c.key !== bella.key)?.noteWords).toBeUndefined();

    // A conversation of two turns: the note kept on this computer as the first message's
    // context, the conversation's id with the second.
    const ask = (message: string) => ok<ChatTurn>(office.h['clinic:chat']({ key: bella.key, message }));
    expect(await ok(office.h['clinic:chatTurns']({ key: bella.key }))).toEqual([]);
    const first = await ask('  What should the pet owner watch for?\n');
    expect(first.message).toBe('What should the pet owner watch for?');
    expect(first.answer.length).toBeGreaterThan(0);
    const second = await ask('Check the doses in this plan');
    expect(second.answer).not.toContain('What should the pet owner watch for?');
    expect(second.answer).toMatch(/^With the note's weight|^The plan in the note gives|^The note gives no doses/);
    const sent = proxy.find('POST', '/chat').map((r) => r.json as Record<string, unknown>);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toEqual({ message: 'What should the pet owner watch for?', target_context: note.note.trim() });
    expect(sent[1]?.['target_context']).toBeUndefined();
    expect(typeof sent[1]?.['conversation_id']).toBe('string');
    // A session with no note, or a key not in the list, starts nothing.
    const session = (await list(office.h)).consults.find((c) => c.scribeId === null)!;
    expect(await office.h['clinic:chat']({ key: session.key, message: 'Hello' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'The service has no note linked to this consult.' },
    });
    expect((await office.h['clinic:chat']({ key: '../../etc/passwd', message: 'Hello' })).ok).toBe(false);
    expect(proxy.find('POST', '/chat')).toHaveLength(2);

    // Kept beside the account's copy, under hashed names only: no id of the service on disk.
    const folder = join(officeDir, 'clinic', 'conversations');
    const files = readdirSync(folder);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{32}\.[0-9a-f]{32}\.json$/);
    expect(files[0]).not.toContain(bella.scribeId!);
    expect(JSON.parse(readFileSync(join(folder, files[0]!), 'utf8')).turns).toHaveLength(2);

    // A restart: a new core on the same data folder shows the two turns; the third message
    // goes on with the same conversation.
    await office.core.stop();
    const again = await startOffice();
    const kept = await ok(again.h['clinic:chatTurns']({ key: bella.key }));
    expect(kept).toEqual([first, second]);
    const afterRestart = notesIn((await list(again.h)).consults);
    expect(afterRestart.filter((c) => clinicMatches(c, patient)).map((c) => c.key)).toEqual([bella.key]);

    // A vet of another clinic at the same computer: nothing of it, and nothing sent.
    await again.core.session.signOut('user');
    expect((await again.h['clinic:chatTurns']({ key: bella.key })).ok).toBe(false);
    await again.core.session.signIn(OTHER_ACCOUNT.email, OTHER_ACCOUNT.password);
    await refresh(again.h);
    expect(await again.h['clinic:chatTurns']({ key: bella.key })).toMatchObject({ ok: false });
    expect(await again.h['clinic:chat']({ key: bella.key, message: 'What was her temperature?' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(proxy.find('POST', '/chat')).toHaveLength(2);
    expect(readdirSync(folder)).toHaveLength(1);

    // The colleague again: the conversation is theirs still.
    await again.core.session.signOut('user');
    await again.core.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    expect(await ok(again.h['clinic:chatTurns']({ key: bella.key }))).toEqual([first, second]);

    // An answer that comes back after another vet of the clinic signed in (whose own copy lists
    // the same note) is kept in the asking vet's conversation only, and not shown to the next vet.
    const colleague = again.core.actors.current()!;
    const racing = new ClinicConversation({
      dataDir: officeDir,
      clinic: again.core.clinic,
      actors: again.core.actors,
      chat: async () => {
        await again.core.session.signOut('user');
        await again.core.session.signIn(sandbox.demo.email, sandbox.demo.password);
        expect(notesIn((await again.core.clinic.refresh()).consults).map((c) => c.key)).toContain(bella.key);
        return { output: 'Late answer', conversationId: 'late' };
      },
    });
    await expect(racing.ask(bella.key, 'Anything else?', colleague)).rejects.toBeInstanceOf(ActorAwayError);
    expect(await racing.list(bella.key, again.core.actors.current()!)).toEqual([]);
    expect(readdirSync(folder)).toHaveLength(1);
    const keptTurns = JSON.parse(readFileSync(join(folder, files[0]!), 'utf8')).turns as { answer: string }[];
    expect(keptTurns.map((t) => t.answer)).toEqual([first.answer, second.answer, 'Late answer']);
    // A message of the colleague's asked now, with the demo vet in front, is not sent at all.
    const chatsBefore = proxy.find('POST', '/chat').length;
    await expect(racing.ask(bella.key, 'And now?', colleague)).rejects.toBeInstanceOf(ActorAwayError);
    expect(proxy.find('POST', '/chat')).toHaveLength(chatsBefore);
  }, 90_000);
});
