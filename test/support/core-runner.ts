// A core in a process of its own, for the crash test: it opens the data folder, signs in if the
// session was not kept, claims and sends every finished recording without a job to be scribed, and runs
// until every job has finished. Killed at any moment, it is started again on the same folder.
//   node core-runner.ts <dataDir> <urls-json> <templateId>
import { MemorySecretStore, openKeychain } from '../../src/main/core/sign-in/secret-store.ts';
import { childCore, type ChildUrls } from './child-core.ts';

const [dataDir = '', urlsJson = '{}', templateId = '', keychainService = ''] = process.argv.slice(2);
const urls = JSON.parse(urlsJson) as ChildUrls;

const secretStore = (keychainService ? await openKeychain(keychainService) : null) ?? new MemorySecretStore();
const core = await childCore(dataDir, urls, { secretStore });
core.pipeline.on('noteReady', (job) => process.stdout.write(`completed ${job.recordingId}\n`));
core.pipeline.on('job', (job) => process.stdout.write(`state ${job.recordingId} ${job.state}\n`));
await core.start();
if (!core.session.state().signedIn) await core.session.signIn(urls.email, urls.password);
// The recordings were made with no one signed in: the vet claims each (as "send it as Dr …?" does).
for (const consult of core.cache.all()) {
  if (consult.recording.recordedBy === null) await core.commands.claim(consult.recording.id, core.actors.current()!);
  if (!core.pipeline.info(consult.recording.id) && consult.recording.state === 'finished')
    await core.pipeline.submit(consult.recording.id, templateId);
}
await core.pipeline.settled();
process.stdout.write('settled\n');
await core.stop();
