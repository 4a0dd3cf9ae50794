// The one way a call reaches the service: its address from the settings at each call, the
// version header, a deadline over the whole call, the route (proxy, trusted roots), and the
// answer read through a shared tolerant parser, so a malformed answer becomes a
// ServiceError('invalid_answer') naming the field. The operations are in ../service-client.ts.
import { errors as undiciErrors, request, type Dispatcher } from 'undici';
import {
  API_VERSION,
  API_VERSION_HEADER,
  serviceErrorCode,
  serviceErrorMessage,
  ServiceResponseError,
} from '../../../shared/service/index.ts';
import { parseRetryAfter, ServiceError } from './errors.ts';
import { connectionWords, describeNetworkFailure, Network, ProxySettingsError, type Route } from './network.ts';

export interface ServiceUrls {
  agentsUrl: string;
  scribeUrl: string;
  agentsApiUrl: string;
}

export interface ServiceClientOptions {
  urls: () => ServiceUrls;
  /** Time-out of an ordinary call, in ms. */
  timeoutMs?: number;
  /** An upload that makes no progress for this long is abandoned, in ms. */
  uploadStallMs?: number;
  /** The route to the service: the computer's proxy and the roots it trusts (network.ts). */
  network?: Network;
  /** Debug lines: operation, status, time. Never a header or a body. */
  log?: (line: string) => void;
}

type Base = keyof ServiceUrls;
interface CallSpec {
  operation: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  base: Base;
  path: string;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

export class ServiceTransport {
  protected readonly options: Required<Omit<ServiceClientOptions, 'network' | 'log'>> &
    Pick<ServiceClientOptions, 'log'>;
  readonly network: Network;

  constructor(options: ServiceClientOptions) {
    this.options = { timeoutMs: 30_000, uploadStallMs: 60_000, ...options };
    this.network = options.network ?? new Network();
  }

  /** The route for an address; proxy settings that cannot be used are a network failure (the queue waits). */
  protected async routeFor(operation: string, url: string): Promise<Route> {
    try {
      return await this.network.route(url);
    } catch (e) {
      if (e instanceof ProxySettingsError)
        throw new ServiceError('network', operation, e.message, { code: 'proxy_settings', cause: e });
      throw e;
    }
  }

  protected async call<T>(spec: CallSpec, parse: (body: unknown) => T): Promise<T> {
    const url = joinUrl(this.options.urls()[spec.base], spec.path);
    const headers: Record<string, string> = {
      accept: 'application/json',
      [API_VERSION_HEADER]: API_VERSION,
      ...spec.headers,
    };
    if (spec.token) headers['authorization'] = `Bearer ${spec.token}`;
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers['content-type'] = 'application/json';
    }
    const route = await this.routeFor(spec.operation, url);
    const started = Date.now();
    // undici's own time-outs limit silence, not the call: an answer that trickles in a byte at a
    // time would never end. The deadline limits the whole call.
    const deadline = AbortSignal.timeout(this.options.timeoutMs);
    let answer: Dispatcher.ResponseData;
    let text: string;
    try {
      answer = await request(url, {
        method: spec.method,
        headers,
        body,
        signal: spec.signal ? AbortSignal.any([spec.signal, deadline]) : deadline,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        dispatcher: this.network.dispatcher(route),
      });
      text = await answer.body.text();
    } catch (e) {
      if (deadline.aborted && !spec.signal?.aborted) {
        throw new ServiceError('timeout', spec.operation, `The service did not answer ${spec.operation} in time.`, {
          cause: e,
        });
      }
      throw this.transportError(spec.operation, e, url, route);
    }
    this.options.log?.(`${spec.operation}: ${spec.method} ${answer.statusCode} in ${Date.now() - started} ms`);
    let json: unknown;
    try {
      json = text.trim() === '' ? undefined : (JSON.parse(text) as unknown);
    } catch {
      json = undefined;
      if (answer.statusCode < 300) {
        throw new ServiceError(
          'invalid_answer',
          spec.operation,
          `Unexpected answer from the service for ${spec.operation}: the body is not JSON.`,
          {
            status: answer.statusCode,
          },
        );
      }
    }
    if (answer.statusCode >= 300) {
      throw new ServiceError('http', spec.operation, serviceErrorMessage(json, text, answer.statusCode), {
        status: answer.statusCode,
        code: serviceErrorCode(json),
        retryAfterMs: parseRetryAfter(answer.headers['retry-after']),
      });
    }
    try {
      return parse(json);
    } catch (e) {
      if (e instanceof ServiceResponseError) {
        throw new ServiceError('invalid_answer', spec.operation, e.message, { status: answer.statusCode, cause: e });
      }
      throw e;
    }
  }

  private transportError(operation: string, e: unknown, url: string, route: Route): ServiceError {
    if (e instanceof ServiceError) return e;
    const failure = describeNetworkFailure(e, url, route);
    if (failure) return new ServiceError('network', operation, failure.message, { code: failure.code, cause: e });
    const err = e as Error & { code?: string };
    if (err.name === 'AbortError' || err.code === 'UND_ERR_ABORTED') {
      return new ServiceError('aborted', operation, `${operation} was cancelled.`, { cause: e });
    }
    if (
      e instanceof undiciErrors.HeadersTimeoutError ||
      e instanceof undiciErrors.BodyTimeoutError ||
      err.code === 'UND_ERR_CONNECT_TIMEOUT'
    ) {
      return new ServiceError('timeout', operation, `The service did not answer ${operation} in time.`, { cause: e });
    }
    return new ServiceError(
      'network',
      operation,
      `Could not reach the service for ${operation}: ${connectionWords(e, url) ?? (err.message || err.code || 'network error')}`.replace(
        /([^.])$/,
        '$1.',
      ),
      { cause: e },
    );
  }
}
