// How a call reaches a PIMS: undici, the computer's route (proxy, trusted roots) when one is
// given, a deadline over the whole call, and every failure turned into a PimsError whose code
// says what the caller does next. Never a token, a body or a query string in the log: only the
// method, the path and the status.
import { request, type Dispatcher } from 'undici';
import { PimsError } from './port.ts';

export interface PimsHttpOptions {
  /** The route to the PIMS (the service's `Network`), so a clinic's proxy and roots apply here too. */
  dispatcherFor?: (url: string) => Promise<Dispatcher | undefined>;
  /** Time-out of one call, in ms. */
  timeoutMs?: number;
  /** Debug lines: method, path, status, time. */
  log?: (line: string) => void;
  /** The PIMS as the vet knows it, for the sentences ("Provet"). */
  name?: string;
}

export interface PimsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body read as JSON; undefined when empty or not JSON. */
  json: unknown;
}

/** Retry-After as seconds or an HTTP date, in ms from now. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Only the path: a query may hold a patient's name, and a log line never holds a token. */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '(bad address)';
  }
}

/** One call, its answer whatever the status; a call that did not get an answer is `unreachable`. */
export async function send(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  sent: { token?: string; form?: Record<string, string>; json?: unknown; headers?: Record<string, string> },
  options: PimsHttpOptions = {},
): Promise<PimsAnswer> {
  const name = options.name ?? 'The practice-management system';
  const timeoutMs = options.timeoutMs ?? 30_000;
  const headers: Record<string, string> = { accept: 'application/json', ...sent.headers };
  if (sent.token) headers['authorization'] = `Bearer ${sent.token}`;
  let body: string | undefined;
  if (sent.form) {
    body = new URLSearchParams(sent.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (sent.json !== undefined) {
    body = JSON.stringify(sent.json);
    headers['content-type'] = 'application/json';
  }
  const started = Date.now();
  // undici's own time-outs limit silence, not the call: the deadline limits the whole call.
  const deadline = AbortSignal.timeout(timeoutMs);
  let answer: Dispatcher.ResponseData;
  let text: string;
  try {
    const dispatcher = await options.dispatcherFor?.(url);
    answer = await request(url, {
      method,
      headers,
      body,
      signal: deadline,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      ...(dispatcher ? { dispatcher } : {}),
    });
    text = await answer.body.text();
  } catch (e) {
    const words = deadline.aborted ? 'did not answer in time' : 'could not be reached';
    throw new PimsError('unreachable', `${name} ${words}: check the connection and try again.`, { cause: e });
  }
  options.log?.(`pims: ${method} ${pathOf(url)} ${answer.statusCode} in ${Date.now() - started} ms`);
  let json: unknown;
  try {
    json = text.trim() === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    json = undefined;
  }
  return { status: answer.statusCode, headers: answer.headers, json };
}
