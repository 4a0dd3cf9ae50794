// What the window needs of the contract at run time: its limits, the typed client and its
// error. No zod here (the schemas in ipc.ts are for main, which parses every argument), so the
// window's bundle stays small and starts fast.
import type { Api, BridgeApi, IpcError } from './ipc.ts';

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

/**
 * Builds the typed client over a bridge (the preload's in Electron, HTTP in the browser host):
 * `api.consults.note(input)` invokes `consults:note`. The window has no list of the channels
 * (that is the contract, with zod, which stays out of its bundle), so each method is made when
 * first read, and made once: the bridge refuses a name that is not a channel.
 */
export function createApi(bridge: BridgeApi): Api {
  const method = (channel: string) => async (input?: unknown) => {
    const result = await bridge.invoke(channel as never, input as never);
    if (!result.ok) throw new ApiCallError(result.error);
    return result.data;
  };
  const namespaces = new Map<string, object>();
  const namespace = (ns: string) => {
    const methods = new Map<string, unknown>();
    return new Proxy(Object.freeze({}), {
      get: (_target, name) => {
        // Not a method (a symbol, or `then` asked by an `await`): nothing, so the client is never taken for a promise.
        if (typeof name !== 'string' || name === 'then') return undefined;
        if (!methods.has(name)) methods.set(name, method(`${ns}:${name}`));
        return methods.get(name);
      },
    });
  };
  return new Proxy(Object.freeze({}), {
    get: (_target, ns) => {
      if (ns === 'on') return bridge.on;
      if (typeof ns !== 'string' || ns === 'then') return undefined;
      if (!namespaces.has(ns)) namespaces.set(ns, namespace(ns));
      return namespaces.get(ns);
    },
  }) as Api;
}
