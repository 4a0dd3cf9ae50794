// The window's side of a renderer test, built one way for every test: the real engine up (a core
// on a temporary folder with its embedded sandbox, support/real-bridge.ts), its bridge installed
// as the window's, and the window's stores connected to its events as main.tsx connects them at
// start-up, with every call it makes watched. The window's modules may then be imported in any
// order.
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach } from 'vitest';
import { api, bridge } from '../../../src/renderer/src/api.ts';
import { connectStores } from '../../../src/renderer/src/connect-stores.ts';
import { useSession } from '../../../src/renderer/src/stores/session.ts';
import type { BridgeApi, InvokeChannel } from '../../../src/shared/ipc.ts';
import { installFakeMicrophone } from './fake-microphone.ts';
import { installRealBridge } from './real-bridge.ts';
import { recordedAudio } from './recorded-consult.ts';

type WindowOptions = Parameters<typeof installRealBridge>[0] & {
  /** Picks the calls that fail as if main had refused them (see watchCalls). */
  refuse?: (channel: InvokeChannel) => boolean;
};

/**
 * Starts the engine and connects the window's stores to it; `calls` are the window's calls, in
 * order (a test may empty it); `disconnect` undoes the connection.
 */
export async function windowWithEngine({ refuse, ...options }: WindowOptions = {}) {
  const installed = await installRealBridge(options);
  const calls = watchCalls(installed.bridge, refuse);
  const disconnect = connectStores(api, bridge);
  return { ...installed, api, calls, disconnect };
}

/**
 * The window and the engine, signed in, with main's two notices of a start: the keychain's
 * (a warning) and a recovered recording's (information). The window knows who is signed in, as
 * at its start.
 */
export async function windowWithNotices(keychain: string, recovered: string) {
  const window = await windowWithEngine({
    signIn: true,
    notices: [
      { level: 'warning', message: keychain },
      { level: 'info', message: recovered },
    ],
  });
  await useSession.getState().load();
  return window;
}

/**
 * The window and the engine with a microphone that hands over real MediaRecorder output. The
 * microphone comes first: the recorder learns once, as its modules load, whether this window can
 * record. `stop` takes the microphone away and stops the engine.
 */
export async function windowWithMicrophone(options: WindowOptions = {}) {
  const microphone = installFakeMicrophone(recordedAudio.chunks, recordedAudio.mimeType);
  const window = await windowWithEngine(options);
  return {
    ...window,
    async stop() {
      microphone.restore();
      await window.core.stop();
    },
  };
}

/**
 * The ends a file of window tests on one engine shares: after each test the rendered window is
 * taken down, its watched calls emptied and `alsoAfterEach` run; after the file the engine stops.
 * `window` reads what the file's beforeAll started (nothing, if it failed).
 */
export function tidyWindowTests(
  window: () => { core?: { stop(): Promise<void> }; calls?: WindowCall[] },
  alsoAfterEach: () => void = () => {},
): void {
  afterEach(() => {
    cleanup();
    const { calls } = window();
    if (calls) calls.length = 0;
    alsoAfterEach();
  });
  afterAll(async () => {
    await window().core?.stop();
  });
}

/** A call the window made: its channel and its input. */
export type WindowCall = { channel: InvokeChannel; input: unknown };

/**
 * Every call the window makes over the real bridge, in order, each passed on unchanged; a call
 * `refuse` picks fails as if main had refused it (a load error the engine cannot be made to give).
 */
function watchCalls(watched: BridgeApi, refuse: (channel: InvokeChannel) => boolean = () => false): WindowCall[] {
  const calls: WindowCall[] = [];
  const invoke = watched.invoke;
  watched.invoke = ((channel, input) => {
    calls.push({ channel, input });
    if (refuse(channel))
      return Promise.resolve({ ok: false, error: { code: 'internal', message: 'Main refused the call.' } });
    return invoke(channel, input);
  }) as BridgeApi['invoke'];
  return calls;
}
