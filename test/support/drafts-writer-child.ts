// Saves one large draft over and over, as a vet typing into a long note would, and prints
// `saved <n>` once save n is on disk, until it is killed. The test kills it with SIGKILL
// mid-write.
//   node drafts-writer-child.ts <drafts dir> <key> <vet's user id>
import { DraftStore } from '../../src/main/core/consults/drafts.ts';

const [dir, key, userId] = process.argv.slice(2);
if (!dir || !key || !userId) throw new Error("usage: drafts-writer-child.ts <drafts dir> <key> <vet's user id>");

// About 444 KB of note text, numbered at both ends so the test can tell a whole save from a torn one.
function noteText(n: number): string {
  return `note ${n}\n${'Bella, 7 y FS Labrador. Vomiting x2 days, no diarrhoea. '.repeat(8_000)}end ${n}`;
}

const store = new DraftStore(dir);
for (let n = 1; ; n++) {
  await store.put(key, { userId, name: 'Dr. Demo Vet', recordedIt: false }, noteText(n));
  process.stdout.write(`saved ${n}\n`);
}
