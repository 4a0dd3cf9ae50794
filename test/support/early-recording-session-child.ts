// A core in a process of its own, to be killed during or after Stop. It signs in, and:
//   record: records a consult of a named patient with a template through the window's calls,
//           prints `recording <id>`, waits for a line `stop` on its standard input, then Stops
//           and prints `stopped <ms>` (how long Stop took); it then stays until it is killed.
//   run:    starts again on the same data folder and prints `completed <id>` for each note that
//           comes, and `state <id> <state>` for each change of a job. It sends nothing by itself.
//   node early-recording-session-child.ts record|run <dataDir> <urls-json> [patient]
import { createInterface } from 'node:readline';
import { createHandlers } from '../../src/main/core/ipc-handlers.ts';
import { childCore, type ChildUrls } from './child-core.ts';
import { firstTemplateId, recorderChunks } from './core.ts';

const [mode = '', dataDir = '', urlsJson = '{}', patientName = 'Bella'] = process.argv.slice(2);
const urls = JSON.parse(urlsJson) as ChildUrls;

const core = await childCore(dataDir, urls, {
  pipeline: { earlyRecordingSessionDelayMs: 200, earlyRecordingSessionAfterMs: 0 },
});
core.pipeline.on('noteReady', (job) => process.stdout.write(`completed ${job.recordingId}\n`));
core.pipeline.on('job', (job) => process.stdout.write(`state ${job.recordingId} ${job.state}\n`));
await core.start();
if (!core.session.state().signedIn) await core.session.signIn(urls.email, urls.password);
const h = createHandlers(core);

if (mode === 'record') {
  const started = await h['recording:start']({
    mimeType: 'audio/webm;codecs=opus',
    patientName,
    templateId: await firstTemplateId(core),
  });
  if (!started.ok) throw new Error(started.error.message);
  const id = started.data.id;
  for (const [seq, data] of recorderChunks().entries())
    await h['recording:chunk']({ id, seq, data: new Uint8Array(data), elapsedMs: (seq + 1) * 1000 });
  process.stdout.write(`recording ${id}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() !== 'stop') continue;
    const at = Date.now();
    const stopped = await h['recording:stop']({ id, durationMs: 5000 });
    process.stdout.write(stopped.ok ? `stopped ${Date.now() - at}\n` : `refused ${stopped.error.message}\n`);
  }
}
// `run`: the pipeline goes on from the data folder; the test kills this process once it has seen enough.
