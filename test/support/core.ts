// Test support for the main core: a core on a temporary data folder, recordings made from
// real MediaRecorder chunks, and waiting for jobs.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppCore, type CoreOptions } from '../../src/main/core/app-core.ts';
import type { HandlerTable } from '../../src/main/core/ipc-handlers.ts';
import { ownerOf } from '../../src/main/core/jobs/pipeline.ts';
import type { RecordingStore } from '../../src/main/core/recordings/index.ts';
import { MemorySecretStore } from '../../src/main/core/sign-in/secret-store.ts';
import { ServiceError } from '../../src/main/core/service/errors.ts';
import type { JobInfo } from '../../src/shared/jobs.ts';
import { embeddedSandbox } from '../../src/main/embedded-sandbox.ts';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/index.ts';

const CHUNK_DIR = join(import.meta.dirname, '../fixtures/audio/mediarecorder-5s');

/** The chunks of a real 5 s MediaRecorder recording (audio/webm;codecs=opus, 1 s timeslice). */
export function recorderChunks(): Buffer[] {
  return readdirSync(CHUNK_DIR)
    .filter((f) => f.endsWith('.bin'))
    .sort()
    .map((f) => readFileSync(join(CHUNK_DIR, f)));
}

/** A finished recording of a named patient (Bella unless told), ready to be sent. */
/**
 * A finished recording made of real chunks. Given a core, it is the signed-in vet's (as the
 * window's Record makes it), or no one's when signed out; given a store alone, no one's.
 */
export async function makeRecording(
  where: RecordingStore | AppCore,
  label: string | null = 'Bella — vomiting',
  templateId: string | null = null,
  patient: { patientName?: string | null; description?: string | null } = {},
): Promise<string> {
  const store = where instanceof AppCore ? where.recordings : where;
  const user = where instanceof AppCore ? where.session.state().user : null;
  const owner = where instanceof AppCore && user ? ownerOf(user, where.serviceKey()) : null;
  const meta = await store.start({
    mimeType: 'audio/webm;codecs=opus',
    label,
    templateId,
    patientName: 'Bella',
    description: null,
    owner,
    ...patient,
  });
  const chunks = recorderChunks();
  for (const [seq, chunk] of chunks.entries()) await store.appendChunk(meta.id, seq, chunk, (seq + 1) * 1000);
  await store.finish(meta.id, { durationMs: chunks.length * 1000 });
  return meta.id;
}

/** A consult recorded through the window's calls, as the recorder makes one: its id. */
export async function recordThrough(h: HandlerTable, patientName: string, description?: string): Promise<string> {
  const started = await h['recording:start']({
    mimeType: 'audio/webm;codecs=opus',
    patientName,
    ...(description ? { description } : {}),
  });
  if (!started.ok) throw new Error(started.error.message);
  for (const [seq, data] of recorderChunks().entries())
    await h['recording:chunk']({ id: started.data.id, seq, data: new Uint8Array(data), elapsedMs: (seq + 1) * 1000 });
  await h['recording:stop']({ id: started.data.id, durationMs: 5000 });
  return started.data.id;
}

export function tempDir(prefix = 'vet-scribe-core-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A core's options, and the built-in sandbox's (the tests' shorter times). */
export type TestCoreOptions = Partial<CoreOptions<Sandbox>> & { dataDir?: string; sandbox?: Partial<SandboxOptions> };

export async function startCore(options: TestCoreOptions = {}): Promise<AppCore<Sandbox>> {
  const { sandbox, ...coreOptions } = options;
  const core = new AppCore({
    dataDir: options.dataDir ?? tempDir(),
    secretStore: options.secretStore ?? new MemorySecretStore(),
    app: { name: 'Vet Scribe', version: 'test' },
    audioUrl: (id) => `test-audio://${id}`,
    ...coreOptions,
    embeddedService: embeddedSandbox({ scribeSeconds: 0.3, ...sandbox }),
    pipeline: { backoff: { baseMs: 100, capMs: 2000 }, pollDelay: () => 150, ...options.pipeline },
  });
  await core.start();
  return core;
}

export function waitForJob(
  core: AppCore,
  id: string,
  predicate: (job: JobInfo) => boolean,
  timeoutMs = 20_000,
): Promise<JobInfo> {
  return new Promise((resolve, reject) => {
    const now = core.pipeline.info(id);
    if (now && predicate(now)) {
      resolve(now);
      return;
    }
    const timer = setTimeout(() => {
      core.pipeline.off('job', onJob);
      reject(
        new Error(`job ${id} did not get there in ${timeoutMs} ms; last: ${JSON.stringify(core.pipeline.info(id))}`),
      );
    }, timeoutMs);
    const onJob = (job: JobInfo) => {
      if (job.recordingId !== id || !predicate(job)) return;
      clearTimeout(timer);
      core.pipeline.off('job', onJob);
      resolve(job);
    };
    core.pipeline.on('job', onJob);
  });
}

export async function firstTemplateId(core: AppCore): Promise<string> {
  const page = await core.session.withToken((t) => core.client.templates(t, 1, 50));
  const first = page.items[0];
  if (!first) throw new Error('no templates');
  return first.id;
}

/**
 * A core that talks to a sandbox of the test's own (which outlives the core's restarts), or to
 * other addresses in front of it (`urls`: a recording proxy).
 */
export async function startCoreAgainst(
  sandbox: Sandbox,
  options: TestCoreOptions & { urls?: { agentsUrl: string; scribeUrl: string; agentsApiUrl: string } } = {},
): Promise<AppCore<Sandbox>> {
  const { urls, sandbox: embedded, ...coreOptions } = options;
  const core = new AppCore({
    dataDir: options.dataDir ?? tempDir(),
    secretStore: options.secretStore ?? new MemorySecretStore(),
    app: { name: 'Vet Scribe', version: 'test' },
    audioUrl: (id) => `test-audio://${id}`,
    embeddedService: embeddedSandbox(embedded),
    ...coreOptions,
    pipeline: { backoff: { baseMs: 100, capMs: 2000 }, pollDelay: () => 150, ...options.pipeline },
  });
  await core.settings.load();
  await core.appSettings.update({
    useSandbox: false,
    serviceUrls: urls ?? {
      agentsUrl: sandbox.urls.agents_url,
      scribeUrl: sandbox.urls.scribe_url,
      agentsApiUrl: sandbox.urls.agents_api_url,
    },
  });
  await core.start();
  return core;
}

/** The ServiceError a call ends with; throws if it ends otherwise. */
export async function failure(p: Promise<unknown>): Promise<ServiceError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  if (!(e instanceof ServiceError)) throw new Error(`expected a ServiceError, got ${String(e)}`);
  return e;
}

/** Waits until `what` holds, looking every 20 ms; throws after `ms`. */
export async function until(what: () => boolean, ms = 20_000): Promise<void> {
  for (const end = Date.now() + ms; !what();) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
