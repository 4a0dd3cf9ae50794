// The engine as the tests' child processes run it (core-runner.ts, early-recording-session-child.ts,
// visit-stop-child.ts): on a data folder of the test's, talking to the addresses (and signing in
// with the account) the test hands over as JSON, with the tests' short backoff and polling.
import { AppCore, type CoreOptions } from '../../src/main/core/app-core.ts';
import { MemorySecretStore, type SecretStore } from '../../src/main/core/sign-in/secret-store.ts';
import { embeddedSandbox } from '../../src/main/embedded-sandbox.ts';

/** The service's addresses and the account, as a test hands them to its child. */
export interface ChildUrls {
  agentsUrl: string;
  scribeUrl: string;
  agentsApiUrl: string;
  email: string;
  password: string;
}

/** A core on `dataDir`, set to the addresses of `urls`, not yet started. */
export async function childCore(
  dataDir: string,
  urls: ChildUrls,
  {
    secretStore = new MemorySecretStore(),
    pipeline = {},
  }: { secretStore?: SecretStore; pipeline?: CoreOptions['pipeline'] } = {},
): Promise<AppCore> {
  const core = new AppCore({
    dataDir,
    secretStore,
    app: { name: 'Vet Scribe', version: 'test' },
    audioUrl: (id) => id,
    embeddedService: embeddedSandbox(),
    pipeline: { backoff: { baseMs: 100, capMs: 1000 }, pollDelay: () => 100, ...pipeline },
  });
  await core.settings.load();
  await core.appSettings.update({
    useSandbox: false,
    serviceUrls: { agentsUrl: urls.agentsUrl, scribeUrl: urls.scribeUrl, agentsApiUrl: urls.agentsApiUrl },
  });
  return core;
}
