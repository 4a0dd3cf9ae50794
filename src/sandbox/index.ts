// startSandbox(): every operation of docs/service.md on a loopback port, as a module, so the app
// can embed it and each test can start its own. `npm run sandbox` is cli.ts around it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Auth } from './auth.ts';
import { ChatMemory } from './chat.ts';
import { sandboxKeys } from './keys.ts';
import { DEFAULT_OPTIONS, type SandboxOptions } from './options.ts';
import { ScribeJobs } from './scribe-jobs.ts';
import { createSandboxServer, PREFIX, serverOrigin, type Counters } from './server.ts';
import { DEMO_ACCOUNT, StateStore } from './state.ts';
import { Uploads } from './uploads.ts';
import { WebhookSender, type DeliveryAttempt } from './webhooks.ts';
import { seededRandom } from '../shared/seeded-random.ts';
import { PROVET_CLIENT_ID, PROVET_USERS, ProvetInstance, type ProvetNote } from './provet/index.ts';

export { DEFAULT_OPTIONS, parseOptions, OptionsError, type SandboxOptions } from './options.ts';
export { COLLEAGUE_ACCOUNT, DEMO_ACCOUNT, OTHER_ACCOUNT } from './state.ts';
export { newSandboxSecret, sandboxSecretProblem } from './keys.ts';
export { PROVET_CLIENT_ID, PROVET_ID, PROVET_USERS, CONSULTATION_STATUS } from './provet/index.ts';

/** The Provet Cloud test double the sandbox serves, as tests and the app's demo reach it. */
export interface SandboxProvet {
  /** The instance's address, as a clinic's IT types it: `<origin>/provet/<provet_id>`. */
  address: string;
  /** The public client ID the double knows (what Provet's support would issue). */
  clientId: string;
  /** The vets who can sign in on its sign-in page. */
  users: typeof PROVET_USERS;
  /** Checks an appointment's patients in: the consultation it opens; null for no such appointment. */
  checkIn(appointmentId: number): { id: number } | null;
  /**
   * Moves an appointment as the front desk would: to another start (ms, the length kept) or onto
   * other pets; an opened consultation keeps its own pets. False for no such appointment or pet.
   */
  moveAppointment(appointmentId: number, change: { start?: number; patients?: number[] }): boolean;
  /** Every clinical note the double holds, as stored. */
  notes(): ProvetNote[];
  /** Requests per route (`METHOD path`, each id as `{id}`), to count what a client sent. */
  requests(): Record<string, number>;
}

export interface SandboxUrls {
  agents_url: string;
  scribe_url: string;
  agents_api_url: string;
}

export interface SandboxStats extends Counters {
  /** Scribe records created per uploaded file: more than 1 for a file is a duplicate request. */
  scribeRecordsByFileKey: Record<string, number>;
  webhookAttempts: DeliveryAttempt[];
  deliveries: { pending: number; delivered: number; givenUp: number };
}

export interface Sandbox {
  urls: SandboxUrls;
  origin: string;
  port: number;
  demo: { email: string; password: string };
  /** The webhook secret in use: the one given, or one made up when only a URL was given. */
  webhookSecret: string | null;
  /**
   * The options in use. The injected faults, the list fault and the lives of tokens and upload
   * addresses are read as each request comes, so a test may change them while the sandbox runs.
   */
  options: SandboxOptions;
  /** Why its state is not being kept on disk (it goes on in memory); null while it is. */
  stateProblem(): string | null;
  stats(): SandboxStats;
  close(): Promise<void>;
  /** Forgets every conversation of the clinical assistant, as a restarted service would; how many there were. */
  forgetConversations(): number;
  provet: SandboxProvet;
}

const CLOCK_TICK_MS = 50;

export async function startSandbox(overrides: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  const options: SandboxOptions = {
    ...DEFAULT_OPTIONS,
    tokenLog: process.env['SANDBOX_TOKEN_LOG'] ?? null,
    ...overrides,
  };
  const webhookSecret = options.webhookSecret ?? (options.webhookUrl ? randomBytes(24).toString('hex') : null);
  const keys = sandboxKeys(options.secretKey);
  const store = new StateStore(options.dataDir, keys);
  if (store.unopenedSecrets > 0) {
    process.emitWarning(
      `sandbox: ${store.unopenedSecrets} registered webhook secret(s) were sealed under another secret key; register the webhook again to have deliveries signed`,
    );
  }
  if (store.created && options.webhookUrl) {
    for (const hook of store.state.webhooks) hook.is_active = true;
    store.save();
  }
  const tempUploads = options.dataDir ? null : mkdtempSync(join(tmpdir(), 'vet-scribe-sandbox-'));
  const uploads = new Uploads(store, options, tempUploads ?? join(options.dataDir ?? '', 'uploads'), keys);
  const auth = new Auth(store, options, keys.jwt);
  const jobs = new ScribeJobs(store, uploads, options.scribeSeconds, options.scribeStall);
  const sender = new WebhookSender(store, {
    url: options.webhookUrl,
    secret: webhookSecret,
    timeScale: options.timeScale,
  });
  const counters: Counters = {
    requests: 0,
    byRoute: {},
    injected503: 0,
    droppedConnections: 0,
    rateLimited: 0,
    signIns: 0,
    refreshes: 0,
    refreshReplays: 0,
    refreshReuseDetected: 0,
    scribeRequests: 0,
    scribeReplays: 0,
    uploads: 0,
  };
  let origin = '';
  const chat = new ChatMemory();
  // Read at each request, so a test may change the double's lifetimes, limits and faults.
  const provet = new ProvetInstance(
    () => ({
      accessTtlSeconds: options.provetAccessTtlSeconds,
      refreshTtlSeconds: options.provetRefreshTtlSeconds,
      rateLimitPerMinute: options.provetRateLimit,
      noteFault: options.provetNoteFault,
      tokenLog: options.tokenLog,
    }),
    () => origin,
    options.dataDir,
  );
  const server = createSandboxServer(
    {
      options,
      store,
      auth,
      uploads,
      jobs,
      origin: () => origin,
      random: seededRandom(options.seed ?? randomBytes(4).readUInt32LE(0)),
      counters,
      chat,
    },
    provet,
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  origin = serverOrigin(server, options.host);

  // The sandbox's clock: finished scribe jobs announce themselves, due webhook deliveries go out.
  // Whatever fails in a tick is dropped with the tick: a timer that throws would end the process
  // the sandbox runs in, the app's own included.
  const clock = setInterval(() => {
    try {
      const due = jobs.unannounced();
      for (const { job, status } of due) {
        job.announced.push(status);
        sender.announce(job, status);
      }
      if (due.length > 0) store.save();
      sender.tick();
    } catch (e) {
      process.emitWarning(`sandbox: a clock tick failed: ${(e as Error).message}`);
    }
  }, CLOCK_TICK_MS);
  clock.unref();

  let closed = false;
  return {
    urls: {
      agents_url: `${origin}${PREFIX.agents}`,
      scribe_url: `${origin}${PREFIX.scribe}`,
      agents_api_url: `${origin}${PREFIX.agentsApi}`,
    },
    origin,
    port: Number(new URL(origin).port),
    demo: { ...DEMO_ACCOUNT },
    webhookSecret,
    options,
    stateProblem: () => store.saveProblem,
    stats() {
      const byFile: Record<string, number> = {};
      for (const s of Object.values(store.state.scribes)) byFile[s.file_key] = (byFile[s.file_key] ?? 0) + 1;
      const d = store.state.deliveries;
      return {
        ...structuredClone(counters),
        scribeRecordsByFileKey: byFile,
        webhookAttempts: [...sender.attempts],
        deliveries: {
          pending: d.filter((x) => x.state === 'pending').length,
          delivered: d.filter((x) => x.state === 'delivered').length,
          givenUp: d.filter((x) => x.state === 'given_up').length,
        },
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(clock);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      store.save();
      if (tempUploads) rmSync(tempUploads, { recursive: true, force: true });
    },
    forgetConversations: () => chat.forget(),
    provet: {
      address: provet.address,
      clientId: PROVET_CLIENT_ID,
      users: PROVET_USERS,
      checkIn: (appointmentId) => provet.checkIn(appointmentId),
      moveAppointment: (appointmentId, change) => provet.moveAppointment(appointmentId, change),
      notes: () => structuredClone(provet.data.notes),
      requests: () => ({ ...provet.requests }),
    },
  };
}
