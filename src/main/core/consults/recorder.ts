// The recorder's calls: a consult started, its chunks, pause and resume, and Stop, which splits
// a visit of several pets into one consult each and sends them at once when they have their
// template and patient (visits.ts).
import type { ConsultInfo, InvokeInput, RecordingInfo } from '../../../shared/ipc.ts';
import { actorUser, type Actor } from '../sign-in/index.ts';
import { toRecordingInfo } from './cache.ts';
import type { ConsultParts } from './parts.ts';
import { Refusal } from '../platform/index.ts';

const STOPPED_NOT_YOURS =
  'The recording was stopped and is kept on this computer; it belongs to the vet who started it.';

export type RecorderOptions = Pick<
  ConsultParts,
  'recordings' | 'cache' | 'access' | 'gate' | 'pipeline' | 'trail' | 'visits'
>;

export class Recorder {
  private readonly options: RecorderOptions;
  /** The Stop running for each recording, which a Stop asked meanwhile joins. */
  private readonly stopping = new Map<string, Promise<ConsultInfo>>();

  constructor(options: RecorderOptions) {
    this.options = options;
  }

  async start(input: InvokeInput<'recording:start'>, actor: Actor | null): Promise<RecordingInfo> {
    const { recordings } = this.options;
    // The consult is the account's that started it: it is sent with that sign-in only.
    const meta = toRecordingInfo(
      await recordings.start({
        mimeType: input.mimeType,
        label: input.label || null,
        patientName: input.patientName ?? null,
        description: input.description ?? null,
        templateId: input.templateId ?? null,
        owner: actor ? { ...actor } : null,
        petOwnerConsented: input.petOwnerConsented === true,
      }),
    );
    // A recording whose start cannot be noted could not be kept either (the disk): none is made.
    try {
      await this.options.trail.add(meta.id, 'recorded', { who: actor && actorUser(actor) });
    } catch (e) {
      await recordings.delete(meta.id).catch(() => undefined);
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
    return { bytes: meta.bytes, chunks: meta.chunks };
  }

  async pause(id: string): Promise<RecordingInfo> {
    return toRecordingInfo(await this.options.recordings.pause(id));
  }

  async resume(id: string): Promise<RecordingInfo> {
    return toRecordingInfo(await this.options.recordings.resume(id));
  }

  /**
   * The visit's other pets as the vet names them while recording, kept in the recording's meta
   * so that a recording the app did not stop keeps them too. Once stopped, Stop has had them.
   */
  async pets(id: string, pets: readonly string[]): Promise<RecordingInfo> {
    const { recordings } = this.options;
    const meta = await recordings.get(id);
    if (!meta) throw new Refusal('not_found', 'That recording is not on this computer.');
    if (meta.state !== 'recording' && meta.state !== 'paused') return toRecordingInfo(meta);
    return toRecordingInfo(await recordings.update(id, { pets: [...pets] }));
  }

  /**
   * Stop. With `pets` (the visit's other patients; else those kept while recording), each
   * becomes a consult of its own with the same audio and the visit's id, made once (visits.ts).
   * A Stop asked again while one runs (two windows, a double click) answers what that one
   * answers: the visit is split and sent once.
   */
  stop(id: string, durationMs: number | undefined, pets?: readonly string[]): Promise<ConsultInfo> {
    const running = this.stopping.get(id);
    if (running) return running;
    const stopping = this.stopOnce(id, durationMs, pets).finally(() => this.stopping.delete(id));
    this.stopping.set(id, stopping);
    return stopping;
  }

  private async stopOnce(id: string, durationMs: number | undefined, pets?: readonly string[]): Promise<ConsultInfo> {
    const { recordings, gate, visits } = this.options;
    const finished = await recordings.finish(id, durationMs === undefined ? {} : { durationMs });
    await visits.stop(id, pets ?? finished.pets ?? []);
    // The audio is kept whoever is signed in now; the consult itself is shown only to its own.
    if (gate.access(id) === 'none') throw new Refusal('not_found', STOPPED_NOT_YOURS);
    return this.options.access.consultFor(id);
  }
}
