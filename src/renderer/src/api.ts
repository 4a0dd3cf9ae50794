// The window's one way to main: the typed client of the IPC contract over whichever bridge
// this window has — the preload's (Electron) or HTTP to the browser host. The bridge is looked
// up at each call, not when this module is imported: the window's modules may be imported in any
// order, before the bridge is there (a test puts its engine's in place once it is up).
import type { Api, BridgeApi } from '../../shared/ipc.ts';
import { createApi } from '../../shared/ipc-client.ts';
import { createHttpBridge } from './http-bridge.ts';

declare global {
  interface Window {
    bridge?: BridgeApi;
  }
}

let overHttp: BridgeApi | null = null;
const current = (): BridgeApi => window.bridge ?? (overHttp ??= createHttpBridge(window.location.origin));

export const bridge: BridgeApi = {
  invoke: (channel, input) => current().invoke(channel, input),
  on: (event, listener) => current().on(event, listener),
  onLink: (listener) => current().onLink?.(listener) ?? (() => undefined),
};
export const api: Api = createApi(bridge);
export { ApiCallError } from '../../shared/ipc-client.ts';
