// The window's one way to main: the typed client of the IPC contract over whichever bridge
// this window has — the preload's (Electron) or HTTP to the browser host.
import type { Api, BridgeApi } from '../../shared/ipc.ts';
import { createApi } from '../../shared/ipc-client.ts';
import { createHttpBridge } from './http-bridge.ts';

declare global {
  interface Window {
    bridge?: BridgeApi;
  }
}

export const bridge: BridgeApi = window.bridge ?? createHttpBridge(window.location.origin);
export const api: Api = createApi(bridge);
export { ApiCallError } from '../../shared/ipc-client.ts';
