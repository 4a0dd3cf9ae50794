// An engine in a process of its own that records Bella through the window's calls and stops
// with two other pets, Tom and Jerry. Right after the first other pet's consult is written to
// disk it is either killed (`kill`: SIGKILL, as a power cut would) or its disk fills (`full`:
// its file-size limit lowered to nothing with prlimit, which needs no root). Under `full` it
// then frees the space, presses Stop again (`full-send`: Send on Bella in Consults;
// `full-send-pet`: Send on Tom) and waits
// for every consult to be scribed. It prints one JSON line per step; its stdout must be a pipe
// (a file would be refused too).
//   node visit-stop-child.ts kill|full|full-send|full-send-pet <data dir> <urls-json> <template id>
import { spawnSync } from 'node:child_process';
import { createHandlers } from '../../src/main/core/ipc-handlers.ts';
import { childCore, type ChildUrls } from './child-core.ts';
import { recorderChunks } from './core.ts';

const [mode = '', dataDir = '', urlsJson = '{}', templateId = ''] = process.argv.slice(2);
if (!['kill', 'full', 'full-send', 'full-send-pet'].includes(mode) || !dataDir || !templateId)
  throw new Error('usage: visit-stop-child.ts kill|full|full-send|full-send-pet <data dir> <urls-json> <template id>');
const urls = JSON.parse(urlsJson) as ChildUrls;
const say = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
/** The soft limit on the size of a file this process writes (the hard limit stays as it was). */
const fileSizeLimit = (limit: string) => {
  const run = spawnSync('prlimit', ['--pid', String(process.pid), `--fsize=${limit}:unlimited`], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`prlimit failed: ${run.stderr}`);
};

const core = await childCore(dataDir, urls);
await core.start();
await core.session.signIn(urls.email, urls.password);
const h = createHandlers(core);

const started = await h['recording:start']({ mimeType: 'audio/webm;codecs=opus', patientName: 'Bella', templateId });
if (!started.ok) throw new Error(started.error.message);
const id = started.data.id;
for (const [seq, data] of recorderChunks().entries())
  await h['recording:chunk']({ id, seq, data: new Uint8Array(data), elapsedMs: (seq + 1) * 1000 });
say({ recorded: id });

// The moment the first other pet's consult is on disk.
const told = core.recordings.onChange;
let hit = false;
core.recordings.onChange = (meta, before) => {
  told?.(meta, before);
  if (hit || !meta.visitId || meta.id === meta.visitId) return;
  hit = true;
  if (mode === 'kill') process.kill(process.pid, 'SIGKILL');
  else fileSizeLimit('0');
};

const first = await h['recording:stop']({ id, durationMs: 5000, pets: ['Tom', 'Jerry'] });
const visit = () =>
  core.cache
    .all()
    .filter((c) => c.recording.visitId === id)
    .map((c) => ({ id: c.recording.id, name: c.recording.patientName, sent: c.job !== null }));
say({ first, visit: visit() });

// Space again: the vet presses Stop once more, or Send, as the sentence asks.
fileSizeLimit('unlimited');
const tom = visit().find((pet) => pet.name === 'Tom')?.id ?? '';
const second =
  mode === 'full'
    ? await h['recording:stop']({ id, durationMs: 5000, pets: ['Tom', 'Jerry'] })
    : await h['consults:submit']({ id: mode === 'full-send' ? id : tom, templateId });
say({ second, visit: visit() });
await core.pipeline.settled();
say({ settled: visit() });
await core.stop();
