// The one way a call reaches the service: its address from the settings at each call, the
// version header, a deadline over the whole call, the route (proxy, trusted roots), and the
// answer read through a shared tolerant parser, so a malformed answer becomes a
// ServiceError('invalid_answer') naming the field. Each call's method, base address and path
// come from the table of operations (src/shared/service/operations.ts); the operations are
// in ../service-client.ts.
import { errors as undiciErrors, request, type Dispatcher } from 'undici';
import {
  API_VERSION,
  API_VERSION_HEADER,
  apiOperation,
  operationTarget,
  SERVICE_OPERATIONS,
  serviceErrorCode,
  serviceErrorMessage,
  ServiceResponseError,
  type Operation,
  type OperationAnswer,
  type ParsedOperation,
  type ServiceBase,
} from '../../../shared/service/index.ts';
import { parseRetryAfter, ServiceError } from './errors.ts';
import { connectionWords, describeNetworkFailure, Network, ProxySettingsError, type Route } from './network.ts';

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

/** The address of each of the service's bases (`agentsUrl`, `scribeUrl`, `agentsApiUrl`), read from the settings at each call. */
export type ServiceUrls = Record<ServiceBase, string>;

/** One call of an operation: what fills its path and query, and what it sends. */
export interface CallRequest {
  /** The path's `{name}` parameters. */
  params?: Record<string, string>;
  /** The query parameters the table names for the operation. */
  query?: Record<string, string | number>;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** The app's operations on the service's own addresses (every one but the upload `PUT`). */
export type CalledOperation = Exclude<Operation, 'upload'>;

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

  /** A call of an operation, its answer read by the operation's reader in the table. */
  protected call<O extends ParsedOperation>(operation: O, sent: CallRequest): Promise<OperationAnswer<O>> {
    const parse = SERVICE_OPERATIONS[operation].parse as (body: unknown) => OperationAnswer<O>;
    return this.callWith(operation, sent, parse);
  }

  /** A call of an operation whose answer is read another way than the table's. */
  protected async callWith<T>(operation: CalledOperation, sent: CallRequest, parse: (body: unknown) => T): Promise<T> {
    const { method, base } = apiOperation(operation);
    const spec = { ...sent, operation, method };
    const url = joinUrl(this.options.urls()[base], operationTarget(operation, sent.params, sent.query));
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
