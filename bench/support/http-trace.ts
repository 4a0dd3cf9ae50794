// Every HTTP request the app's client makes in this process, with its timings, seen through the
// diagnostics channels of undici (the service's calls) and of node:http (the upload):
// nothing in the app is wrapped or changed to watch it.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

export interface TracedRequest {
  method: string;
  origin: string;
  path: string;
  idempotencyKey: string | null;
  /** performance.now() at each point; null when it did not happen. */
  createdAt: number;
  sentAt: number | null;
  headersAt: number | null;
  endAt: number | null;
  status: number | null;
  error: string | null;
}

interface UndiciRequest {
  method: string;
  origin: string | URL;
  path: string;
}

export class HttpTrace {
  readonly requests: TracedRequest[] = [];
  private readonly byRequest = new WeakMap<object, TracedRequest>();
  private readonly onEnd: ((r: TracedRequest) => void) | undefined;
  private readonly handlers: [string, (message: unknown) => void][];

  constructor(options: { onEnd?: (r: TracedRequest) => void; keep?: boolean } = {}) {
    this.onEnd = options.onEnd;
    const keep = options.keep ?? true;
    const now = () => performance.now();
    const entry = (request: object) => this.byRequest.get(request);
    const end = (e: TracedRequest) => this.onEnd?.(e);
    this.handlers = [
      [
        'undici:request:create',
        (m) => {
          const { request } = m as { request: UndiciRequest };
          const e: TracedRequest = {
            method: request.method,
            origin: String(request.origin),
            path: request.path,
            idempotencyKey: null,
            createdAt: now(),
            sentAt: null,
            headersAt: null,
            endAt: null,
            status: null,
            error: null,
          };
          this.byRequest.set(request, e);
          if (keep) this.requests.push(e);
        },
      ],
      [
        'undici:client:sendHeaders',
        (m) => {
          const { request, headers } = m as { request: object; headers: string };
          const e = entry(request);
          if (!e) return;
          e.sentAt = now();
          e.idempotencyKey = /\r\nidempotency-key: *([^\r\n]+)/i.exec(headers)?.[1] ?? null;
        },
      ],
      [
        'undici:request:headers',
        (m) => {
          const { request, response } = m as { request: object; response: { statusCode: number } };
          const e = entry(request);
          if (!e) return;
          e.headersAt = now();
          e.status = response.statusCode;
        },
      ],
      [
        'undici:request:trailers',
        (m) => {
          const e = entry((m as { request: object }).request);
          if (!e || e.endAt !== null) return;
          e.endAt = now();
          end(e);
        },
      ],
      [
        'undici:request:error',
        (m) => {
          const { request, error } = m as { request: object; error: Error };
          const e = entry(request);
          if (!e || e.endAt !== null) return;
          e.endAt = now();
          e.error = (error as Error & { code?: string }).code ?? error.name;
          end(e);
        },
      ],
      // node:http, which carries the upload: its headers go out with the first body bytes, so
      // "sent" is the moment the request starts.
      [
        'http.client.request.start',
        (m) => {
          const { request } = m as { request: { method: string; protocol: string; host: string; path: string } };
          const at = now();
          const e: TracedRequest = {
            method: request.method,
            origin: `${request.protocol}//${request.host}`,
            path: request.path,
            idempotencyKey: null,
            createdAt: at,
            sentAt: at,
            headersAt: null,
            endAt: null,
            status: null,
            error: null,
          };
          this.byRequest.set(request, e);
          if (keep) this.requests.push(e);
        },
      ],
      [
        'http.client.response.finish',
        (m) => {
          const { request, response } = m as { request: object; response: { statusCode: number } };
          const e = entry(request);
          if (!e || e.endAt !== null) return;
          e.headersAt ??= now();
          e.status = response.statusCode;
          e.endAt = now();
          end(e);
        },
      ],
      [
        'http.client.request.error',
        (m) => {
          const { request, error } = m as { request: object; error: Error };
          const e = entry(request);
          if (!e || e.endAt !== null) return;
          e.endAt = now();
          e.error = (error as Error & { code?: string }).code ?? error.name;
          end(e);
        },
      ],
    ];
  }

  start(): this {
    for (const [name, fn] of this.handlers) subscribe(name, fn);
    return this;
  }

  stop(): void {
    for (const [name, fn] of this.handlers) unsubscribe(name, fn);
  }
}

/** A request's route as the sandbox's counters name it (ids and keys left out). */
export function routeOf(r: Pick<TracedRequest, 'method' | 'path'>): string {
  const path = r.path.split('?')[0] ?? '';
  return `${r.method} ${path.replace(/\/storage\/.+$/, '/storage/:key').replace(/\/scribe\/get\/.+$/, '/scribe/get/:id')}`;
}
