// A NoteSender in a process of its own that sends one consult's note into the sandbox's Provet
// double and is killed (SIGKILL, as a power cut would) at one point of the send: 'after-write',
// the moment Provet has answered the write, before the answer is kept; or 'before-read-back',
// once the write's answer is kept, before the note is read back to confirm it. What it needs
// (the double's address, the vet's tokens, the send) comes as one JSON object on stdin, so no
// token is on a command line. It prints one JSON line when it reaches the point, just before
// the kill; a send that ends instead prints {"survived": true}.
//   node pims-send-kill-child.ts < job.json
import { text } from 'node:stream/consumers';
import {
  NoteSender,
  PimsTokens,
  provetInstance,
  provetOAuthClient,
  ProvetPims,
  type Pims,
  type SendNote,
  type TokenSet,
} from '../../src/main/core/pims/index.ts';
import { MemorySecretStore } from '../../src/main/core/sign-in/secret-store.ts';

export interface KillJob {
  address: string;
  clientId: string;
  tokens: TokenSet;
  /** The NoteSender's folder, the one the test's next sender reads. */
  dir: string;
  send: SendNote;
  killAt: 'after-write' | 'before-read-back';
}

const job = JSON.parse(await text(process.stdin)) as KillJob;
const instance = provetInstance(job.address);
const tokens = new PimsTokens({
  store: new MemorySecretStore(),
  account: { service: 'https://scribe.example', userId: job.send.by.id, instance: instance.base },
  client: provetOAuthClient(instance, job.clientId),
});
await tokens.save(job.tokens);
const pims = new ProvetPims({ instance, tokens });

const die = (point: string): Promise<never> => {
  process.stdout.write(`${JSON.stringify({ killed: point })}\n`);
  process.kill(process.pid, 'SIGKILL');
  return new Promise<never>(() => undefined);
};
const dying: Pims = Object.assign(Object.create(pims) as Pims, {
  writeNote: async (note: Parameters<Pims['writeNote']>[0]) => {
    const written = await pims.writeNote(note);
    return job.killAt === 'after-write' ? die('after-write') : written;
  },
  readNote: async (consultationId: string, noteId: string) =>
    job.killAt === 'before-read-back' ? die('before-read-back') : pims.readNote(consultationId, noteId),
});

await new NoteSender({ pims: dying, dir: job.dir }).send(job.send);
process.stdout.write(`${JSON.stringify({ survived: true })}\n`);
