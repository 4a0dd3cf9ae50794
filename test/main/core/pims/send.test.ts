// Sending a consult's note into Provet (NoteSender over ProvetPims) against the sandbox's Provet
// double over real HTTP, signed in through its own sign-in page: one note per patient on the
// right patient, at most 3 requests a patient, a visit not checked in waiting, a lost answer and
// a process killed around the write (a sender in a child process, SIGKILL) settled without a
// second write, a finalized visit, 403, 400, a 429 storm, a token lapsing mid-send, and an edit
// changing the same note; and, at the end, no note on another patient. Longer than 400 lines
// because every case shares the one started sandbox and its seeded day, each case building on
// the notes before it.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  noteMarker,
  NoteSender,
  noteWithMarker,
  PimsError,
  type Pims,
  type SendNote,
} from '../../../../src/main/core/pims/index.ts';
import type { Sandbox } from '../../../../src/sandbox/index.ts';
import type { KillJob } from '../../../support/pims-send-kill-child.ts';
import { apiRequests, HALE, misplacedNotes, senderWorld, signInToDouble, type SignedIn } from './provet-double.ts';
import { pimsFailure as failure } from './support.ts';

const world = senderWorld('pims-send-');
const { send, held, writes, posts } = world;
let s: Sandbox;
let vet: SignedIn;
let dir: string;
beforeAll(() => void ({ s, vet, dir } = world));
const KILL_CHILD = join(import.meta.dirname, '../../../support/pims-send-kill-child.ts');

const sender = (extra: Partial<ConstructorParameters<typeof NoteSender>[0]> = {}) =>
  new NoteSender({ pims: vet.pims, dir, ...extra });
/**
 * Checks the visit in, then sends a consult's note from a process of its own
 * (test/support/pims-send-kill-child.ts), with this vet's tokens and the same folder, killed with
 * SIGKILL at `killAt`; Provet took exactly one new note. The consultation opened, and the new
 * notes Provet had taken before.
 */
async function checkInSendAndKill(
  consultId: string,
  appointmentId: string,
  patients: [string, string][],
  killAt: KillJob['killAt'],
): Promise<{ consultation: number; before: number }> {
  const consultation = s.provet.checkIn(Number(appointmentId))!.id;
  const before = posts();
  const job: KillJob = {
    address: s.provet.address,
    clientId: s.provet.clientId,
    tokens: (await vet.tokens.load())!,
    dir,
    send: { consultId, appointmentId, patients: patients.map(([id, text]) => ({ id, text })), by: HALE },
    killAt,
  };
  const child = spawn(process.execPath, [KILL_CHILD], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  child.stdin.end(JSON.stringify(job));
  expect(await exited, `${out}\n${err}`).toBe('SIGKILL');
  expect(out.trim()).toBe(JSON.stringify({ killed: killAt }));
  expect(posts() - before).toBe(1);
  return { consultation, before };
}
/** Appointments read one at a time: the send's lookup of the visit. */
const finds = () => s.provet.requests()['GET api/0.1/appointment/{id}/'] ?? 0;

describe('sending a note into Provet', () => {
  it('writes one note on the patient, confirms it by reading it back, in at most 3 requests, and keeps who sent it', async () => {
    const before = apiRequests(s);
    const record = await send('consult-bella-1', '301', [['201', 'Bella: lame left hind.']]);
    expect(apiRequests(s) - before).toBe(3);
    expect(held(401)).toEqual([['201', noteWithMarker('Bella: lame left hind.', noteMarker('consult-bella-1'))]]);
    expect(noteMarker('consult-bella-1')).toBe('Written by Vet Scribe · consultb');
    expect(record.consultationId).toBe('401');
    expect(record.patients['201']).toMatchObject({ state: 'sent', sentBy: HALE, error: null });
    const onDisk = JSON.parse(await readFile(join(dir, 'consult-bella-1.pims-note.json'), 'utf8'));
    expect(onDisk).toEqual(record);
    expect(onDisk.patients['201'].noteId).toBe(String(s.provet.notes().find((n) => n.consultation === 401)?.id));
    // Sent again unchanged: nothing is asked of Provet but where the visit is.
    const again = apiRequests(s);
    await send('consult-bella-1', '301', [['201', 'Bella: lame left hind.']]);
    expect(apiRequests(s) - again).toBe(1);
    expect(held(401)).toHaveLength(1);
  });

  it('an edit after sending changes the same note, confirmed by reading it back', async () => {
    const id = s.provet.notes().find((n) => n.consultation === 401)?.id;
    const before = { api: apiRequests(s), posts: posts() };
    const record = await send('consult-bella-1', '301', [['201', 'Bella: lame left hind. Rest 2 weeks.']]);
    expect(posts()).toBe(before.posts);
    expect(apiRequests(s) - before.api).toBe(3);
    expect(s.provet.notes().filter((n) => n.consultation === 401)).toEqual([
      expect.objectContaining({
        id,
        patient: 201,
        text: expect.stringMatching(/^Bella: lame left hind\. Rest 2 weeks\./),
      }),
    ]);
    expect(record.patients['201']?.noteId).toBe(String(id));
  });

  it('a two-pet visit gets one note per patient, each on its own pet, in at most 3 requests a pet', async () => {
    const before = apiRequests(s);
    await send('consult-shah-1', '303', [
      ['203', 'Max: vaccinated (DHPPi, L4).'],
      ['204', 'Milo: vaccinated (RCP).'],
    ]);
    expect(apiRequests(s) - before).toBe(5);
    expect(world.heldFirstLines(403)).toEqual([
      ['203', 'Max: vaccinated (DHPPi, L4).'],
      ['204', 'Milo: vaccinated (RCP).'],
    ]);
  });

  it('waits while the patient is not checked in, writing nothing, and sends once the visit is opened', async () => {
    const waiting = await send('consult-luna-1', '302', [['202', 'Luna: vomiting, dehydrated.']]);
    expect(waiting.patients['202']).toMatchObject({ state: 'waiting-check-in', noteId: null });
    expect(s.provet.notes().some((n) => n.patient === 202)).toBe(false);
    const consultation = s.provet.checkIn(302);
    const sent = await send('consult-luna-1', '302', [['202', 'Luna: vomiting, dehydrated.']]);
    expect(sent.patients['202']?.state).toBe('sent');
    expect(held(consultation!.id)).toEqual([['202', expect.stringMatching(/^Luna: vomiting/)]]);
  });

  it('a write whose answer was lost is found among the notes at the next try, not written again', async () => {
    s.options.provetNoteFault = 'drop-after-write';
    const before = posts();
    try {
      const lost = await failure(send('consult-nala-1', '305', [['206', 'Nala: weight loss, bloods taken.']]));
      expect(lost?.code).toBe('unreachable');
    } finally {
      s.options.provetNoteFault = 'none';
    }
    const kept = await sender().record('consult-nala-1');
    expect(kept?.patients['206']).toMatchObject({ state: 'sending', noteId: null });
    const record = await send('consult-nala-1', '305', [['206', 'Nala: weight loss, bloods taken.']]);
    expect(record.patients['206']?.state).toBe('sent');
    expect(posts() - before).toBe(1);
    expect(held(405)).toHaveLength(1);
  });

  it('a kill between the write and its confirmation is settled by a fresh sender reading the note back', async () => {
    const input: [string, string][] = [['207', 'Oscar: flea allergy dermatitis.']];
    // Another process sends, and is killed once the write's answer is kept, before the read-back.
    const { consultation, before } = await checkInSendAndKill('consult-oscar-1', '306', input, 'before-read-back');
    const kept = await sender().record('consult-oscar-1');
    expect(kept?.patients['207']).toMatchObject({ state: 'sending', noteId: expect.any(String) });
    const record = await send('consult-oscar-1', '306', input);
    expect(record.patients['207']).toMatchObject({ state: 'sent', noteId: kept?.patients['207']?.noteId });
    expect(posts() - before).toBe(1);
    expect(held(consultation)).toHaveLength(1);
  });

  it('a kill after the write reached Provet, before its answer was kept, is settled by the lookup', async () => {
    const input: [string, string][] = [['202', 'Luna: follow-up, eating again.']];
    const { consultation, before } = await checkInSendAndKill('consult-luna-2', '309', input, 'after-write');
    // All the app knows is that a write may have happened.
    expect((await sender().record('consult-luna-2'))?.patients['202']).toMatchObject({
      state: 'sending',
      noteId: null,
    });
    const record = await send('consult-luna-2', '309', input);
    expect(record.patients['202']?.state).toBe('sent');
    expect(posts() - before).toBe(1);
    expect(held(consultation)).toEqual([['202', noteWithMarker(input[0]![1], noteMarker('consult-luna-2'))]]);
  });
});

describe('what Provet refuses, and nothing lost', () => {
  it('a finalized visit is said as such, nothing is written, and the text stays kept', async () => {
    const before = posts();
    const e = await failure(send('consult-rocky-1', '304', [['205', 'Rocky: otitis externa.']]));
    expect(e).toBeInstanceOf(PimsError);
    expect(e?.code).toBe('finalized');
    expect(posts()).toBe(before);
    expect(held(404)).toEqual([]);
    const kept = await sender().record('consult-rocky-1');
    expect(kept?.patients['205']).toMatchObject({ state: 'failed', error: { code: 'finalized' } });
  });

  it('a visit finalized meanwhile: the note sent stays as it is, an edit is refused as finalized and kept', async () => {
    const consultation = s.provet.notes().find((n) => n.patient === 207)!.consultation;
    const finalize = await request(`${s.provet.address}/api/0.1/consultation/${consultation}/update_status/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await vet.tokens.accessToken()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 10 }),
    });
    expect(finalize.statusCode).toBe(200);
    await finalize.body.text();
    const unchanged = await send('consult-oscar-1', '306', [['207', 'Oscar: flea allergy dermatitis.']]);
    expect(unchanged.patients['207']?.state).toBe('sent');
    const e = await failure(send('consult-oscar-1', '306', [['207', 'Oscar: flea allergy dermatitis. Recheck.']]));
    expect(e?.code).toBe('finalized');
    expect(held(consultation)).toEqual([['207', expect.stringMatching(/^Oscar: flea allergy dermatitis\.\n/)]]);
    const kept = (await sender().record('consult-oscar-1'))?.patients['207'];
    expect(kept).toMatchObject({ state: 'failed', noteId: unchanged.patients['207']?.noteId });
    expect(kept?.textHash).toBe(createHash('sha256').update('Oscar: flea allergy dermatitis. Recheck.').digest('hex'));
  });

  it('a finalized visit refuses a write through the adapter with finalized, not a bare 403', async () => {
    const e = await failure(
      vet.pims.writeNote({ consultationId: '404', patientId: '205', text: 'Late.', marker: noteMarker('x') }),
    );
    expect(e?.code).toBe('finalized');
    expect(e?.message).toMatch(/finalized/);
  });

  it('an appointment cancelled before check-in is said, not waited for; a pet not of the visit gets nothing', async () => {
    const before = apiRequests(s);
    const cancelled = await failure(send('consult-rocky-2', '307', [['205', 'Rocky: ear recheck.']]));
    expect(cancelled?.code).toBe('not_found');
    expect(cancelled?.message).toMatch(/cancelled/);
    expect((await sender().record('consult-rocky-2'))?.patients['205']).toMatchObject({
      state: 'failed',
      error: { code: 'not_found' },
    });
    // Luna is not a patient of Bella's visit: the note is refused here, before any write.
    const wrong = await failure(send('consult-bella-9', '301', [['202', 'Luna: wrong visit.']]));
    expect(wrong?.code).toBe('bad_input');
    expect(apiRequests(s) - before).toBe(2);
    expect(s.provet.notes().filter((n) => n.patient === 202 && n.consultation === 401)).toEqual([]);
  });

  it('403 asks for the permission by name; 400 names the fields refused; neither writes', async () => {
    // Checked in after all: the visit has a consultation, which is what a note goes into.
    const consultation = s.provet.checkIn(307)!.id;
    const input: [string, string][] = [['205', 'Rocky: ear recheck.']];
    for (const [fault, code, words] of [
      ['forbidden', 'permission', /Add clinical notes on consultation/],
      ['refuse-body', 'refused', /text: Clinical notes of this clinic must be approved/],
    ] as const) {
      s.options.provetNoteFault = fault;
      try {
        const e = await failure(send('consult-rocky-2', '307', input));
        expect(e?.code).toBe(code);
        expect(e?.message).toMatch(words);
      } finally {
        s.options.provetNoteFault = 'none';
      }
      expect(held(consultation)).toEqual([]);
      expect((await sender().record('consult-rocky-2'))?.patients['205']?.state).toBe('failed');
    }
    const e = await failure(
      vet.pims.writeNote({ consultationId: String(consultation), patientId: '201', text: 'x', marker: 'm' }),
    );
    expect(e?.fieldErrors).toEqual({ patient: ['This patient is not a patient of this consultation.'] });
    // Nothing lost: the same text goes in once the clinic has sorted it out.
    expect((await send('consult-rocky-2', '307', input)).patients['205']?.state).toBe('sent');
    expect(held(consultation)).toHaveLength(1);
  });

  it('a token that lapses mid-send, between the lookup and the write, is refreshed once, and the note goes in once', async () => {
    s.options.provetAccessTtlSeconds = 3;
    let signedIn: SignedIn;
    try {
      signedIn = await signInToDouble(s);
    } finally {
      s.options.provetAccessTtlSeconds = 10 * 3600;
    }
    // Provet's tokens last no longer than this from now.
    const lapsesBy = Date.now() + 3000;
    // The app does not know when Provet will refuse it: the first call after the lapse learns it by a 401.
    const tokens = await signedIn.tokens.load();
    await signedIn.tokens.save({ ...tokens!, expiresAt: null });
    // The lookup is made with the token still good; the token lapses before the write.
    const slow: Pims = Object.assign(Object.create(signedIn.pims) as Pims, {
      findConsultation: async (appointmentId: string) => {
        const found = await signedIn.pims.findConsultation(appointmentId);
        await new Promise((r) => setTimeout(r, Math.max(0, lapsesBy + 200 - Date.now())));
        return found;
      },
    });
    const refreshes = () => s.provet.requests()['POST oauth2/token/'] ?? 0;
    const before = { refreshes: refreshes(), writes: writes(), finds: finds() };
    const record = await new NoteSender({ pims: slow, dir }).send({
      consultId: 'consult-shah-1',
      appointmentId: '303',
      patients: [{ id: '203', text: 'Max: vaccinated (DHPPi, L4). Next in a year.' }],
      by: HALE,
    });
    expect(finds() - before.finds).toBe(1);
    expect(refreshes() - before.refreshes).toBe(1);
    // The write refused with 401 (nothing written), then made again with the fresh token.
    expect(writes() - before.writes).toBe(2);
    expect(record.patients['203']?.state).toBe('sent');
    expect(world.heldFirstLines(403)).toEqual([
      ['203', 'Max: vaccinated (DHPPi, L4). Next in a year.'],
      ['204', 'Milo: vaccinated (RCP).'],
    ]);
  });

  it('a refresh Provet refuses is "Sign in to Provet again", and the note waits unwritten', async () => {
    const other = await signInToDouble(s);
    const tokens = await other.tokens.load();
    // Provet withdrew both tokens (the vet signed out elsewhere); the app still holds them.
    for (const token of [tokens!.refreshToken!, tokens!.accessToken]) {
      const answer = await request(`${s.provet.address}/oauth2/revoke_token/`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, client_id: s.provet.clientId }).toString(),
      });
      expect(answer.statusCode).toBe(200);
      await answer.body.text();
    }
    const before = posts();
    const e = await failure(
      new NoteSender({ pims: other.pims, dir }).send({
        consultId: 'consult-bella-2',
        appointmentId: '301',
        patients: [{ id: '201', text: 'Bella: second opinion.' }],
        by: HALE,
      }),
    );
    expect(e?.code).toBe('signed_out');
    expect(e?.message).toMatch(/^Sign in to Provet again/);
    expect(posts()).toBe(before);
    expect((await sender().record('consult-bella-2'))?.patients['201']).toMatchObject({
      state: 'failed',
      noteId: null,
      error: { code: 'signed_out' },
    });
    expect(await other.tokens.signedIn()).toBe(false);
  });

  it('a 429 storm is waited out as Retry-After says, within bounds; past them it says to try later, and nothing is lost', async () => {
    const text = 'Bella: lame left hind. Rest 2 weeks, recheck Friday.';
    const noteId = (await sender().record('consult-bella-1'))?.patients['201']?.noteId;
    expect(noteId).toEqual(expect.any(String));
    const asked: number[] = [];
    const tooBusy = (e: PimsError) => {
      expect(e.code).toBe('rate_limited');
      expect(e.message).toMatch(/try again later/);
      expect(e.retryAfterMs).toBeGreaterThanOrEqual(1000);
    };
    s.options.provetRateLimit = 1;
    try {
      // The minute's one request of the lookup is spent now, however long the tests before took.
      await vet.pims.findConsultation('301').catch(() => undefined);
      // Provet asks for longer than this send may wait: it does not wait at all.
      const impatient = await failure(
        send(
          'consult-bella-1',
          '301',
          [['201', text]],
          sender({ maxWaitMs: 500, sleep: async (ms) => void asked.push(ms) }),
        ),
      );
      tooBusy(impatient);
      expect(asked).toEqual([]);
      // More 429s than this send may wait out: it waits once, as long as Provet said, then stops.
      const e = await failure(
        send(
          'consult-bella-1',
          '301',
          [['201', text]],
          sender({ maxWaits: 1, maxWaitMs: 120_000, sleep: async (ms) => void asked.push(ms) }),
        ),
      );
      tooBusy(e);
      expect(asked).toHaveLength(1);
      expect(Math.abs(asked[0]! - e.retryAfterMs!)).toBeLessThanOrEqual(1000);
      // Nothing lost: Provet keeps the note as it was, and the app knows it, and what is still to send.
      expect(held(401)[0]?.[1]).toMatch(/^Bella: lame left hind\. Rest 2 weeks\.\n/);
      expect((await sender().record('consult-bella-1'))?.patients['201']).toMatchObject({
        state: 'failed',
        noteId,
        textHash: createHash('sha256').update(text).digest('hex'),
        error: { code: 'rate_limited' },
      });
      // The storm passes during the waits: the edit goes in, once, on the same note.
      asked.length = 0;
      const record = await send(
        'consult-bella-1',
        '301',
        [['201', text]],
        sender({
          maxWaitMs: 120_000,
          sleep: async (ms) => {
            asked.push(ms);
            if (asked.length === 2) s.options.provetRateLimit = null;
          },
        }),
      );
      expect(record.patients['201']).toMatchObject({ state: 'sent', noteId });
    } finally {
      s.options.provetRateLimit = null;
    }
    expect(asked).toHaveLength(2);
    for (const ms of asked) expect(ms).toBeGreaterThanOrEqual(1000);
    expect(held(401)).toEqual([['201', noteWithMarker(text, noteMarker('consult-bella-1'))]]);
  });

  it('refuses bad input with a sentence, before any request', async () => {
    const before = apiRequests(s);
    const bad: SendNote[] = [
      { consultId: '../x', appointmentId: '301', patients: [{ id: '201', text: 'x' }], by: HALE },
      { consultId: 'c', appointmentId: '301', patients: [], by: HALE },
      { consultId: 'c', appointmentId: '301', patients: [{ id: '201', text: '  ' }], by: HALE },
      {
        consultId: 'c',
        appointmentId: '301',
        patients: [
          { id: '201', text: 'a' },
          { id: '201', text: 'b' },
        ],
        by: HALE,
      },
    ];
    for (const input of bad) expect(() => sender().send(input)).toThrow(PimsError);
    expect(apiRequests(s)).toBe(before);
  });
});

describe('after every send above', () => {
  it('nothing was ever written to another patient, and no pet has two notes in one visit', async () => {
    expect(s.provet.notes().length).toBeGreaterThanOrEqual(6);
    expect(await misplacedNotes(s, vet)).toEqual([]);
  });
});
