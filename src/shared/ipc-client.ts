// What the window needs of the contract at run time: its limits, the typed client and its
// error. No zod here (the schemas in ipc.ts are for main, which parses every argument), so the
// window's bundle stays small and starts fast.
import type { Api, BridgeApi, IpcError } from './ipc.ts';
import { INVOKE_CHANNEL_NAMES } from './ipc-channels.ts';

export { MAX_AGENT_INPUT, MAX_CHUNK_BYTES } from './limits.ts';

export class ApiCallError extends Error {
  readonly code: string;
  readonly retryable: boolean;
  constructor(error: IpcError) {
    super(error.message);
    this.name = 'ApiCallError';
    this.code = error.code;
    this.retryable = error.retryable ?? false;
  }
}

/** Builds the typed client over a bridge (the preload's in Electron, HTTP in the browser host). */
export function createApi(bridge: BridgeApi): Api {
  const api: Record<string, Record<string, unknown>> = {};
  for (const channel of INVOKE_CHANNEL_NAMES) {
    const [ns = '', method = ''] = channel.split(':');
    api[ns] ??= {};
    api[ns][method] = async (input?: unknown) => {
      const result = await bridge.invoke(channel, input as never);
      if (!result.ok) throw new ApiCallError(result.error);
      return result.data;
    };
  }
  return { ...(api as unknown as Omit<Api, 'on'>), on: bridge.on } as Api;
}
