// An AppCore (the app's real engine) against a sandbox that runs in another process, so only
// its URLs are known here. The tests' startCoreAgainst() takes an in-process Sandbox; this is
// the same wiring for a URL set, with the app's own pipeline defaults unless told otherwise.
import { AppCore, type CoreOptions } from '../../src/main/core/app-core.ts';
import { MemorySecretStore } from '../../src/main/core/sign-in/secret-store.ts';
import { embeddedSandbox } from '../../src/main/embedded-sandbox.ts';
import type { SandboxUrls } from '../../src/sandbox/index.ts';
import { tempDir } from '../../test/support/core.ts';

export async function startCoreOn(urls: SandboxUrls, options: Partial<CoreOptions> = {}): Promise<AppCore> {
  const core = new AppCore({
    dataDir: options.dataDir ?? tempDir('vet-scribe-bench-'),
    secretStore: options.secretStore ?? new MemorySecretStore(),
    app: { name: 'Vet Scribe', version: 'bench' },
    audioUrl: (id) => id,
    embeddedService: embeddedSandbox(),
    ...options,
  });
  await core.settings.load();
  await core.appSettings.update({
    useSandbox: false,
    serviceUrls: { agentsUrl: urls.agents_url, scribeUrl: urls.scribe_url, agentsApiUrl: urls.agents_api_url },
  });
  await core.start();
  return core;
}
