// The practice-management system as the app uses it, for one vet at a time: this computer's
// setup (kept once a sign-in worked), each vet's own sign-in through the system browser, the day's
// appointments, which appointment a visit is for, and the note sent into the patient's record.
// Every method takes the actor the call acts for, decided once as it came in: a vet's PIMS
// sign-in is used for that vet's own consults only, and a note waiting for the pet's check-in is
// sent later with the sign-in of the vet who recorded it, whoever is in front by then. Longer
// than 400 lines because the sign-in, the day, the link and the send all start from the same
// vet's account at the same instance (its tokens, its sender, its copy): split apart, each part
// would work that account out again.
import { createHash } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { ConsultInfo, ConsultOwner } from '../../../shared/ipc.ts';
import type { PimsDay, PimsNoteState, PimsSetup, PimsStatus } from '../../../shared/pims.ts';
import { readJson, Refusal, writeJsonAtomic } from '../platform/index.ts';
import { actorName, type Actor, type SecretStore } from '../sign-in/index.ts';
import { signInWithBrowser, type OpenBrowser } from './browser-sign-in.ts';
import type { PimsHttpOptions } from './http.ts';
import { patientFor, VisitLinks } from './links.ts';
import { probeAuthorize, readUserInfo } from './oauth.ts';
import { PimsError } from './port.ts';
import { provetInstance, provetOAuthClient, type ProvetInstance } from './provet/instance.ts';
import { ProvetPims } from './provet/pims.ts';
import { NoteSender, type SendRecord } from './send.ts';
import { dayView, staleBecause, TodayCopies } from './today.ts';
import { PimsTokens, pimsTokensName } from './tokens.ts';

const NAME = 'Provet';

export interface PracticeSystemOptions {
  /** `<data folder>/pims`. */
  dir: string;
  secretStore: SecretStore;
  /** This computer's setup (settings), and keeping a new one. */
  setup(): PimsSetup | null;
  saveSetup(setup: PimsSetup): Promise<void>;
  /** The built-in sandbox's Provet while the sandbox is the service. */
  sandbox(): PimsSetup | null;
  /** Opens the PIMS's sign-in page in the system browser (absent: the sign-in says it cannot). */
  openBrowser?: OpenBrowser;
  /** The consult as the gate shows it to `as`, or null when it is not there or not theirs to see. */
  consult(id: string, as: Actor | null): ConsultInfo | null;
  /** The note as the vet last saved it (their edit, else the service's), as plain text, read as `as` sees it. */
  noteText(id: string, as: Actor): string;
  /** A trail entry for a note that went into the record. */
  filed(id: string, by: Actor): Promise<void>;
  /** The vet in front, to tell events only to them. */
  inFront(actor: Actor): boolean;
  /** The vet in front now, to whom events about a consult they may see are told. */
  current(): Actor | null;
  /** The vet who recorded a consult (its owner on disk), whoever is in front. */
  ownerOf(id: string): Actor | null;
  emitToday(day: PimsDay): void;
  emitNote(id: string, state: PimsNoteState): void;
  http?: PimsHttpOptions;
  log?: (line: string) => void;
  /** How long the vet has to sign in in the browser. */
  signInTimeoutMs?: number;
  /** How often notes waiting for a check-in are looked at again. */
  recheckMs?: number;
  now?: () => number;
}

const accountFile = z.object({ instance: z.string(), id: z.string(), name: z.string().nullable() });

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const ownerIs = (owner: ConsultOwner | null, actor: Actor) =>
  owner !== null && owner.userId === actor.userId && owner.service === actor.service;

export class PracticeSystem {
  private readonly options: PracticeSystemOptions;
  private readonly today: TodayCopies;
  private readonly links: VisitLinks;
  private readonly senders = new Map<string, NoteSender>();
  private readonly signingIn = new Map<string, AbortController>();
  private timer: NodeJS.Timeout | null = null;
  private rechecking: Promise<void> | null = null;
  // One change of the waiting list at a time: each reads the list the last one wrote.
  private waitingWrite: Promise<void> = Promise.resolve();

  constructor(options: PracticeSystemOptions) {
    this.options = options;
    this.today = new TodayCopies({ dir: join(options.dir, 'today'), now: options.now });
    this.links = new VisitLinks(join(options.dir, 'links'));
  }

  /** Looks at the notes waiting for a check-in every `recheckMs`; stop() ends it. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.recheck(), this.options.recheckMs ?? 60_000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const c of this.signingIn.values()) c.abort();
  }

  private instance(): ProvetInstance | null {
    const setup = this.options.setup();
    if (!setup) return null;
    try {
      return provetInstance(setup.address);
    } catch {
      return null;
    }
  }

  private accountKey(actor: Pick<Actor, 'service' | 'userId'>, instance: ProvetInstance): string {
    return pimsTokensName({ service: actor.service, userId: actor.userId, instance: instance.base });
  }

  private tokens(actor: Pick<Actor, 'service' | 'userId'>, instance: ProvetInstance): PimsTokens {
    const setup = this.options.setup();
    return new PimsTokens({
      store: this.options.secretStore,
      account: { service: actor.service, userId: actor.userId, instance: instance.base },
      client: provetOAuthClient(instance, setup?.clientId ?? ''),
      http: this.http(),
      now: this.options.now,
    });
  }

  private http(): PimsHttpOptions {
    return { name: NAME, ...this.options.http };
  }

  private pims(actor: Pick<Actor, 'service' | 'userId'>, instance: ProvetInstance): ProvetPims {
    return new ProvetPims({ instance, tokens: this.tokens(actor, instance), http: this.http() });
  }

  /** One sender per vet's sign-in: its queue keeps one send per consult at a time. */
  private sender(actor: Pick<Actor, 'service' | 'userId'>, instance: ProvetInstance): NoteSender {
    const key = this.accountKey(actor, instance);
    let sender = this.senders.get(key);
    if (!sender) {
      sender = new NoteSender({ pims: this.pims(actor, instance), dir: join(this.options.dir, 'notes') });
      this.senders.set(key, sender);
    }
    return sender;
  }

  private whoFile(key: string): string {
    return join(this.options.dir, 'accounts', `${key}.json`);
  }

  private async who(actor: Actor, instance: ProvetInstance): Promise<{ id: string; name: string | null } | null> {
    if (!(await this.tokens(actor, instance).signedIn())) return null;
    const raw = await readJson(this.whoFile(this.accountKey(actor, instance))).catch(() => null);
    const parsed = accountFile.safeParse(raw);
    return parsed.success && parsed.data.instance === instance.base
      ? { id: parsed.data.id, name: parsed.data.name }
      : { id: '', name: null };
  }

  async status(actor: Actor | null): Promise<PimsStatus> {
    const setup = this.options.setup();
    const instance = this.instance();
    const who = actor && instance ? await this.who(actor, instance) : null;
    return {
      name: setup ? NAME : null,
      setup,
      signedIn: who ? { name: who.name } : null,
      signingIn: actor !== null && this.signingIn.has(`${actor.service} ${actor.userId}`),
      sandbox: this.options.sandbox(),
    };
  }

  /**
   * The vet signs in through the PIMS's own page in the system browser. The address and client
   * ID are checked first (and the sign-in page asked whether it knows them); the setup is kept
   * only once the sign-in worked, so a wrong one is never half saved.
   */
  async signIn(address: string, clientId: string, actor: Actor): Promise<PimsStatus> {
    const instance = provetInstance(address);
    const client = provetOAuthClient(instance, clientId);
    if (!this.options.openBrowser)
      throw new PimsError('sign_in_failed', `This app cannot open a browser for the sign-in to ${NAME}.`);
    const key = `${actor.service} ${actor.userId}`;
    if (this.signingIn.has(key))
      throw new PimsError('sign_in_failed', `A sign-in to ${NAME} is already waiting in the browser.`);
    const abort = new AbortController();
    this.signingIn.set(key, abort);
    try {
      await probeAuthorize(client, this.http());
      const tokens = await signInWithBrowser({
        client,
        openBrowser: this.options.openBrowser,
        scope: 'restapi openid',
        timeoutMs: this.options.signInTimeoutMs ?? 5 * 60_000,
        http: this.http(),
        signal: abort.signal,
      });
      const who = await readUserInfo(instance.userInfoUrl, tokens.accessToken, NAME, this.http());
      const setup: PimsSetup = { kind: 'provet', address: address.trim(), clientId: clientId.trim() };
      const before = this.options.setup();
      if (!before || before.address !== setup.address || before.clientId !== setup.clientId) {
        await this.options.saveSetup(setup);
        this.senders.clear();
      }
      const accountKey = this.accountKey(actor, instance);
      await this.tokens(actor, instance).save(tokens);
      await mkdir(join(this.options.dir, 'accounts'), { recursive: true, mode: 0o700 });
      await writeJsonAtomic(this.whoFile(accountKey), { instance: instance.base, ...who });
      this.options.log?.(`pims: ${actorName(actor)} signed in to ${NAME}`);
    } finally {
      this.signingIn.delete(key);
    }
    void this.refreshToday(actor);
    return this.status(actor);
  }

  async cancelSignIn(actor: Actor): Promise<PimsStatus> {
    this.signingIn.get(`${actor.service} ${actor.userId}`)?.abort();
    return this.status(actor);
  }

  /** Removes the vet's tokens here, withdraws them at the PIMS, and forgets their day's copy. */
  async signOut(actor: Actor): Promise<PimsStatus> {
    const instance = this.instance();
    if (instance) {
      const key = this.accountKey(actor, instance);
      const confirmed = await this.tokens(actor, instance).signOut();
      if (!confirmed) this.options.log?.(`pims: ${NAME} did not confirm the sign-out; the tokens lapse on their own`);
      await rm(this.whoFile(key), { force: true });
      await this.today.forget(key);
    }
    return this.status(actor);
  }

  private notSignedIn(instance: ProvetInstance | null): PimsDay {
    return {
      day: '',
      appointments: [],
      fetchedAt: null,
      refreshing: false,
      problem: instance ? `Sign in to ${NAME} in Settings to see today's appointments.` : null,
    };
  }

  /** The copy at once; a fresh read starts behind it and is told as the `pims:day` event. */
  async todayNow(actor: Actor): Promise<PimsDay> {
    const instance = this.instance();
    if (!instance || !(await this.who(actor, instance))) return this.notSignedIn(instance);
    const key = this.accountKey(actor, instance);
    const copy = await this.today.view(key);
    if (!this.today.isReading(key)) void this.refreshToday(actor);
    return { ...copy, refreshing: true };
  }

  /** The day read from the PIMS now (and told as the `pims:day` event to the vet, if still in front). */
  async refreshToday(actor: Actor): Promise<PimsDay> {
    const instance = this.instance();
    const who = instance ? await this.who(actor, instance) : null;
    if (!instance || !who) return this.notSignedIn(instance);
    const key = this.accountKey(actor, instance);
    const pims = this.pims(actor, instance);
    const day = await this.today.refresh(
      key,
      async (d) => dayView(await pims.todaysAppointments(who.id ? { id: who.id } : null, d), who.id || null),
      (e, fetchedAt) => staleBecause(e, NAME, fetchedAt),
    );
    if (this.options.inFront(actor)) this.options.emitToday(day);
    // A pet checked in since: its note waiting for it goes in now.
    if (day.appointments.some((a) => a.checkedIn)) void this.recheck();
    return day;
  }

  private consultOrRefuse(id: string, actor: Actor | null): ConsultInfo {
    const consult = this.options.consult(id, actor);
    if (!consult) throw new Refusal('not_found', 'This consult is not on this computer.');
    return consult;
  }

  /** Links the consult's visit to a day's appointment (from the vet's copy of the day, else read now). */
  async link(id: string, appointmentId: string, actor: Actor): Promise<PimsNoteState> {
    const consult = this.consultOrRefuse(id, actor);
    if (!ownerIs(consult.recording.recordedBy, actor) && consult.recording.recordedBy !== null)
      throw new Refusal('bad_state', 'Only the vet who recorded this consult can link it to an appointment.');
    const instance = this.instance();
    if (!instance || !(await this.who(actor, instance)))
      throw new PimsError('signed_out', `Sign in to ${NAME} in Settings first.`);
    const key = this.accountKey(actor, instance);
    let appointment = (await this.today.copy(key))?.appointments.find((a) => a.id === appointmentId);
    if (!appointment) appointment = (await this.refreshToday(actor)).appointments.find((a) => a.id === appointmentId);
    if (!appointment) throw new Refusal('not_found', `That appointment is not one of today's in ${NAME}.`);
    const visitId = consult.recording.visitId ?? id;
    const sent = await this.sender(actor, instance).record(id);
    if (sent && sent.appointmentId !== appointmentId && this.wrote(sent))
      throw new Refusal('conflict', `This consult's note is already in another appointment's record in ${NAME}.`);
    await this.links.set({
      visitId,
      appointmentId,
      start: appointment.start,
      patients: appointment.patients,
      instance: instance.base,
      linkedAt: new Date((this.options.now ?? Date.now)()).toISOString(),
    });
    return this.noteState(id, actor);
  }

  private wrote(record: SendRecord): boolean {
    return Object.values(record.patients).some((p) => p.noteId !== null || p.state === 'sending');
  }

  /** Where the consult's note stands in the record, as the vet in front sees it. */
  async noteState(id: string, actor: Actor | null): Promise<PimsNoteState> {
    const consult = this.consultOrRefuse(id, actor);
    const none: PimsNoteState = {
      linked: null,
      state: 'not-sent',
      sentAt: null,
      sentBy: null,
      changedSinceSent: false,
      problem: null,
      canSend: false,
    };
    const instance = this.instance();
    if (!instance) return none;
    const link = await this.links.get(consult.recording.visitId ?? id);
    if (!link || link.instance !== instance.base) return none;
    const match = patientFor(link, consult.recording.patientName);
    const patient = 'patient' in match ? match.patient : null;
    const owner = consult.recording.recordedBy;
    const record = owner ? await this.sender(owner, instance).record(id) : null;
    const kept = patient ? record?.patients[patient.id] : undefined;
    const ready = consult.stage === 'ready';
    // The note as the vet who recorded it saved it: what a send would write, whoever asks.
    const text = ready && owner ? this.noteTextOrNull(id, owner) : null;
    const changed = kept?.state === 'sent' && text !== null && kept.textHash !== sha(text);
    let problem: string | null = 'problem' in match ? match.problem : (kept?.error?.message ?? null);
    if (!problem && !ready) problem = 'The note is sent once it is ready and read.';
    const mine = actor !== null && ownerIs(owner, actor);
    if (!problem && actor && !mine)
      problem = `Only ${owner?.name.trim() || owner?.email || 'the vet who recorded it'} can send this note to ${NAME}, with their own sign-in.`;
    const signedIn = actor !== null && mine && (await this.who(actor, instance)) !== null;
    if (!problem && mine && !signedIn) problem = `Sign in to ${NAME} in Settings to send this note.`;
    const state = kept ? (kept.state === 'failed' ? 'failed' : kept.state) : 'not-sent';
    return {
      linked: { appointmentId: link.appointmentId, start: link.start, patient },
      state,
      sentAt: kept?.sentAt ?? null,
      sentBy: kept?.sentBy?.name ?? null,
      changedSinceSent: changed,
      problem,
      canSend: mine && signedIn && ready && patient !== null && text !== null && (state !== 'sent' || changed),
    };
  }

  private noteTextOrNull(id: string, as: Actor): string | null {
    try {
      const text = this.options.noteText(id, as);
      return text.trim() === '' ? null : text;
    } catch {
      return null;
    }
  }

  /**
   * "Send to …" / "Update in …": the note as the vet last saved it into the linked patient's
   * record, with the vet's own sign-in. What the PIMS refuses is kept and said in the state.
   */
  async send(id: string, actor: Actor): Promise<PimsNoteState> {
    const consult = this.consultOrRefuse(id, actor);
    if (!ownerIs(consult.recording.recordedBy, actor))
      throw new Refusal('bad_state', `Only the vet who recorded this consult can send its note to ${NAME}.`);
    const instance = this.instance();
    if (!instance || !(await this.who(actor, instance)))
      throw new PimsError('signed_out', `Sign in to ${NAME} in Settings to send this note.`);
    if (consult.stage !== 'ready') throw new Refusal('bad_state', 'The note is not ready yet.');
    const link = await this.links.get(consult.recording.visitId ?? id);
    if (!link || link.instance !== instance.base)
      throw new Refusal('bad_state', `This consult is not linked to an appointment in ${NAME}.`);
    const match = patientFor(link, consult.recording.patientName);
    if ('problem' in match) throw new Refusal('bad_state', match.problem);
    const text = this.noteTextOrNull(id, actor);
    if (text === null) throw new Refusal('bad_state', 'The note is empty: there is nothing to send.');
    await this.sendNow(id, actor, instance, link.appointmentId, match.patient.id, text);
    return this.noteState(id, actor);
  }

  private async sendNow(
    id: string,
    actor: Pick<Actor, 'service' | 'userId'> & { name: string },
    instance: ProvetInstance,
    appointmentId: string,
    patientId: string,
    text: string,
  ): Promise<void> {
    const sender = this.sender(actor, instance);
    const before = (await sender.record(id))?.patients[patientId];
    try {
      await sender.send({
        consultId: id,
        appointmentId,
        patients: [{ id: patientId, text }],
        by: { id: actor.userId, name: actor.name },
      });
    } catch (e) {
      // Kept in the consult's send record and said in its state; anything else is a fault here.
      if (!(e instanceof PimsError)) throw e;
      this.options.log?.(`pims: the note of ${id} was not sent: ${e.code}`);
    }
    const after = (await sender.record(id))?.patients[patientId];
    await this.setWaiting(id, after?.state === 'waiting-check-in');
    if (after?.state === 'sent' && after.sentAt !== before?.sentAt)
      await this.options.filed(id, actor as Actor).catch(() => undefined);
    const front = this.options.current();
    if (front && this.options.consult(id, front)) this.options.emitNote(id, await this.noteState(id, front));
  }

  /** Each note waiting for its pet's check-in, looked at again with its vet's own sign-in. */
  recheck(): Promise<void> {
    this.rechecking ??= this.recheckNow().finally(() => (this.rechecking = null));
    return this.rechecking;
  }

  private get waitingFile(): string {
    return join(this.options.dir, 'waiting.json');
  }

  /** The consults with a note waiting for a check-in: a short list, so a minute's look reads no more. */
  private async waiting(): Promise<string[]> {
    const raw = await readJson(this.waitingFile).catch(() => null);
    const parsed = z.array(z.string()).safeParse(raw);
    return parsed.success ? parsed.data : [];
  }

  private async setWaiting(id: string, waits: boolean): Promise<void> {
    this.waitingWrite = this.waitingWrite
      .catch(() => undefined)
      .then(async () => {
        const now = await this.waiting();
        if (now.includes(id) === waits) return;
        await mkdir(this.options.dir, { recursive: true, mode: 0o700 });
        await writeJsonAtomic(this.waitingFile, waits ? [...now, id] : now.filter((w) => w !== id));
      });
    await this.waitingWrite;
  }

  private async recheckNow(): Promise<void> {
    const instance = this.instance();
    if (!instance) return;
    for (const id of await this.waiting()) {
      const owner = this.options.ownerOf(id);
      const consult = owner ? this.options.consult(id, owner) : null;
      if (!consult || !owner || consult.stage !== 'ready') continue;
      const record = await this.sender(owner, instance).record(id);
      const waiting = record && Object.values(record.patients).some((p) => p.state === 'waiting-check-in');
      if (!record || !waiting) {
        await this.setWaiting(id, false);
        continue;
      }
      const link = await this.links.get(consult.recording.visitId ?? id);
      const match = link ? patientFor(link, consult.recording.patientName) : null;
      const text = this.noteTextOrNull(id, owner);
      if (!link || !match || !('patient' in match) || text === null) continue;
      if (!(await this.tokens(owner, instance).signedIn())) continue;
      await this.sendNow(id, owner, instance, link.appointmentId, match.patient.id, text).catch((e: unknown) =>
        this.options.log?.(`pims: a waiting note could not be looked at: ${(e as Error).message}`),
      );
    }
  }
}
