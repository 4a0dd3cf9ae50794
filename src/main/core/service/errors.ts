// Typed failures of a call to the service, so callers can tell a passing fault (retry) from
// a final answer (stop and show the service's own message).
export type ServiceErrorKind = 'network' | 'timeout' | 'http' | 'invalid_answer' | 'aborted';

export class ServiceError extends Error {
  readonly kind: ServiceErrorKind;
  readonly operation: string;
  readonly status: number | undefined;
  readonly code: string | undefined;
  /** From Retry-After, when the service gave one. */
  readonly retryAfterMs: number | undefined;

  constructor(
    kind: ServiceErrorKind,
    operation: string,
    message: string,
    extra: { status?: number; code?: string; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'ServiceError';
    this.kind = kind;
    this.operation = operation;
    this.status = extra.status;
    this.code = extra.code;
    this.retryAfterMs = extra.retryAfterMs;
  }

  /** Worth trying again later: the network, a time-out, 408, 429 and every 5xx. */
  get transient(): boolean {
    if (this.kind === 'network' || this.kind === 'timeout') return true;
    if (this.kind === 'http' && this.status !== undefined)
      return this.status === 408 || this.status === 429 || this.status >= 500;
    return false;
  }

  get unauthorized(): boolean {
    return this.kind === 'http' && this.status === 401;
  }
}

/** Retry-After as seconds or an HTTP date, in milliseconds from now. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The codes of a network failure that is the clinic's network setup, not the connection (network.ts). */
export const NETWORK_SETUP_CODES: ReadonlySet<string> = new Set(['proxy', 'proxy_settings', 'certificate']);

/** A proxy that refuses, an untrusted certificate, unusable proxy settings: its message says what to ask IT. */
export function isNetworkSetupFailure(e: ServiceError): boolean {
  return e.kind === 'network' && NETWORK_SETUP_CODES.has(e.code ?? '');
}
