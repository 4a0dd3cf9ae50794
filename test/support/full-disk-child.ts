// Run under a file-size limit (`ulimit -f`, set by the test) as a disk that fills: it records
// chunks of 100,000 bytes until the disk refuses one, or saves the settings, and prints one JSON
// line with what was confirmed and what the window would be told.
//   node full-disk-child.ts record <data dir>
//   node full-disk-child.ts settings <data dir>
import { toIpcError } from '../../src/main/core/ipc-handlers.ts';
import { RecordingStore } from '../../src/main/core/recordings/index.ts';
import { SettingsStore } from '../../src/main/core/settings/settings.ts';

const [mode, dir] = process.argv.slice(2);
if (!dir) throw new Error('usage: full-disk-child.ts record|settings <data dir>');

if (mode === 'record') {
  const store = new RecordingStore({ dir });
  const meta = await store.start({ mimeType: 'audio/ogg;codecs=opus', patientName: 'Bella' });
  const confirmed: number[] = [];
  let error: unknown = null;
  for (let seq = 0; seq < 100 && !error; seq++) {
    const chunk = new Uint8Array(100_000).fill(seq + 1);
    try {
      const after = await store.appendChunk(meta.id, seq, chunk, (seq + 1) * 1000);
      confirmed.push(after.bytes);
    } catch (e) {
      error = e;
    }
  }
  process.stdout.write(`${JSON.stringify({ id: meta.id, confirmed, error: error ? toIpcError(error) : null })}\n`);
} else {
  const settings = new SettingsStore(dir);
  await settings.load();
  let answer: unknown = null;
  try {
    await settings.update({ retentionDays: 30 });
  } catch (e) {
    answer = toIpcError(e);
  }
  process.stdout.write(`${JSON.stringify({ error: answer })}\n`);
}
