// The window's side of a renderer test, built one way for every test: the real engine up (a core
// on a temporary folder with its embedded sandbox, support/real-bridge.ts), its bridge installed
// as the window's, and the window's stores connected to its events as main.tsx connects them at
// start-up. The window's modules may then be imported in any order.
import { api, bridge } from '../../../src/renderer/src/api.ts';
import { connectStores } from '../../../src/renderer/src/connect-stores.ts';
import { installRealBridge } from './real-bridge.ts';

/** Starts the engine and connects the window's stores to it; `disconnect` undoes the connection. */
export async function windowWithEngine(options: Parameters<typeof installRealBridge>[0] = {}) {
  const installed = await installRealBridge(options);
  const disconnect = connectStores(api, bridge);
  return { ...installed, api, disconnect };
}
