// The engine of the app, Electron-free: settings, the embedded sandbox, the session, the
// recordings, the pipeline and the clinical calls, wired together. Electron's main process
// (src/main/index.ts) and the browser test host both create one and bind its handler table to
// their transport; what either needs from its platform (the secret store, desktop
// notifications, the audio address) comes in as options.
//
// Longer than a module here should be: besides the wiring it still holds the consults' own
// operations (the note's views and export, search, claims, retention by clinic, settings as a
// clinic sees them), which belong in modules of their own beside core/jobs/ and
// core/recordings/, with this file left as the wiring.
import { EventEmitter } from 'node:events';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  AppInfo,
  ConsultInfo,
  EventPayloads,
  NoteExport,
  NoteFormats,
  Notice,
  RecordingInfo,
} from '../../shared/ipc.ts';
import { SENDING_STATES, type DocumentInfo, type JobInfo } from '../../shared/jobs.ts';
import {
  noteFileBase,
  sectionsFromText,
  sectionsToHtml,
  sectionsToPlainText,
  sectionsToRtf,
} from '../../shared/note/index.ts';
import type { NoteMeta } from '../../shared/note/types.ts';
import { settingsPatchSchema, type Retention, type Settings } from '../../shared/settings.ts';
import {
  newSandboxSecret,
  sandboxSecretProblem,
  startSandbox,
  type Sandbox,
  type SandboxOptions,
} from '../../sandbox/index.ts';
import { Clinical } from './clinical.ts';
import { ConsultGate, type ConsultAccess } from './consult-gate.ts';
import { loggerFromEnv, type Logger } from './log.ts';
import { notePdf } from './note-pdf.ts';
import { JobError, ownerOf, Pipeline, type PipelineOptions, type RetentionPolicy } from './jobs/pipeline.ts';
import { localDate, RecordingStore, type RecordingMeta } from './recordings/index.ts';
import type { SecretStore } from './secret-store.ts';
import { shortcutProblem, type RecorderActivity } from '../../shared/desktop.ts';
import { restartRefusal, type Busy, type UpdateInfo } from '../../shared/updates.ts';
import { DraftStore } from './drafts.ts';
import { Network, type NetworkOptions } from './network.ts';
import { ServiceClient, type ServiceUrls } from './service-client.ts';
import { Session, SignedOutError } from './session.ts';
import { SettingsError, SettingsStore } from './settings.ts';

export interface CoreOptions {
  dataDir: string;
  secretStore: SecretStore;
  app: { name: string; version: string };
  log?: Logger;
  /** A desktop notification (Electron's Notification); optional elsewhere. */
  notify?: (title: string, body: string) => void;
  /** The address at which the window can play a recording's audio (a custom protocol, an HTTP route). */
  audioUrl: (recordingId: string) => string;
  /** Options of the embedded sandbox (tests and the browser host shorten its times). */
  sandbox?: Partial<SandboxOptions>;
  client?: { timeoutMs?: number; uploadStallMs?: number };
  /** The computer's proxy and trusted roots (Electron: session.resolveProxy and the OS store); absent: direct, Node's roots. */
  network?: NetworkOptions;
  pipeline?: Partial<Omit<PipelineOptions, 'recordings' | 'session' | 'client'>>;
  /** Notices to show from the start (e.g. that tokens are kept in memory only). */
  notices?: Notice[];
  /** The system clipboard, where main has one (Electron's clipboard.write); none in the browser host. */
  clipboard?: ClipboardPort;
  /** The global shortcut, where main has one (Electron's globalShortcut); none in the browser host. */
  shortcut?: ShortcutPort;
  /** Updates from the clinic's feed, where main has them (electron-updater); none in the browser host. */
  updates?: UpdatePort;
}

export interface UpdatePort {
  info(): UpdateInfo;
  /** Uses this feed from now on ('' = no updates). */
  configure(feedUrl: string): void;
  /** Quits and installs the downloaded update; the core has checked that nothing is under way. */
  restart(): void;
}

export interface ShortcutPort {
  /**
   * Makes `accelerator` the recording shortcut in place of the one in force ('' = none). Null
   * when done; else why not, in words (another app holds it), with the old one still in force.
   */
  apply(accelerator: string): string | null;
  /** Why the desktop may not pass the shortcut on, for Settings; null where it does. */
  caveat?(): string | null;
}

export interface ClipboardPort {
  /** Puts the three flavours on the clipboard at once, so a paste keeps headings where it can. */
  write(flavours: { text: string; html: string; rtf: string }): Promise<void> | void;
}

const NOT_THEIRS = 'That consult is not on this computer, or it belongs to another clinic’s account.';

/** A consult as the window gets it; one it may only claim says so. */
function withAccess(c: ConsultInfo, access: ConsultAccess): ConsultInfo {
  return access === 'claim' ? { ...c, claimable: true } : c;
}

const EXPORT_TYPES = { txt: 'text/plain; charset=utf-8', rtf: 'application/rtf', pdf: 'application/pdf' } as const;

const RETENTION_SWEEP_MS = 3600_000;

/** How a consult is called in notifications: its patient, else its label, else its time. */
function consultName(recording: RecordingInfo): string {
  if (recording.patientName) return recording.patientName;
  if (recording.label) return recording.label;
  return `The consult at ${new Date(recording.startedAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`;
}

export function toRecordingInfo(meta: RecordingMeta): RecordingInfo {
  return {
    id: meta.id,
    startedAt: meta.startedAt,
    finishedAt: meta.finishedAt,
    durationMs: meta.durationMs,
    mimeType: meta.mimeType,
    label: meta.label,
    patientName: meta.patientName,
    description: meta.description,
    templateId: meta.templateId,
    state: meta.state,
    bytes: meta.bytes,
    recordedBy: meta.owner,
    consentAt: meta.consentAt,
    listName: meta.listName,
  };
}

export class AppCore extends EventEmitter<{ [K in keyof EventPayloads]: [EventPayloads[K]] }> {
  readonly settings: SettingsStore;
  readonly recordings: RecordingStore;
  readonly client: ServiceClient;
  readonly session: Session;
  readonly pipeline: Pipeline;
  readonly clinical: Clinical;
  /** The vet's note edits as they are typed, before they are saved. */
  readonly drafts: DraftStore;
  /** Whether the account signed in may see, act on or claim a consult: asked by every way to one. */
  readonly gate: ConsultGate;
  readonly options: CoreOptions;
  readonly log: Logger;
  private sandbox: Sandbox | null = null;
  private readonly metas = new Map<string, RecordingInfo>();
  private readonly notices: Notice[];
  private retentionTimer: NodeJS.Timeout | null = null;
  /** The check of a kept sign-in at launch (tests wait for it). */
  sessionCheck: Promise<unknown> = Promise.resolve();

  constructor(options: CoreOptions) {
    super();
    this.options = options;
    this.log = options.log ?? loggerFromEnv();
    this.notices = [...(options.notices ?? [])];
    this.settings = new SettingsStore(options.dataDir);
    this.recordings = new RecordingStore({ dir: join(options.dataDir, 'recordings') });
    // Whatever writes a recording's meta (a chunk, a claim, a rename) is known here at once.
    this.recordings.onChange = (meta) => void this.remember(meta);
    this.drafts = new DraftStore(join(options.dataDir, 'drafts'));
    this.drafts.onUnreadable = (id, keptAs) => {
      this.log.warn(`drafts: the draft of ${id} could not be read; kept as ${keptAs}`);
      this.notice({
        level: 'warning',
        message:
          "An unsaved edit of a note could not be read, so the service's note is shown. The damaged edit is kept aside in the app's data folder.",
      });
    };
    this.client = new ServiceClient({
      urls: () => this.serviceUrls(),
      ...options.client,
      network: new Network(options.network),
      log: (l) => this.log.debug(l),
    });
    this.session = new Session({
      client: this.client,
      store: options.secretStore,
      useScribeLogin: () => this.settings.get().useLoginRow,
      log: (l) => this.log.info(l),
    });
    this.gate = new ConsultGate({
      meta: (id) => this.recordings.peek(id),
      user: () => this.session.state().user,
      service: () => this.serviceKey(),
      sent: (id) => this.pipeline.sent(id),
      legacySender: (id) => this.pipeline.legacySender(id),
    });
    this.pipeline = new Pipeline({
      serviceKey: () => this.serviceKey(),
      sender: (id) => this.gate.sender(id),
      recordings: this.recordings,
      session: this.session,
      client: this.client,
      log: (l) => this.log.info(l),
      overdueMinutes: () => this.settings.get().scribeOverdueMinutes,
      ...options.pipeline,
    });
    this.clinical = new Clinical(this.client, this.session, {
      // The secret the service signs deliveries with: to the secret store, never to settings.
      saveWebhookSecret: (secret) => options.secretStore.saveSecret('webhook-secret', secret),
    });

    this.session.on('changed', (s) =>
      this.emit('session:changed', {
        signedIn: s.signedIn,
        user: s.user,
        endedBecause: s.endedBecause === 'user' ? null : s.endedBecause,
      }),
    );
    this.pipeline.on('job', (job) =>
      this.withRecording(job.recordingId, (recording) => {
        // Another clinic's consult is none of this window's business, not even its progress.
        const access = this.gate.access(recording.id);
        if (access !== 'none')
          this.emit(
            'consult:changed',
            withAccess({ recording, job: this.pipeline.info(job.recordingId) ?? job }, access),
          );
      }),
    );
    this.pipeline.on('noteReady', (job) =>
      this.withRecording(job.recordingId, (recording) => this.announceNote(recording, job)),
    );
    this.pipeline.on('documentReady', (job, document) =>
      this.withRecording(job.recordingId, (recording) => this.announceNote(recording, job, document)),
    );
    this.pipeline.on('overdue', (job) =>
      this.withRecording(job.recordingId, (recording) => {
        // A desktop notification names the patient: only for the account signed in, if theirs.
        if (this.gate.allows(recording.id))
          this.options.notify?.(
            'Note taking longer than usual',
            `${consultName(recording)}: the service has not finished the note yet. Open Consults to ask again.`,
          );
      }),
    );
  }

  /**
   * Runs `fn` with a recording's info: at once from the cache, or after reading it from disk
   * for one made outside the handlers (then with the job's latest snapshot, never a stale one).
   */
  private withRecording(id: string, fn: (recording: RecordingInfo) => void): void {
    const cached = this.metas.get(id);
    if (cached) {
      fn(cached);
      return;
    }
    void this.recordings
      .get(id)
      .catch(() => null)
      .then((meta) => {
        if (meta) fn(this.metas.get(id) ?? this.remember(meta));
      });
  }

  private announceNote(recording: RecordingInfo, job: JobInfo, document?: DocumentInfo): void {
    if (!this.gate.allows(recording.id)) return;
    if (document) {
      this.emit('note:ready', { recording, job, documentId: document.id });
      this.options.notify?.(
        `${document.name ?? 'Document'} ready`,
        `${consultName(recording)} — ${document.name ?? 'another document'} is ready to read.`,
      );
      return;
    }
    this.emit('note:ready', { recording, job });
    this.options.notify?.('Note ready', `${consultName(recording)} — the note is ready to read.`);
  }

  /** The embedded sandbox while it runs (its counters serve tests and benchmarks). */
  get embeddedSandbox(): Sandbox | null {
    return this.sandbox;
  }

  serviceUrls(): ServiceUrls {
    const s = this.settings.get();
    if (s.useSandbox) {
      if (!this.sandbox)
        return {
          agentsUrl: 'http://127.0.0.1:9/unavailable',
          scribeUrl: 'http://127.0.0.1:9/unavailable',
          agentsApiUrl: 'http://127.0.0.1:9/unavailable',
        };
      return {
        agentsUrl: this.sandbox.urls.agents_url,
        scribeUrl: this.sandbox.urls.scribe_url,
        agentsApiUrl: this.sandbox.urls.agents_api_url,
      };
    }
    return { ...s.serviceUrls };
  }

  /** Loads everything from the data folder, starts the sandbox if asked, resumes jobs. */
  async start(): Promise<void> {
    await mkdir(this.options.dataDir, { recursive: true });
    const settings = await this.settings.load();
    if (this.settings.notice) this.notice({ level: 'warning', message: this.settings.notice });
    // The vet's recordings first: nothing the sandbox does may keep them out of reach.
    const recovered = await this.recordings.recoverUnfinished();
    const metas = await this.recordings.list();
    for (const meta of metas) this.metas.set(meta.id, toRecordingInfo(meta));
    if (recovered.length > 0) {
      this.notice({
        level: 'warning',
        message: `${recovered.length === 1 ? 'A recording' : `${recovered.length} recordings`} left unfinished when the app closed ${recovered.length === 1 ? 'was' : 'were'} recovered. Upload or discard ${recovered.length === 1 ? 'it' : 'them'} in Consults.`,
      });
    }
    if (settings.useSandbox) {
      try {
        await this.startSandbox();
      } catch (e) {
        this.log.warn(`sandbox: could not start: ${(e as Error).message}`);
        this.notice({
          level: 'error',
          message:
            'The built-in sandbox could not start, so nothing can be sent to it. Recordings on this computer are kept. Choose another service in Settings, or restart the app.',
        });
      }
    }
    await this.session.restore();
    // Checked in the background: an unreachable service must not hold up the window.
    this.sessionCheck = this.session.verify().catch((e: unknown) => {
      this.log.warn(`session: check at launch failed: ${(e as Error).message}`);
      return this.session.state();
    });
    await this.pipeline.init(metas);
    // What a write cut short by a crash left behind (temporary files of unsaved edits).
    await this.drafts
      .sweep()
      .catch((e: unknown) => this.log.warn(`drafts: leftovers could not be removed: ${(e as Error).message}`));
    await this.sweepRetention();
    this.retentionTimer = setInterval(() => void this.sweepRetention(), RETENTION_SWEEP_MS);
    this.retentionTimer.unref();
  }

  private async startSandbox(): Promise<void> {
    // The secret last: options parsed from flags carry secretKey null, which must not win.
    const secretKey = this.options.sandbox?.secretKey ?? (await this.sandboxSecret());
    this.sandbox = await startSandbox({
      dataDir: join(this.options.dataDir, 'sandbox'),
      ...this.options.sandbox,
      secretKey,
    });
    this.log.info(`sandbox: serving on ${this.sandbox.origin}`);
    const problem = this.sandbox.stateProblem();
    if (problem) {
      this.log.warn(`sandbox: ${problem}; it runs in memory`);
      this.notice({
        level: 'warning',
        message:
          'The built-in sandbox cannot keep its demo data on this disk, so it runs in memory: its example consults start afresh next time. Your recordings are not affected.',
      });
    }
  }

  /**
   * The built-in sandbox's secret, from the secret store beside the session (made and kept
   * there the first time). A store that cannot be read or written gives one for this run: its
   * sign-ins then last the run, as a session kept in memory does.
   */
  private async sandboxSecret(): Promise<string> {
    const store = this.options.secretStore;
    try {
      const kept = await store.loadSecret('sandbox-key');
      // One that is not a key (altered by hand) is replaced.
      if (kept && sandboxSecretProblem(kept) === null) return kept;
    } catch (e) {
      this.log.warn(
        `sandbox: its key could not be read from the secret store (${(e as Error).message}); one for this run is used`,
      );
      return newSandboxSecret();
    }
    const secret = newSandboxSecret();
    await store
      .saveSecret('sandbox-key', secret)
      .catch((e: unknown) =>
        this.log.warn(
          `sandbox: its key could not be kept in the secret store (${(e as Error).message}); sign-ins to it last this run`,
        ),
      );
    return secret;
  }

  /** The clinic an owner (or the vet signed in) belongs to, as retention keys it: its service and organization. */
  private accountOf(owner: { organizationId: string } | null, service = this.serviceKey()): string | null {
    return owner ? `${service} ${owner.organizationId}` : null;
  }

  /** A clinic's retention: its own choice, else the app's default. */
  private retentionOf(account: string | null): Retention {
    const s = this.settings.get();
    return (
      (account !== null ? s.retentionByAccount[account] : undefined) ?? {
        retentionDays: s.retentionDays,
        retentionAppliesFrom: s.retentionAppliesFrom,
      }
    );
  }

  /**
   * Each consult's retention is its owner's clinic's. A consult no one owns keeps its audio: it
   * has no note yet, and no clinic has said how long its audio may be kept.
   */
  private retentionPolicy(onlyAccount?: string | null): RetentionPolicy {
    return (id) => {
      const owner = this.recordings.peek(id)?.owner ?? null;
      const account = owner ? this.accountOf(owner, owner.service) : null;
      if (account === null || (onlyAccount !== undefined && account !== onlyAccount)) return null;
      const r = this.retentionOf(account);
      return {
        keepDays: r.retentionDays,
        countFrom: r.retentionAppliesFrom === null ? null : Date.parse(r.retentionAppliesFrom),
      };
    };
  }

  /** The settings as the window sees them: the retention is the signed-in vet's clinic's. */
  settingsView(): Settings {
    const r = this.retentionOf(this.accountOf(this.session.state().user));
    return { ...this.settings.get(), ...r, retentionByAccount: {} };
  }

  /** Deletes the audio past each clinic's retention (hourly, and when a clinic changes it). */
  async sweepRetention(): Promise<void> {
    try {
      const deleted = await this.pipeline.applyRetention(this.retentionPolicy());
      if (deleted.length > 0) this.log.info(`retention: deleted the audio of ${deleted.length} finished consult(s)`);
    } catch (e) {
      this.log.warn(`retention: ${(e as Error).message}`);
    }
  }

  notice(n: Notice): void {
    this.notices.push(n);
    this.emit('notice', n);
  }

  appInfo(): AppInfo {
    const store = this.options.secretStore;
    return {
      name: this.options.app.name,
      version: this.options.app.version,
      sandbox: this.settings.get().useSandbox && this.sandbox ? { demo: this.sandbox.demo } : null,
      secretStore: { kind: store.kind, persistent: store.persistent, description: store.description },
      notices: [...this.notices],
      desktop: this.options.shortcut !== undefined,
      shortcutCaveat: this.options.shortcut?.caveat?.() ?? null,
    };
  }

  /**
   * Settings change; a change of service signs out (the tokens belong to the other one). The
   * retention is the signed-in vet's clinic's own. What a change of service could not do for a
   * consult is said in a notice; the settings themselves were saved.
   */
  async updateSettings(input: Parameters<SettingsStore['update']>[0]): Promise<Settings> {
    const { retentionDays, retentionAppliesFrom, ...patch } = input;
    const retentionChange = retentionDays !== undefined || retentionAppliesFrom !== undefined;
    const account = this.accountOf(this.session.state().user);
    if (retentionChange && account === null)
      throw new SettingsError(
        "retentionDays: sign in first: each clinic's account keeps its own recordings for as long as it chooses.",
      );
    if (retentionChange) {
      const checked = settingsPatchSchema.safeParse({ retentionDays, retentionAppliesFrom });
      if (!checked.success)
        throw new SettingsError(checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    }
    const before = this.settings.get();
    // A new shortcut is registered before it is saved: one another app holds is refused, and
    // the old one stays in force and in the settings.
    const shortcut = typeof patch.recordShortcut === 'string' ? patch.recordShortcut.trim() : null;
    const newShortcut =
      shortcut !== null &&
      shortcut !== before.recordShortcut &&
      this.options.shortcut &&
      shortcutProblem(shortcut) === null;
    if (newShortcut) {
      const refused = this.options.shortcut?.apply(shortcut) ?? null;
      if (refused) throw new SettingsError(`recordShortcut: ${refused}`);
    }
    let after: Settings;
    try {
      after = await this.settings.update(patch);
    } catch (e) {
      if (newShortcut) this.options.shortcut?.apply(before.recordShortcut);
      throw e;
    }
    const serviceChanged =
      before.useSandbox !== after.useSandbox ||
      JSON.stringify(before.serviceUrls) !== JSON.stringify(after.serviceUrls);
    if (after.useSandbox && !this.sandbox) await this.startSandbox();
    if (!after.useSandbox && this.sandbox) {
      await this.sandbox.close();
      this.sandbox = null;
    }
    if (serviceChanged && this.session.state().signedIn) await this.session.signOut('user');
    if (serviceChanged) {
      const { restarted, failed } = await this.pipeline.restartForNewService();
      if (restarted > 0)
        this.log.info(`settings: another service; ${restarted} consult(s) without a note start again there`);
      if (failed.length > 0) {
        this.notice({
          level: 'error',
          message: `The new service is in use and you are signed out. ${failed.length === 1 ? 'One consult' : `${failed.length} consults`} could not be made ready for it (the disk could not be written); ${failed.length === 1 ? 'it is' : 'they are'} kept on this computer and will be tried again at the next start.`,
        });
      }
    }
    if (retentionChange && account !== null) {
      const was = this.retentionOf(account);
      const next = {
        retentionDays: retentionDays !== undefined ? retentionDays : was.retentionDays,
        retentionAppliesFrom: retentionAppliesFrom !== undefined ? retentionAppliesFrom : was.retentionAppliesFrom,
      };
      await this.settings.setAccountRetention(account, next);
      if (next.retentionDays !== was.retentionDays || next.retentionAppliesFrom !== was.retentionAppliesFrom)
        await this.sweepRetention();
    }
    if (before.updateFeedUrl !== after.updateFeedUrl) this.options.updates?.configure(after.updateFeedUrl);
    return this.settingsView();
  }

  remember(meta: RecordingMeta): RecordingInfo {
    const before = this.metas.get(meta.id)?.state;
    // Called for every chunk: the recorder's activity is looked at again only when a state changed.
    const was = before === meta.state ? null : this.activity();
    const info = toRecordingInfo(meta);
    this.metas.set(info.id, info);
    if (was !== null) {
      const now = this.activity();
      if (now !== was) this.emit('recorder:activity', { activity: now });
    }
    return info;
  }

  /** How many recordings' audio a retention of `days` would delete now (before the vet confirms). */
  retentionPreview(days: number | null): { wouldDelete: number } {
    // The signed-in vet's clinic's consults only: another clinic's audio is not theirs to count.
    const account = this.accountOf(this.session.state().user);
    if (account === null) return { wouldDelete: 0 };
    const own = this.retentionPolicy(account);
    return {
      wouldDelete: this.pipeline.retentionPreview((id) =>
        own(id) === null ? null : { keepDays: days, countFrom: null },
      ),
    };
  }

  /** What an update's restart would cut short: a recording, or a recording not yet sent. */
  busy(): Busy {
    const uploading = this.pipeline.list().some((j) => SENDING_STATES.has(j.state));
    return { recording: this.activity() !== 'idle', uploading };
  }

  updateInfo(): UpdateInfo {
    return (
      this.options.updates?.info() ?? {
        phase: 'off',
        version: null,
        message: 'Updates come with the installed desktop app.',
      }
    );
  }

  /** Restarts into the downloaded update, never while a recording or an upload is under way. */
  restartForUpdate(): { restarting: true } {
    const refusal = restartRefusal(this.busy());
    if (refusal) throw new JobError('busy', refusal);
    if (!this.options.updates || this.updateInfo().phase !== 'ready')
      throw new JobError('bad_state', 'No update is ready to install.');
    this.options.updates.restart();
    return { restarting: true };
  }

  /** Whether a consult is being recorded (or paused) now, for the tray and the updater. */
  activity(): RecorderActivity {
    let activity: RecorderActivity = 'idle';
    for (const meta of this.metas.values()) {
      if (meta.state === 'recording') return 'recording';
      if (meta.state === 'paused') activity = 'paused';
    }
    return activity;
  }

  consult(id: string): ConsultInfo | null {
    const recording = this.metas.get(id);
    return recording ? { recording, job: this.pipeline.info(id) } : null;
  }

  /**
   * The consult as the account signed in may have it: whole, or as an offer to claim it (a
   * consult recorded with no one signed in). Throws not_found for one that is not theirs.
   */
  consultFor(id: string): ConsultInfo {
    const c = this.consult(id);
    const access = this.gate.access(id);
    if (!c || access === 'none') throw new JobError('not_found', NOT_THEIRS);
    return withAccess(c, access);
  }

  /**
   * "Recorded while signed out: send it as Dr …?": the vet signed in takes the consult as
   * theirs. Written where the gate reads it; a job that waited for a claim goes on.
   */
  async claim(id: string): Promise<ConsultInfo> {
    const user = this.session.state().user;
    if (!user) throw new SignedOutError(null);
    if (this.gate.access(id) !== 'claim') throw new JobError('not_found', NOT_THEIRS);
    const meta = await this.recordings.claim(id, ownerOf(user, this.serviceKey()));
    this.pipeline.ownerChanged(id);
    // A finished consult that has its template and patient goes at once, as it would have at Stop.
    if (!this.pipeline.info(id) && meta.state === 'finished' && meta.templateId && meta.patientName?.trim())
      await this.pipeline.submit(id, meta.templateId);
    const claimed = this.consultFor(id);
    this.emit('consult:changed', claimed);
    return claimed;
  }

  /** The audio of a consult the account signed in may play (the audio protocol, the browser host's route); else null. */
  audioFor(id: string): { path: string; mimeType: string } | null {
    const c = this.consult(id);
    if (!c || !this.gate.allows(id)) return null;
    return { path: this.recordings.audioPath(id), mimeType: c.recording.mimeType };
  }

  /** Which service accounts belong to now: the built-in sandbox, or the scribing address. */
  serviceKey(): string {
    const s = this.settings.get();
    return s.useSandbox ? 'sandbox' : s.serviceUrls.scribeUrl;
  }

  /** The consults the account signed in may see and act on, and those it may claim (consults:list). */
  visibleConsults(): ConsultInfo[] {
    const shown: ConsultInfo[] = [];
    for (const c of this.consults()) {
      const access = this.gate.access(c.recording.id);
      if (access !== 'none') shown.push(withAccess(c, access));
    }
    return shown;
  }

  /**
   * The visible consults whose list name, patient, visit, label, note or further documents hold every word of the query
   * (case and accents aside), newest first. Plain text: a query with pattern characters finds
   * them as written.
   */
  searchConsults(query: string): string[] {
    const fold = (text: string) =>
      text
        .normalize('NFD')
        .replace(/\p{Diacritic}/gu, '')
        .toLowerCase();
    const words = fold(query).split(/\s+/).filter(Boolean);
    if (words.length === 0) return this.visibleConsults().map((c) => c.recording.id);
    const kept: typeof this.searchTexts = new Map();
    // A consult offered to claim is found by its patient and visit only: its notes are not yet this vet's.
    const found = this.visibleConsults().filter(({ recording, job }) => {
      const whole = job !== null && this.gate.allows(recording.id);
      const { note, editedNote } = whole ? this.pipeline.note(recording.id) : { note: null, editedNote: null };
      const parts = [
        recording.listName,
        recording.patientName,
        recording.description,
        recording.label,
        editedNote ?? note,
        ...(whole ? this.pipeline.documentTexts(recording.id) : []),
      ];
      // Folding every note again took most of a search's time with thousands of consults: a
      // consult's folded text is reused while it is made of the same texts (mostly the very
      // same strings the pipeline holds, so comparing them costs next to nothing).
      let text = this.searchTexts.get(recording.id);
      if (!text || text.parts.length !== parts.length || text.parts.some((p, i) => p !== parts[i])) {
        text = { parts, folded: fold(parts.filter(Boolean).join('\n')) };
      }
      kept.set(recording.id, text);
      const { folded } = text;
      return words.every((w) => folded.includes(w));
    });
    // Consults deleted, or no longer this account's to see, are dropped with the next search.
    this.searchTexts = kept;
    return found.map((c) => c.recording.id);
  }

  /** searchConsults' folded text of each consult, with the texts it was made of. */
  private searchTexts = new Map<string, { parts: readonly (string | null)[]; folded: string }>();

  consults(): ConsultInfo[] {
    return [...this.metas.values()]
      .sort((a, b) => b.startedAt.localeCompare(a.startedAt))
      .map((recording) => ({ recording, job: this.pipeline.info(recording.id) }));
  }

  /** The note (or one more document of the consult) as the window shows it, with the patient and the consult's local date. */
  noteView(id: string, documentId: string | null = null) {
    const { recording, job } = this.consultOrThrow(id);
    const { note, editedNote, noteRtf } = this.pipeline.note(id, documentId);
    const documentName = documentId === null ? null : (job?.documents.find((d) => d.id === documentId)?.name ?? null);
    // The service's RTF is the note it wrote; once the vet has edited it, it no longer is.
    return {
      note,
      editedNote,
      rtf: editedNote === null ? noteRtf : null,
      patientName: recording.patientName,
      sessionDate: localDate(recording.startedAt),
      documentName,
    };
  }

  /**
   * The note as shown (the vet's edit when there is one) as text, HTML and RTF. The service's own
   * RTF is used as it came while the note is unedited; an edit is written out from its sections.
   */
  noteFormats(id: string, documentId: string | null = null): NoteFormats {
    const { sections, meta, serviceRtf } = this.noteParts(id, documentId);
    return {
      text: sectionsToPlainText(sections, meta),
      html: sectionsToHtml(sections, meta),
      rtf: serviceRtf ?? sectionsToRtf(sections, meta),
      fileBase: noteFileBase(meta),
    };
  }

  async exportNote(
    id: string,
    format: keyof typeof EXPORT_TYPES,
    documentId: string | null = null,
  ): Promise<NoteExport> {
    const { sections, meta } = this.noteParts(id, documentId);
    const formats = this.noteFormats(id, documentId);
    // A plain Uint8Array, not a Buffer: a Buffer would cross the HTTP bridge as its toJSON().
    const data =
      format === 'pdf'
        ? new Uint8Array(await notePdf(sections, meta))
        : new Uint8Array(new TextEncoder().encode(format === 'txt' ? formats.text : formats.rtf));
    return { fileName: `${formats.fileBase}.${format}`, mimeType: EXPORT_TYPES[format], data };
  }

  private noteParts(id: string, documentId: string | null) {
    const view = this.noteView(id, documentId);
    const shown = view.editedNote ?? view.note;
    if (shown === null)
      throw new JobError(
        'not_found',
        documentId === null ? 'This consult has no note yet.' : 'This document is not written yet.',
      );
    const meta: NoteMeta = { patientName: view.patientName, date: view.sessionDate, templateName: view.documentName };
    return { sections: sectionsFromText(shown), meta, serviceRtf: view.rtf };
  }

  consultOrThrow(id: string): ConsultInfo {
    const c = this.consult(id);
    if (!c) throw new JobError('not_found', 'That consult is not on this computer.');
    return c;
  }

  /** The clipboard where this platform has one; false where it has none (the window writes it then). */
  async writeClipboard(flavours: { text: string; html: string; rtf: string }): Promise<{ written: boolean }> {
    if (!this.options.clipboard) return { written: false };
    await this.options.clipboard.write(flavours);
    return { written: true };
  }

  /**
   * Deletes a consult: in its turn (after another document being added, before anything asked
   * of it later), its jobs, its folder and its drafts, leftovers included.
   */
  async deleteConsult(id: string): Promise<void> {
    await this.pipeline.delete(id, () => this.drafts.removeConsult(id));
    this.forget(id);
  }

  forget(id: string): void {
    const was = this.activity();
    this.metas.delete(id);
    this.emit('consult:removed', { id });
    const now = this.activity();
    if (now !== was) this.emit('recorder:activity', { activity: now });
  }

  /** Stops the loops and the sandbox; jobs resume from disk at the next start. */
  async stop(): Promise<void> {
    if (this.retentionTimer) clearInterval(this.retentionTimer);
    await this.pipeline.stop();
    await this.sandbox?.close();
    this.sandbox = null;
    await this.client.network.close();
  }
}
