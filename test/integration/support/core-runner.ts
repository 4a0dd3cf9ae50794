// A core in a process of its own, for the crash test: it opens the data folder, signs in if the
// session was not kept, claims and sends every finished recording without a job to be scribed, and runs
// until every job has finished. Killed at any moment, it is started again on the same folder.
//   node core-runner.ts <dataDir> <urls-json> <templateId>
import { AppCore } from '../../../src/main/core/app-core.ts';
import { MemorySecretStore, openKeychain } from '../../../src/main/core/secret-store.ts';
import { embeddedSandbox } from '../../../src/main/embedded-sandbox.ts';

const [dataDir = '', urlsJson = '{}', templateId = '', keychainService = ''] = process.argv.slice(2);
const urls = JSON.parse(urlsJson) as {
  agentsUrl: string;
  scribeUrl: string;
  agentsApiUrl: string;
  email: string;
  password: string;
};

const secretStore = (keychainService ? await openKeychain(keychainService) : null) ?? new MemorySecretStore();
const core = new AppCore({
  dataDir,
  secretStore,
  app: { name: 'Vet Scribe', version: 'test' },
  audioUrl: (id) => id,
  embeddedService: embeddedSandbox(),
  pipeline: { backoff: { baseMs: 100, capMs: 1000 }, pollDelay: () => 100 },
});
core.pipeline.on('noteReady', (job) => process.stdout.write(`completed ${job.recordingId}\n`));
core.pipeline.on('job', (job) => process.stdout.write(`state ${job.recordingId} ${job.state}\n`));
await core.settings.load();
await core.updateSettings({
  useSandbox: false,
  serviceUrls: { agentsUrl: urls.agentsUrl, scribeUrl: urls.scribeUrl, agentsApiUrl: urls.agentsApiUrl },
});
await core.start();
if (!core.session.state().signedIn) await core.session.signIn(urls.email, urls.password);
// The recordings were made with no one signed in: the vet claims each (as "send it as Dr …?" does).
for (const consult of core.consults()) {
  if (consult.recording.recordedBy === null) await core.commands.claim(consult.recording.id);
  if (!core.pipeline.info(consult.recording.id) && consult.recording.state === 'finished')
    await core.pipeline.submit(consult.recording.id, templateId);
}
await core.pipeline.settled();
process.stdout.write('settled\n');
await core.stop();
