// Component tests talk to the real engine: a core on a temporary folder with its embedded
// sandbox, bound in-process as the window's bridge (the same handler table Electron and the
// browser host bind). Tests start it through windowWithEngine (support/window.ts), which also
// connects the window's stores to its events.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppCore, type CoreOptions } from '../../../src/main/core/app-core.ts';
import { createHandlers } from '../../../src/main/core/ipc-handlers.ts';
import { MemorySecretStore } from '../../../src/main/core/sign-in/secret-store.ts';
import { embeddedSandbox } from '../../../src/main/embedded-sandbox.ts';
import type { BridgeApi, EventChannel, EventPayloads, InvokeChannel, Notice } from '../../../src/shared/ipc.ts';

export async function installRealBridge(
  options: {
    signIn?: boolean;
    scribeSeconds?: number;
    notices?: Notice[];
    pipeline?: CoreOptions['pipeline'];
    /** Main's ports a test stands in for (the shortcut, updates), and its own data folder. */
    core?: Partial<CoreOptions>;
  } = {},
): Promise<{ core: AppCore; bridge: BridgeApi }> {
  const core = new AppCore({
    dataDir: mkdtempSync(join(tmpdir(), 'vet-scribe-renderer-')),
    secretStore: new MemorySecretStore(),
    app: { name: 'Vet Scribe', version: 'test' },
    audioUrl: (id) => `/audio/${id}`,
    embeddedService: embeddedSandbox({ scribeSeconds: options.scribeSeconds ?? 0.3 }),
    pipeline: { pollDelay: () => 150, ...options.pipeline },
    notices: options.notices ?? [],
    ...options.core,
  });
  await core.start();
  const handlers = createHandlers(core);
  const bridge: BridgeApi = {
    invoke: (channel, input) => handlers[channel as InvokeChannel](input) as never,
    on<E extends EventChannel>(event: E, listener: (payload: EventPayloads[E]) => void) {
      const l = listener as (payload: unknown) => void;
      core.on(event, l as never);
      return () => {
        core.off(event, l as never);
      };
    },
  };
  (window as unknown as { bridge: BridgeApi }).bridge = bridge;
  if (options.signIn) {
    const demo = core.appInfo().sandbox!.demo;
    await core.session.signIn(demo.email, demo.password);
  }
  return { core, bridge };
}
