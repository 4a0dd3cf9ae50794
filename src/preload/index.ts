import { contextBridge } from 'electron';

// The IPC contract (src/shared/ipc.ts) is exposed here as window.api once it exists;
// until then the renderer learns only which app it runs in.
contextBridge.exposeInMainWorld('appInfo', { name: 'Vet Scribe' });
