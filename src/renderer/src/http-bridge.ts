// The bridge of the browser host: calls are POSTs to /ipc/<channel>, events arrive as
// server-sent events on /events. Same envelopes as the preload's, so the rest of the window
// cannot tell the two apart.
import { decodeWire, encodeWire } from '../../shared/ipc-wire.ts';
import type { BridgeApi, EventChannel, EventPayloads, IpcResult } from '../../shared/ipc.ts';

// EventSource tries again by itself every few seconds; this one is told so it says so sooner.
const RECONNECT_MS = 1_000;

function openTab(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return;
  }
  if (parsed.protocol === 'https:' || parsed.protocol === 'http:') window.open(parsed.href, '_blank', 'noopener');
}

export function createHttpBridge(origin: string): BridgeApi {
  const listeners = new Map<EventChannel, Set<(payload: never) => void>>();
  const links = new Set<(up: boolean) => void>();
  let source: EventSource | null = null;
  let lost = false;
  const connect = () => {
    if (source) return;
    source = new EventSource(`${origin}/events`);
    source.onmessage = (message) => {
      const { channel, payload } = decodeWire(message.data as string) as { channel: EventChannel; payload: unknown };
      // The engine asks for a sign-in page in the browser: here that is a new tab of this one.
      if (channel === 'browser:open') openTab((payload as EventPayloads['browser:open']).url);
      for (const listener of listeners.get(channel) ?? []) listener(payload as never);
    };
    // The stream broke (the engine stopped or restarted): say so, and once it is back the
    // window loads session, settings and consults again, since events were missed meanwhile.
    source.onerror = () => {
      if (!lost) {
        lost = true;
        for (const l of links) l(false);
      }
      if (source?.readyState === EventSource.CLOSED) {
        source = null;
        setTimeout(connect, RECONNECT_MS);
      }
    };
    source.onopen = () => {
      if (!lost) return;
      lost = false;
      for (const l of links) l(true);
    };
  };
  return {
    async invoke(channel, input) {
      let response: Response;
      try {
        response = await fetch(`${origin}/ipc/${encodeURIComponent(channel)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: input === undefined ? '' : encodeWire(input),
        });
      } catch {
        return {
          ok: false,
          error: {
            code: 'host_unreachable',
            message: 'The app engine is not answering. It may be restarting; try again in a moment.',
            retryable: true,
          },
        };
      }
      return decodeWire(await response.text()) as IpcResult<never>;
    },
    onLink(listener) {
      connect();
      links.add(listener);
      return () => {
        links.delete(listener);
      };
    },
    on<E extends EventChannel>(event: E, listener: (payload: EventPayloads[E]) => void) {
      connect();
      const set = listeners.get(event) ?? new Set();
      set.add(listener as (payload: never) => void);
      listeners.set(event, set);
      return () => {
        set.delete(listener as (payload: never) => void);
      };
    },
  };
}
