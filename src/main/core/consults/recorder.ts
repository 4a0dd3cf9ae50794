// The recorder's calls: a consult started, its chunks, pause and resume, and Stop, which sends
// the consult at once when it has its template and patient.
import type { ConsultInfo, InvokeInput, RecordingInfo } from '../../../shared/ipc.ts';
import { ownerOf } from '../jobs/pipeline.ts';
import { RecordingError } from '../recordings/index.ts';
import type { ConsultParts } from './parts.ts';
import { TrailError } from './trail.ts';

const STOPPED_NOT_SENT =
  'The recording is kept but was not sent: its history could not be written to this computer’s disk; send it from Consults.';
const STOPPED_NOT_YOURS =
  'The recording was stopped and is kept on this computer; it belongs to the vet who started it.';

export type RecorderOptions = Pick<
  ConsultParts,
  | 'recordings'
  | 'cache'
  | 'access'
  | 'gate'
  | 'pipeline'
  | 'user'
  | 'serviceKey'
  | 'rememberTemplate'
  | 'trail'
  | 'emit'
>;

export class Recorder {
  private readonly options: RecorderOptions;

  constructor(options: RecorderOptions) {
    this.options = options;
  }

  async start(input: InvokeInput<'recording:start'>): Promise<RecordingInfo> {
    const { recordings, cache, user, serviceKey } = this.options;
    // The consult is the signed-in account's: it is sent with that sign-in only.
    const vet = user();
    const meta = cache.remember(
      await recordings.start({
        mimeType: input.mimeType,
        label: input.label || null,
        patientName: input.patientName ?? null,
        description: input.description ?? null,
        templateId: input.templateId ?? null,
        owner: vet ? ownerOf(vet, serviceKey()) : null,
        ownerConsented: input.ownerConsented === true,
      }),
    );
    // A recording whose start cannot be noted could not be kept either (the disk): none is made.
    try {
      await this.options.trail.add(meta.id, 'recorded', { who: vet });
    } catch (e) {
      await recordings.delete(meta.id).catch(() => undefined);
      cache.forget(meta.id);
      throw e;
    }
    if (meta.patientName?.trim()) this.options.pipeline.recordingNamed(meta.id);
    return meta;
  }

  async chunk({
    id,
    seq,
    data,
    elapsedMs,
  }: InvokeInput<'recording:chunk'>): Promise<{ bytes: number; chunks: number }> {
    const meta = await this.options.recordings.appendChunk(id, seq, data, elapsedMs);
    this.options.cache.remember(meta);
    return { bytes: meta.bytes, chunks: meta.chunks };
  }

  async pause(id: string): Promise<RecordingInfo> {
    return this.options.cache.remember(await this.options.recordings.pause(id));
  }

  async resume(id: string): Promise<RecordingInfo> {
    return this.options.cache.remember(await this.options.recordings.resume(id));
  }

  /**
   * The visit's other pets as the vet names them while recording, kept in the recording's meta
   * so that a recording the app did not stop keeps them too. Once stopped, Stop has had them.
   */
  async pets(id: string, pets: readonly string[]): Promise<RecordingInfo> {
    const { recordings, cache } = this.options;
    const meta = await recordings.get(id);
    if (!meta) throw new RecordingError('not_found', 'That recording is not on this computer.');
    if (meta.state !== 'recording' && meta.state !== 'paused') return cache.remember(meta);
    return cache.remember(await recordings.update(id, { pets: [...pets] }));
  }

  /**
   * Stop. With `pets` (the visit's other patients; else those kept while recording), each
   * becomes a consult of its own with the same audio and the visit's id, made once: a repeated
   * Stop finds the visit already split.
   */
  async stop(id: string, durationMs: number | undefined, pets?: readonly string[]): Promise<ConsultInfo> {
    const { recordings, cache, gate } = this.options;
    const finished = await recordings.finish(id, durationMs === undefined ? {} : { durationMs });
    cache.remember(finished);
    const others = await addVisitPets(this.options, id, pets ?? finished.pets ?? []);
    await sendIfReady(this.options, id);
    for (const other of others) await sendIfReady(this.options, other);
    // The audio is kept whoever is signed in now; the consult itself is shown only to its own.
    if (gate.access(id) === 'none') throw new RecordingError('not_found', STOPPED_NOT_YOURS);
    return this.options.access.consultFor(id);
  }
}

/**
 * The visit's other pets, each a consult of its own with the audio of `id`: their ids. None
 * when the visit was split already (its id is written first, so a Stop repeated after a
 * failure half-way adds no pet twice).
 */
export async function addVisitPets(options: RecorderOptions, id: string, names: readonly string[]): Promise<string[]> {
  const { recordings, cache } = options;
  if (names.length === 0 || (await recordings.get(id))?.visitId) return [];
  cache.remember(await recordings.update(id, { visitId: id }));
  const ids: string[] = [];
  for (const name of names) ids.push(await addPet(options, id, name));
  return ids;
}

/** Another pet of the visit recorded in `id`: its consult, noted as recorded by the visit's vet. */
async function addPet(options: RecorderOptions, id: string, patientName: string): Promise<string> {
  const { recordings, cache, user, gate, access } = options;
  const pet = cache.remember(await recordings.addPet(id, { patientName: patientName || null, visitId: id }));
  const vet = user();
  const who = vet && vet.id === pet.recordedBy?.userId ? vet : null;
  try {
    await options.trail.add(pet.id, 'recorded', { who });
  } catch (e) {
    await recordings.delete(pet.id).catch(() => undefined);
    cache.forget(pet.id);
    throw e;
  }
  // The window learns of it now, not only once it is sent: one waiting for its name is listed too.
  if (gate.access(pet.id) !== 'none') options.emit('consult:changed', access.consultFor(pet.id));
  return pet.id;
}

/**
 * With a template chosen before or during the consult, it goes to be scribed at once; without
 * the patient's name it waits for it (recording:update sends it then). The pipeline sends it
 * with its owner's sign-in only; one no one owns yet waits for a vet's claim.
 */
export async function sendIfReady(options: RecorderOptions, id: string): Promise<void> {
  const { cache, gate, pipeline } = options;
  const meta = cache.consult(id)?.recording;
  if (!meta?.templateId || !meta.patientName) return;
  // Noted once its job is on disk, before it starts. Not sent when it cannot be noted: the
  // recording is kept, and Send in Consults tries again.
  await pipeline.submit(id, meta.templateId, () =>
    options.trail.add(id, 'sent').catch((e: unknown) => {
      throw new TrailError((e as TrailError).code ?? 'io', e, STOPPED_NOT_SENT);
    }),
  );
  if (gate.allows(id)) await options.rememberTemplate(meta.templateId);
}
