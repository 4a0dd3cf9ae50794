// The window's side of a renderer test, built one way for every test: the real engine up (a core
// on a temporary folder with its embedded sandbox, support/real-bridge.ts), its bridge installed
// as the window's, and the window's stores connected to its events as main.tsx connects them at
// start-up. The window's modules may then be imported in any order.
import { api, bridge } from '../../../src/renderer/src/api.ts';
import { connectStores } from '../../../src/renderer/src/connect-stores.ts';
import type { BridgeApi, InvokeChannel } from '../../../src/shared/ipc.ts';
import { installFakeMicrophone } from './fake-microphone.ts';
import { installRealBridge } from './real-bridge.ts';
import { recordedAudio } from './recorded-consult.ts';

/** Starts the engine and connects the window's stores to it; `disconnect` undoes the connection. */
export async function windowWithEngine(options: Parameters<typeof installRealBridge>[0] = {}) {
  const installed = await installRealBridge(options);
  const disconnect = connectStores(api, bridge);
  return { ...installed, api, disconnect };
}

/**
 * The window and the engine with a microphone that hands over real MediaRecorder output. The
 * microphone comes first: the recorder learns once, as its modules load, whether this window can
 * record. `stop` takes the microphone away and stops the engine.
 */
export async function windowWithMicrophone(options: Parameters<typeof installRealBridge>[0] = {}) {
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
 * Every call the window makes over the real bridge, in order, each passed on unchanged; a call
 * `refuse` picks fails as if main had refused it (a load error the engine cannot be made to give).
 */
export function watchCalls(
  watched: BridgeApi,
  refuse: (channel: InvokeChannel) => boolean = () => false,
): { channel: InvokeChannel; input: unknown }[] {
  const calls: { channel: InvokeChannel; input: unknown }[] = [];
  const invoke = watched.invoke;
  watched.invoke = ((channel, input) => {
    calls.push({ channel, input });
    if (refuse(channel))
      return Promise.resolve({ ok: false, error: { code: 'internal', message: 'Main refused the call.' } });
    return invoke(channel, input);
  }) as BridgeApi['invoke'];
  return calls;
}
