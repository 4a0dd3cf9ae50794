// The practice-management system through the window's calls, on a real core and its built-in
// sandbox's Provet double over real HTTP: the setup kept only once a sign-in worked, the day's
// list from the copy at once, a consult linked to an appointment and its note sent once into
// that patient's record (waiting for a check-in, updated after an edit), and a colleague on the
// same computer who never acts with the first vet's Provet sign-in.
import { describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { createHandlers, type HandlerTable } from '../../../../src/main/core/ipc-handlers.ts';
import { PROVET_USERS, type Sandbox } from '../../../../src/sandbox/index.ts';
import { COLLEAGUE_ACCOUNT } from '../../../../src/sandbox/state.ts';
import type { PimsDay } from '../../../../src/shared/pims.ts';
import { firstTemplateId, recordThrough, until, waitForJob } from '../../../support/core.ts';
import { builtInCores, signInDemo } from '../support.ts';
import { browse } from './provet-double.ts';

const { core } = builtInCores();

type User = { username: string; password: string };

/** A core whose "browser" signs in to the double's page as whoever `as.user` names at the time. */
async function world() {
  const as: { user: User | null } = { user: PROVET_USERS.demo };
  let c: AppCore<Sandbox> | null = null;
  c = await core({
    sandbox: { scribeSeconds: 0.3 },
    openBrowser: async (url) => {
      if (!as.user) return; // a vet who closed the page: the redirect never comes
      await browse(c!.embeddedSandbox!, url, as.user);
    },
    pims: { signInTimeoutMs: 1500 },
  });
  await signInDemo(c);
  const h = createHandlers(c);
  const provet = c.embeddedSandbox!.provet;
  return { c, h, provet, as };
}

/** The world with the demo vet signed in to the sandbox's Provet and today's appointments read. */
async function signedInWorld() {
  const w = await world();
  await ok(w.h['pims:signIn']({ address: w.provet.address, clientId: w.provet.clientId }));
  await ok(w.h['pims:refreshToday'](undefined));
  return w;
}

async function ok<T>(p: Promise<{ ok: true; data: T } | { ok: false; error: { code: string; message: string } }>) {
  const r = await p;
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.data;
}

/** A consult of `patientName` recorded and scribed: its id once its note is ready. */
async function readyConsult(c: AppCore, h: HandlerTable, patientName: string): Promise<string> {
  const id = await recordThrough(h, patientName);
  await ok(h['consults:submit']({ id, templateId: await firstTemplateId(c) }));
  expect((await waitForJob(c, id, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe('completed');
  await until(() => c.access.consultFor(id).stage === 'ready');
  return id;
}

describe('the practice-management system on a real core', () => {
  it('keeps the setup only once a sign-in worked, and says what was wrong before', async () => {
    const { c, h, provet, as } = await world();
    const before = await ok(h['pims:status'](undefined));
    expect(before).toMatchObject({ name: null, setup: null, signedIn: null });
    expect(before.sandbox).toEqual({ kind: 'provet', address: provet.address, clientId: provet.clientId });

    const notAddress = await h['pims:signIn']({ address: 'provet', clientId: provet.clientId });
    expect(notAddress).toMatchObject({ ok: false, error: { code: 'pims_bad_input' } });
    const badClient = await h['pims:signIn']({ address: provet.address, clientId: 'not-registered' });
    expect(badClient.ok || badClient.error.message).toMatch(/does not know the client ID "not-registered"/);
    const notProvet = await h['pims:signIn']({ address: `${new URL(provet.address).origin}/nothing/1`, clientId: 'x' });
    expect(notProvet.ok || notProvet.error.message).toMatch(/not a Provet instance|Nothing answers/);
    as.user = null;
    const closed = await h['pims:signIn']({ address: provet.address, clientId: provet.clientId });
    expect(closed).toMatchObject({ ok: false, error: { code: 'pims_sign_in_failed' } });
    expect(c.settings.get().pims).toBeNull();

    as.user = PROVET_USERS.demo;
    const status = await ok(h['pims:signIn']({ address: provet.address, clientId: provet.clientId }));
    expect(status).toMatchObject({ name: 'Provet', signedIn: { name: 'Alex Hale' }, signingIn: false });
    expect(c.settings.get().pims).toEqual({ kind: 'provet', address: provet.address, clientId: provet.clientId });
    // Nothing the window is told carries a token.
    expect(JSON.stringify(status)).not.toMatch(/token/i);

    await ok(h['pims:signOut'](undefined));
    expect((await ok(h['pims:status'](undefined))).signedIn).toBeNull();
    expect(c.settings.get().pims).not.toBeNull();
  });

  it("lists the day from the copy at once, the vet's own first, and refreshes behind it", async () => {
    const { c, h, provet } = await world();
    await ok(h['pims:signIn']({ address: provet.address, clientId: provet.clientId }));
    const told: PimsDay[] = [];
    c.on('pims:day', (d: PimsDay) => told.push(d));
    const fresh = await ok(h['pims:refreshToday'](undefined));
    expect(fresh.problem).toBeNull();
    const ids = fresh.appointments.map((a) => a.id);
    // Hale's own (08:00, 09:00, 09:30, 10:00), then the colleague's; the cancelled one and other days' are left out.
    expect(ids).toEqual(['304', '301', '302', '303', '305', '306']);
    expect(fresh.appointments.filter((a) => a.mine).map((a) => a.id)).toEqual(['304', '301', '302', '303']);
    expect(fresh.appointments.find((a) => a.id === '303')?.patients.map((p) => p.name)).toEqual(['Max', 'Milo']);
    expect(fresh.appointments.find((a) => a.id === '302')).toMatchObject({
      checkedIn: false,
      complaint: 'Vomiting since yesterday',
    });

    const requests = () => Object.values(provet.requests()).reduce((a, b) => a + b, 0);
    const sent = requests();
    told.length = 0;
    const now = await ok(h['pims:today'](undefined));
    // At once, from the copy: the same list, before the PIMS was asked again.
    expect(now.appointments.map((a) => a.id)).toEqual(ids);
    expect(now.refreshing).toBe(true);
    await until(() => told.length > 0);
    expect(requests()).toBeGreaterThan(sent);

    // Offline: the copy stays on screen, and says why it may be out of date.
    await c.embeddedSandbox!.close();
    const offline = await ok(h['pims:refreshToday'](undefined));
    expect(offline.appointments.map((a) => a.id)).toEqual(ids);
    expect(offline.problem).toMatch(/^Provet cannot be reached: shown as read at \d\d:\d\d/);
    expect((await ok(h['pims:today'](undefined))).appointments.map((a) => a.id)).toEqual(ids);
  });

  it('sends the note once into the linked patient, waits for a check-in, and updates the same note after an edit', async () => {
    const { c, h, provet } = await signedInWorld();
    const id = await readyConsult(c, h, 'Luna');
    const linked = await ok(h['pims:link']({ id, appointmentId: '302' }));
    expect(linked).toMatchObject({
      linked: { appointmentId: '302', patient: { id: '202', name: 'Luna' } },
      canSend: true,
    });

    const waiting = await ok(h['pims:send']({ id }));
    expect(waiting.state).toBe('waiting-check-in');
    expect(provet.notes()).toHaveLength(0);

    provet.checkIn(302);
    await c.practice.recheck();
    const sent = await ok(h['pims:noteState']({ id }));
    // Sent by the vet who recorded it, named as the app knows them.
    const vet = c.session.state().user!.name;
    expect(sent).toMatchObject({ state: 'sent', sentBy: vet, changedSinceSent: false, canSend: false });
    const notes = provet.notes();
    expect(notes).toHaveLength(1);
    expect(notes[0]!.patient).toBe(202);
    expect(notes[0]!.text).toContain(c.notes.formats(id).text.trimEnd());
    expect((await ok(h['consults:trail']({ id }))).entries.map((e) => e.action)).toContain('filed');

    // An edit offers an update of the same note, not a second one.
    const edited = `${c.notes.formats(id).text}\nPlan: bland diet for 3 days.`;
    await ok(h['consults:saveNote']({ id, text: edited }));
    expect((await ok(h['pims:noteState']({ id }))).changedSinceSent).toBe(true);
    expect((await ok(h['pims:send']({ id }))).state).toBe('sent');
    expect(provet.notes()).toHaveLength(1);
    expect(provet.notes()[0]!.text).toContain('Plan: bland diet for 3 days.');
  });

  it('a send acts for the vet who pressed it, with their own Provet sign-in, even when a colleague signs in while it runs', async () => {
    const { c, h, provet, as } = await world();
    const demo = c.appInfo().sandbox!.demo;
    // The colleague has a Provet sign-in of their own on this computer (moreno)…
    await ok(h['session:switchUser'](undefined));
    await c.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    as.user = PROVET_USERS.colleague;
    await ok(h['pims:signIn']({ address: provet.address, clientId: provet.clientId }));
    // …and the demo vet theirs (hale), who records Bella and links her visit.
    await ok(h['session:switchUser'](undefined));
    await c.session.signIn(demo.email, demo.password);
    as.user = PROVET_USERS.demo;
    await ok(h['pims:signIn']({ address: provet.address, clientId: provet.clientId }));
    const id = await readyConsult(c, h, 'Bella');
    await ok(h['pims:link']({ id, appointmentId: '301' }));

    // Send, and the colleague signs in while it is on its way.
    const sending = h['pims:send']({ id });
    await h['session:switchUser'](undefined);
    await c.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    const answer = await sending;
    // Written once, on Bella, by the demo vet's Provet user (hale, 11), never the colleague's (12).
    await until(() => provet.notes().length === 1);
    expect(provet.notes()).toMatchObject([{ consultation: 401, patient: 201, created_user: 11 }]);
    // The answer is the demo vet's: the colleague's window is told so, not shown it.
    if (!answer.ok) expect(answer.error.code).toBe('signed_out');
    // The colleague's own day is theirs: moreno's appointments first.
    const theirs = await ok(h['pims:refreshToday'](undefined));
    expect(theirs.appointments.filter((a) => a.mine).map((a) => a.id)).toEqual(['305', '306']);
  });

  it("a pet whose name is not the appointment's is never sent, and a colleague never acts with the first vet's Provet sign-in", async () => {
    const { c, h, provet } = await signedInWorld();
    const id = await readyConsult(c, h, 'Bella');
    const wrongPet = await ok(h['pims:link']({ id, appointmentId: '303' }));
    expect(wrongPet).toMatchObject({ linked: { patient: null }, canSend: false });
    expect(wrongPet.problem).toMatch(/Bella is not a patient of the appointment \(Max, Milo\)/);
    expect((await h['pims:send']({ id })).ok).toBe(false);
    await ok(h['pims:link']({ id, appointmentId: '301' }));

    // The colleague at the same PC: the first vet's consult is not theirs to send, and they are not signed in to Provet.
    await ok(h['session:switchUser'](undefined));
    await c.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    expect((await ok(h['pims:status'](undefined))).signedIn).toBeNull();
    const refused = await h['pims:send']({ id });
    expect(refused).toMatchObject({ ok: false, error: { code: 'not_owner' } });
    expect((await ok(h['pims:today'](undefined))).appointments).toEqual([]);
    expect(provet.notes()).toHaveLength(0);
  });
});
