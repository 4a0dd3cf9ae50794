// An engine in a process of its own that records Bella through the window's calls, waits for
// her note, asks differentials from it, has a conversation about it and leaves an unsaved edit,
// then deletes the consult and is killed (SIGKILL, as a power cut would) the moment its folder
// is gone, before its drafts, answers and conversation are. It prints one JSON line, the
// consult's id, before the delete.
//   node delete-kill-child.ts <data dir> <urls-json>
import { createHandlers } from '../../src/main/core/ipc-handlers.ts';
import { childCore, type ChildUrls } from './child-core.ts';
import { recorderChunks } from './core.ts';

const [dataDir = '', urlsJson = '{}'] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: delete-kill-child.ts <data dir> <urls-json>');
const urls = JSON.parse(urlsJson) as ChildUrls;
const must = <T>(answer: { ok: true; data: T } | { ok: false; error: { message: string } }): T => {
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.data;
};

const core = await childCore(dataDir, urls);
await core.start();
await core.session.signIn(urls.email, urls.password);
const h = createHandlers(core);
const templateId = must(await h['templates:list']({ page: 1 })).items[0]?.id ?? '';
const { id } = must(
  await h['recording:start']({ mimeType: 'audio/webm;codecs=opus', patientName: 'Bella', templateId }),
);
for (const [seq, data] of recorderChunks().entries())
  must(await h['recording:chunk']({ id, seq, data: new Uint8Array(data), elapsedMs: (seq + 1) * 1000 }));
must(await h['recording:stop']({ id, durationMs: 5000 }));
for (const end = Date.now() + 60_000; core.pipeline.info(id)?.state !== 'completed';) {
  if (Date.now() > end) throw new Error(`no note: ${JSON.stringify(core.pipeline.info(id))}`);
  await new Promise((resolve) => setTimeout(resolve, 50));
}
must(await h['consults:askDdx']({ id, input: 'Vomiting for two days, lethargic.' }));
must(await h['consults:chat']({ id, message: 'What should the pet owner watch for?' }));
must(await h['consults:saveDraft']({ id, text: 'Bella: an edit not saved yet.' }));
process.stdout.write(`${JSON.stringify({ id })}\n`);

// The moment the consult's folder is gone, before what is kept beside it.
const told = core.recordings.onDelete;
core.recordings.onDelete = (deleted) => {
  told?.(deleted);
  if (deleted === id) process.kill(process.pid, 'SIGKILL');
};
must(await h['consults:delete']({ id }));
process.stdout.write(`${JSON.stringify({ survived: true })}\n`);
