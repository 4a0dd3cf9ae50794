// The context bridge: exposes the IPC contract as window.bridge, nothing else. The window never
// sees ipcRenderer; it builds its typed client with createApi(window.bridge) (createApi is in
// src/shared/ipc-client.ts; the window calls it in src/renderer/src/api.ts).
// Only channels named in the contract pass; anything else is refused here already. Main names
// them on this process's command line (shared/bridge-channels.ts): without them, nothing passes.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { channelsFromArgv } from '../shared/bridge-channels.ts';
import type { BridgeApi } from '../shared/ipc.ts';

const channels = channelsFromArgv(process.argv);
const invokable = new Set<string>(channels.invoke);
const events = new Set<string>(channels.events);

const bridge = {
  invoke: (channel, input) => {
    if (!invokable.has(channel))
      return Promise.resolve({
        ok: false,
        error: { code: 'unknown_channel', message: `No such channel: ${String(channel)}` },
      });
    return ipcRenderer.invoke(channel, input);
  },
  on: (event, listener) => {
    if (!events.has(event)) throw new Error(`No such event: ${String(event)}`);
    const handler = (_e: IpcRendererEvent, payload: unknown) => listener(payload as never);
    ipcRenderer.on(event, handler);
    return () => {
      ipcRenderer.removeListener(event, handler);
    };
  },
} satisfies BridgeApi;

contextBridge.exposeInMainWorld('bridge', bridge);
