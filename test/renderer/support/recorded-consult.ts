// Consults made of real audio, for the window's tests: the chunks MediaRecorder wrote for five
// seconds of speech (test/fixtures/audio/mediarecorder-5s), and a consult recorded with them
// through the window's own calls, as the recorder records one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { api } from '../../../src/renderer/src/api.ts';

const FIXTURE = join(import.meta.dirname, '../../fixtures/audio/mediarecorder-5s');
const manifest = JSON.parse(readFileSync(join(FIXTURE, 'manifest.json'), 'utf8')) as {
  mimeType: string;
  chunks: { file: string }[];
};

/** The fixture's chunks in the order MediaRecorder handed them over, one a second, and their type. */
export const recordedAudio = {
  mimeType: manifest.mimeType,
  chunks: manifest.chunks.map((c) => new Uint8Array(readFileSync(join(FIXTURE, c.file)))),
};

/** The id of the first template the service lists: any template will do. */
export async function firstTemplateId(): Promise<string> {
  return (await api.templates.list({ page: 1 })).items[0]!.id;
}

/** Records a consult through the window's calls (start, every chunk, stop): its id. */
export async function recordConsult(details: {
  patientName: string;
  description?: string;
  templateId?: string;
}): Promise<string> {
  const { chunks } = recordedAudio;
  const started = await api.recording.start({ mimeType: recordedAudio.mimeType, ...details });
  for (const [seq, data] of chunks.entries())
    await api.recording.chunk({ id: started.id, seq, data, elapsedMs: (seq + 1) * 1000 });
  await api.recording.stop({ id: started.id, durationMs: chunks.length * 1000 });
  return started.id;
}
