// The engine of the app, Electron-free: it creates the settings, the session, the recordings,
// the pipeline and the clinical calls, and the consults' parts (core/consults/) over them, and
// wires them together. Electron's main process (src/main/index.ts) and the browser test host
// both create one and bind its handler table (ipc-handlers.ts) to their transport; what either
// needs from its platform (the secret store, the embedded sandbox, desktop notifications, the
// audio address) comes in as options (ports.ts). Longer than 400 lines on purpose: it is the one
// place the parts are built in order and wired, which split over files would be read in pieces.
import { EventEmitter } from 'node:events';
import { mkdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import type { AppInfo, EventPayloads, Notice } from '../../shared/ipc.ts';
import { Actors, actorUser, ServiceCalls, sessionInfo, Session, BackgroundSessions } from './sign-in/index.ts';
import { AppSettings, EmbeddedServiceHost, RecorderCommands, UpdateControl } from './computer/index.ts';
import { Agents, Organization } from './agents/index.ts';
import {
  ConsultGate,
  senderOf,
  ConsultAccessView,
  AnswerStore,
  ConsultAnswers,
  announceConsults,
  ConsultCache,
  ConsultCommands,
  ConsultConversation,
  ConversationStore,
  ConsultNotes,
  ConsultOutbox,
  Recorder,
  Visits,
  AccountRetention,
  ConsultSearch,
  ConsultTrail,
  DraftStore,
} from './consults/index.ts';
import { ClinicConsults, RecordedHere, ClinicConversation } from './clinic/index.ts';
import { Pipeline } from './jobs/index.ts';
import { PracticeSystem } from './pims/index.ts';
import { connectRelay, type Relay } from './relay/index.ts';
import { loggerFromEnv, type Logger } from './platform/index.ts';
import { Network, ServiceClient, unreachable, type ServiceUrls } from './service/index.ts';
import type { CoreOptions, EmbeddedService, Emit } from './core-options.ts';
import { IndexKeeper, RecordingStore } from './recordings/index.ts';
import type { SecretStore } from './sign-in/index.ts';
import { SettingsStore } from './settings/index.ts';

/**
 * How long after a change the consults' index is written again: rarely, as it is tens of megabytes
 * at a clinic's years of consults, and what it misses costs the next start a read of those folders only.
 */
const INDEX_DELAY_MS = 10 * 60_000;

// What creates an AppCore names its options from here.
export type { CoreOptions } from './core-options.ts';

export class AppCore<S extends EmbeddedService = EmbeddedService> extends EventEmitter<{
  [K in keyof EventPayloads]: [EventPayloads[K]];
}> {
  readonly options: CoreOptions<S>;
  readonly log: Logger;
  readonly settings: SettingsStore;
  readonly recordings: RecordingStore;
  readonly client: ServiceClient;
  readonly session: Session;
  /** The sign-ins of vets who switched user with consults in flight. */
  readonly background: BackgroundSessions;
  /** Who a piece of work acts for, and the sign-in each of its requests goes with. */
  readonly actors: Actors;
  private pruning: Promise<void> = Promise.resolve();
  readonly pipeline: Pipeline;
  readonly agents: Agents;
  /** The clinic's organization at the service (Settings). */
  readonly organization: Organization;
  /** The vet's note edits as they are typed, before they are saved. */
  readonly drafts: DraftStore;
  /** Whether the account signed in may see, act on or claim a consult: asked by every way to one. */
  readonly gate: ConsultGate;
  // The parts the handler table calls, one method a call.
  readonly calls: ServiceCalls;
  readonly appSettings: AppSettings;
  readonly retention: AccountRetention;
  readonly updates: UpdateControl;
  readonly access: ConsultAccessView;
  readonly recorder: Recorder;
  /** Visits of several pets: their split, journaled, finished at start when a kill cut it short. */
  readonly visits: Visits;
  readonly commands: ConsultCommands;
  readonly notes: ConsultNotes;
  /** The agents' answers kept with a consult (differentials from its note). */
  readonly answers: ConsultAnswers;
  /** Who did what to each consult; other parts add entries with `trail.add(id, action)`. */
  readonly trail: ConsultTrail;
  /** The conversations with the clinical assistant about a consult, kept with it. */
  readonly conversation: ConsultConversation;
  /** The organization's consults the service holds that this computer did not record. */
  readonly clinic: ClinicConsults;
  /** The conversations about notes of the clinic's from elsewhere, kept with the account's copy. */
  readonly clinicConversation: ClinicConversation;
  /** The tray's and the shortcut's commands, held for a window whose recorder does not listen yet. */
  readonly recorderCommands: RecorderCommands;
  /** Every consult of this computer, read from the one copy of the recordings and the jobs. */
  readonly cache: ConsultCache;
  /** The search of the consults the vet in front may see. */
  readonly search: ConsultSearch;
  /** The clinic's practice-management system: each vet's sign-in, the day, and notes into the record. */
  readonly practice: PracticeSystem;
  /** The clinic relay: the service's deliveries, passed on by the clinic's receiver (relay/). */
  readonly relay: Relay;
  private readonly embedded: EmbeddedServiceHost<S>;
  /** Writes the consults' index again after changes, so the next start reads one file (recordings/consult-index.ts). */
  private readonly index: IndexKeeper;
  private readonly notices: Notice[];
  /** The check of a kept sign-in at launch (tests wait for it). */
  sessionCheck: Promise<unknown> = Promise.resolve();

  constructor(options: CoreOptions<S>) {
    super();
    this.options = options;
    const log = (this.log = options.log ?? loggerFromEnv());
    // EventEmitter's typed emit cannot follow one generic channel to its payload; Emit's type does.
    // Every event that changes what the consults list would answer is counted (consultsRevision).
    const emit: Emit = (channel, payload) => {
      if (channel === 'consult:changed' || channel === 'consult:removed' || channel === 'session:changed')
        this.cache.changed();
      this.emit(channel, ...([payload] as never));
    };
    const notice = (n: Notice) => this.notice(n);
    this.notices = [...(options.notices ?? [])];
    this.settings = new SettingsStore(options.dataDir);
    this.recordings = new RecordingStore({
      dir: join(options.dataDir, 'recordings'),
      indexFile: join(options.dataDir, 'consults-index.json'),
      log: (l) => log.info(l),
    });
    this.index = new IndexKeeper({
      write: () => this.recordings.saveIndex((id) => this.pipeline.indexed(id)),
      delayMs: options.indexDelayMs ?? INDEX_DELAY_MS,
      log: (l) => log.warn(l),
    });
    this.drafts = new DraftStore(join(options.dataDir, 'drafts'));
    this.drafts.onUnreadable = (id, keptAs) => {
      log.warn(`drafts: the draft of ${id} could not be read; kept as ${keptAs}`);
      notice({
        level: 'warning',
        message:
          "An unsaved edit of a note could not be read, so the service's note is shown. The damaged edit is kept aside in the app's data folder.",
      });
    };
    const { secretStore } = options;
    this.embedded = new EmbeddedServiceHost({ ...options, port: options.embeddedService, log, notice });
    this.client = new ServiceClient({
      urls: () => this.serviceUrls(),
      ...options.client,
      network: new Network(options.network),
      log: (l) => log.debug(l),
    });
    const makeSession = (store: SecretStore) =>
      new Session({
        client: this.client,
        store,
        useScribeLogin: () => this.settings.get().signInAtScribe,
        log: (l) => log.info(l),
      });
    const session = (this.session = makeSession(secretStore));
    const background = (this.background = new BackgroundSessions({
      store: secretStore,
      makeSession,
      log: (l) => log.info(l),
    }));
    const user = () => session.state().user;
    const serviceKey = () => this.serviceKey();
    const actors = (this.actors = new Actors({ session, background, serviceKey }));
    // What this computer recorded: the pipeline notes each recording session asked for here in
    // it, and the clinic's list reads it.
    const recordedHere = new RecordedHere(options.dataDir);
    const pipeline = (this.pipeline = new Pipeline({
      serviceKey,
      sender: (id) => senderOf(this.recordings.peek(id), serviceKey()),
      recordings: this.recordings,
      session,
      background,
      actors,
      client: this.client,
      log: (l) => log.info(l),
      overdueMinutes: () => this.settings.get().scribeOverdueMinutes,
      pollPlanFile: join(options.dataDir, 'poll-plan.json'),
      recordingSessions: recordedHere,
      ...options.pipeline,
    }));
    const gate = (this.gate = new ConsultGate({
      meta: (id) => this.recordings.peek(id),
      user,
      service: serviceKey,
      sent: (id) => pipeline.sent(id),
      legacySender: (id) => pipeline.legacySender(id),
    }));
    this.organization = new Organization(this.client, session, {
      // The secret the service signs deliveries with: to the secret store, never to settings.
      saveWebhookSecret: (secret) => secretStore.saveSecret('webhook-secret', secret),
      actors,
    });
    this.agents = new Agents(this.client, session, { actors });
    this.calls = new ServiceCalls(session, this.client, { background, inFlight: (id) => this.inFlightFor(id) });
    const parts = { settings: this.settings, recordings: this.recordings, session, pipeline, user, serviceKey, log };

    const outbox = new ConsultOutbox({ recordings: this.recordings, gate, job: (id) => pipeline.info(id), emit });
    const cache = (this.cache = new ConsultCache({
      ...parts,
      job: (id) => pipeline.info(id),
      emit,
      // A consult made, or its state moved: told through the outbox, to whom may see it.
      announce: (recording) => outbox.changed(recording.id),
    }));
    // Whatever writes a recording's meta (a chunk, a claim, a rename) or deletes a recording is
    // known to the consults at once: the store's copy is the only one.
    this.recordings.onChange = (meta, before) => {
      cache.remember(meta, before);
      this.index.changed();
    };
    this.recordings.onDelete = (id) => {
      cache.forget(id);
      this.index.changed();
    };
    const access = (this.access = new ConsultAccessView(cache, gate, (id) => this.recordings.audioPath(id)));
    this.search = new ConsultSearch(() => cache.newestFirst(), gate, pipeline);
    this.retention = new AccountRetention(parts);
    const { shortcut, updates } = options;
    this.appSettings = new AppSettings({
      ...parts,
      background,
      retention: this.retention,
      embedded: this.embedded,
      shortcut,
      updates,
      notice,
      relayChanged: () => this.relay.restart(),
      unreachable: (url) => unreachable(this.client.network, url),
    });
    this.updates = new UpdateControl(updates, pipeline, () => cache.activity());
    const rememberTemplate = (templateId: string) => this.appSettings.rememberTemplate(templateId);
    const trail = (this.trail = new ConsultTrail({
      folder: (id) => dirname(this.recordings.audioPath(id)),
      deletionsFile: join(options.dataDir, 'deleted-consults.jsonl'),
    }));
    const answers = new AnswerStore(join(options.dataDir, 'answers'));
    const shared = {
      ...parts,
      cache,
      access,
      gate,
      trail,
      drafts: this.drafts,
      answers,
      emit,
      outbox,
      rememberTemplate,
    };
    const visits = (this.visits = new Visits(shared));
    const consults = { ...shared, visits };
    const conversations = new ConversationStore(join(options.dataDir, 'conversations'));
    this.recorder = new Recorder(consults);
    this.commands = new ConsultCommands({ ...consults, conversations });
    this.notes = new ConsultNotes({
      ...consults,
      clipboard: options.clipboard,
      edited: (id, documentId, actor) => {
        const scribeId = pipeline.scribeOf(id, documentId);
        if (scribeId !== null) this.relay.editSaved(actor, scribeId);
      },
    });
    this.answers = new ConsultAnswers({ ...consults, ddx: (input, actor) => this.agents.ddx(input, actor) });
    this.conversation = new ConsultConversation({
      ...consults,
      conversations,
      actors,
      noteText: (id, documentId) => this.notes.formats(id, documentId).text,
      chat: (token, body) => this.client.chat(token, body),
    });

    this.recorderCommands = new RecorderCommands({ actors, emit, log });
    session.on('changed', (s) => {
      this.recorderCommands.sessionChanged();
      emit('session:changed', sessionInfo(s, background));
    });
    background.on('changed', () => emit('session:changed', sessionInfo(session.state(), background)));
    // A background sign-in lasts while its vet's consults are in flight, no longer.
    const prune = () => {
      this.pruning = this.pruning
        .then(() => background.prune((id) => this.inFlightFor(id)))
        .catch((e: unknown) => log.warn(`session: a background sign-in could not be ended: ${(e as Error).message}`));
    };
    // The consults' index follows every change of a job or document (and a consult's removal).
    pipeline.on('job', () => this.index.changed());
    pipeline.on('removed', () => this.index.changed());
    pipeline.on('job', prune);
    pipeline.on('documentReady', prune);
    pipeline.on('removed', prune);
    announceConsults({ pipeline, cache, gate, emit, outbox, session, notify: options.notify });
    // Read from the service when the window asks: once per sign-in, on Refresh, and when a note
    // becomes ready (the window's clinic store), so the engine makes no call of its own for it.
    const clinic = (this.clinic = new ClinicConsults({
      dataDir: options.dataDir,
      session,
      client: this.client,
      serviceKey,
      localIds: () => pipeline.serviceIds(),
      log: (l) => log.info(l),
      changed: (view) => emit('clinic:changed', view),
      here: recordedHere,
      relayLinks: (account) => this.relay.pairs(account.userId, account.organizationId),
      editedElsewhere: (account, scribeId) => this.relay.editOf(account.organizationId, scribeId),
    }));
    this.clinicConversation = new ClinicConversation({
      dataDir: options.dataDir,
      clinic,
      actors,
      chat: (token, body) => this.client.chat(token, body),
    });
    this.relay = connectRelay({
      address: () => this.settings.get().relayUrl,
      session,
      actors,
      pipeline,
      emit: (status) => emit('relay:changed', status),
      // The relay is reached as the service is: the computer's proxy, the clinic's roots of trust.
      network: this.client.network,
      dataDir: options.dataDir,
      linked: (link) =>
        void clinic
          .heardLink(link)
          .catch((e: unknown) => log.warn(`clinic: a link heard from the relay was not kept: ${(e as Error).message}`)),
      ...options.relay,
      // The name set in Settings from the next save on; none set, the host name.
      computerName: () => this.settings.get().computerName || this.hostName(),
      log: (l) => log.info(l),
    });
    const noteRecordedHere = (ids: { recordingSessionIds: ReadonlySet<string>; scribeIds: ReadonlySet<string> }) =>
      clinic
        .recordedHere(ids)
        .catch((e: unknown) =>
          log.warn(`clinic: this computer's consults could not be noted: ${(e as Error).message}`),
        );
    pipeline.on('job', (job) => void noteRecordedHere(pipeline.serviceIds(job.recordingId)));
    this.practice = new PracticeSystem({
      dir: join(options.dataDir, 'pims'),
      secretStore,
      setup: () => this.settings.get().pims,
      saveSetup: async (setup) => void (await this.settings.setPims(setup)),
      sandbox: () => {
        const provet = this.settings.get().useSandbox ? this.embedded.running?.provet : undefined;
        return provet ? { kind: 'provet', address: provet.address, clientId: provet.clientId } : null;
      },
      openBrowser: options.openBrowser,
      consult: (id, as) => {
        try {
          return access.consultFor(id, as);
        } catch {
          return null;
        }
      },
      noteText: (id, as) => this.notes.formats(id, null, as).text,
      filed: async (id, by) => void (await trail.add(id, 'filed', { who: actorUser(by) })),
      inFront: (actor) => actors.inFront(actor),
      current: () => actors.current(),
      ownerOf: (id) => this.recordings.peek(id)?.owner ?? null,
      emitToday: (day) => emit('pims:day', day),
      emitNote: (id, state) => emit('pims:note', { id, state }),
      http: {
        timeoutMs: options.pims?.timeoutMs,
        dispatcherFor: async (url) => this.client.network.dispatcher(await this.client.network.route(url)),
        log: (l) => log.debug(l),
      },
      log: (l) => log.info(l),
      signInTimeoutMs: options.pims?.signInTimeoutMs,
      recheckMs: options.pims?.recheckMs,
    });
  }

  /** The embedded sandbox while it runs (its counters serve tests and benchmarks). */
  get embeddedSandbox(): S | null {
    return this.embedded.running;
  }

  serviceUrls(): ServiceUrls {
    const s = this.settings.get();
    return s.useSandbox ? this.embedded.urls() : { ...s.serviceUrls };
  }

  /** Which service accounts belong to now: the built-in sandbox, or the scribing address. */
  serviceKey(): string {
    const s = this.settings.get();
    return s.useSandbox ? 'sandbox' : s.serviceUrls.scribeUrl;
  }

  /** Loads everything from the data folder, starts the sandbox if asked, resumes jobs. */
  async start(): Promise<void> {
    await mkdir(this.options.dataDir, { recursive: true });
    const settings = await this.settings.load();
    if (this.settings.notice) this.notice({ level: 'warning', message: this.settings.notice });
    // The built-in sandbox starts while the recordings are read (its start is mostly the CPU's,
    // their reading mostly the disk's). Nothing it does may keep the vet's recordings out of
    // reach: a sandbox that fails to start says so as a notice, and the recordings are read whatever.
    const sandboxStarted = settings.useSandbox ? this.embedded.startAtLaunch() : Promise.resolve();
    // One read of each recording's folder (or of the consults' index) gives both what a crash cut
    // short and the whole list.
    // A start that fails here still waits for the sandbox, so a stop after it finds it to close.
    const {
      all: metas,
      recovered,
      listing,
      indexed,
    } = await this.recordings.open().catch(async (e: unknown) => {
      await sandboxStarted;
      throw e;
    });
    // Consults read from their folders rather than the index (none, or a stale one): written again
    // later (and at stop), so the next start reads one file.
    if (indexed.size < metas.length) this.index.changed();
    this.cache.loaded();
    if (recovered.length > 0) {
      this.notice({
        level: 'warning',
        message: `${recovered.length === 1 ? 'A recording' : `${recovered.length} recordings`} left unfinished when the app closed ${recovered.length === 1 ? 'was' : 'were'} recovered. Upload or discard ${recovered.length === 1 ? 'it' : 'them'} in Consults.`,
      });
    }
    await sandboxStarted;
    await this.session.restore();
    await this.background.restore();
    // Checked in the background: an unreachable service must not hold up the window.
    this.sessionCheck = this.session.verify().catch((e: unknown) => {
      this.log.warn(`session: check at launch failed: ${(e as Error).message}`);
      return this.session.state();
    });
    await this.pipeline.init(metas, listing, indexed);
    // A visit whose split a kill or a full disk cut short has its other pets made and is sent.
    for (const notice of await this.visits.resume(metas)) this.notice(notice);
    // Restored only while their consults are still in flight.
    await this.background.prune((id) => this.inFlightFor(id));
    // What a delete cut short by a kill left of a consult whose folder is gone.
    const finished = await this.commands
      .finishDeletes()
      .catch((e: unknown) => this.log.warn(`consults: deletions not finished yet: ${(e as Error).message}`));
    if (finished)
      this.log.info(`consults: finished ${finished} deletion(s) a kill cut short (drafts, answers, conversations)`);
    // What a write cut short by a crash left behind (temporary files of unsaved edits).
    await this.drafts
      .sweep()
      .catch((e: unknown) => this.log.warn(`drafts: leftovers could not be removed: ${(e as Error).message}`));
    await this.retention.start();
    this.practice.start();
    this.relay.start();
  }

  /** Stops the loops and the sandbox; jobs resume from disk at the next start. */
  async stop(): Promise<void> {
    this.retention.stop();
    this.practice.stop();
    await this.relay.stop();
    await this.pipeline.stop();
    await this.index.flush();
    await this.embedded.stop();
    await this.client.network.close();
  }

  /** Whether this vet has a consult on its way on this computer, or a recording going. */
  inFlightFor(userId: string): boolean {
    if (this.pipeline.inFlightFor(userId)) return true;
    return this.cache
      .all()
      .some(
        (c) =>
          c.recording.recordedBy?.userId === userId &&
          (c.recording.state === 'recording' || c.recording.state === 'paused'),
      );
  }

  notice(n: Notice): void {
    this.notices.push(n);
    this.emit('notice', n);
  }

  appInfo(): AppInfo {
    const store = this.options.secretStore;
    const sandbox = this.embedded.running;
    return {
      name: this.options.app.name,
      version: this.options.app.version,
      sandbox: this.settings.get().useSandbox && sandbox ? { demo: sandbox.demo } : null,
      secretStore: { kind: store.kind, persistent: store.persistent, description: store.description },
      notices: [...this.notices],
      desktop: this.options.shortcut !== undefined,
      shortcutCaveat: this.options.shortcut?.caveat?.() ?? null,
      hostName: this.hostName(),
    };
  }

  /** The name this computer goes by when Settings gives it none (tests give one in its stead). */
  private hostName(): string {
    return this.options.relay?.computerName?.trim() || hostname();
  }

  /**
   * A click on a desktop notification about a consult: the window opens that consult, if it is
   * still the signed-in account's (another vet may have signed in since it was shown). Whether
   * it was opened.
   */
  openConsult(id: string): boolean {
    if (!this.gate.allows(id)) return false;
    this.emit('consult:open', { id });
    return true;
  }
}
