// What goes wrong between the client and the service, as text a vet can read. The service's
// error bodies vary, so the text is looked for in the usual places (FastAPI's `detail`, then
// `message`, then `error`) before falling back to the raw body (docs/service.md, "Errors").

/**
 * The operations of the service the app calls, in the order of the numbered table of
 * docs/service.md ("The operations"); the order is kept so that the numbers stay the same.
 */
export const OPERATIONS = [
  'sign-in',
  'refresh-token',
  'login',
  'recording-session-create',
  'templates',
  'upload-url',
  'upload',
  'scribe-request',
  'scribe-get',
  'ddx-agent',
  'treatment-plan-agent',
  'notification-email',
  'webhook-status',
] as const;

/** The other published operations the app uses (docs/service.md, after the numbered ones). */
export const EXTRA_OPERATIONS = [
  'users-me',
  'organization-get',
  'webhook-update',
  'medication-agent',
  'chat',
  'scribe-all',
  'recording-sessions-all',
] as const;

export type Operation = (typeof OPERATIONS)[number] | (typeof EXTRA_OPERATIONS)[number];

/** An operation's number in docs/service.md's table, 1-13 (0 for the extras). */
export function operationNumber(operation: Operation): number {
  return (OPERATIONS as readonly string[]).indexOf(operation) + 1;
}

/**
 * A 2xx answer whose body is not what the operation promises. `field` is the dotted path
 * of the offending member (`user.email`, `response["Plain English Summary"]`), or '' when the
 * answer as a whole has the wrong shape.
 */
export class ServiceResponseError extends Error {
  readonly operation: Operation;
  readonly field: string;
  constructor(operation: Operation, field: string, problem: string, alternatives: readonly string[] = []) {
    const others = alternatives.length > 0 ? ` (or ${alternatives.map((name) => `"${name}"`).join(' or ')})` : '';
    const where = field === '' ? 'the answer' : `field "${field}"${others}`;
    super(`Unexpected answer from the service for ${operation}: ${where} ${problem}`);
    this.name = 'ServiceResponseError';
    this.operation = operation;
    this.field = field;
  }
}

const MAX_RAW_CHARS = 300;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

// FastAPI's 422 answer: detail = [{ loc: ['body', 'patient_name'], msg: 'Field required', type: 'missing' }].
// Each item becomes "patient name is missing" or "session date: input should be a valid date":
// the field in plain words, never the list itself.
function validationItem(item: unknown): string | undefined {
  if (typeof item === 'string') return nonEmpty(item);
  if (!isRecord(item)) return undefined;
  const msg = nonEmpty(item['msg']) ?? nonEmpty(item['message']);
  if (!msg) return undefined;
  const loc = Array.isArray(item['loc'])
    ? item['loc'].filter((p) => typeof p === 'string' || typeof p === 'number')
    : [];
  // The first element names where the value came from, which means nothing to a vet.
  if (loc.length > 1 && typeof loc[0] === 'string' && ['body', 'query', 'path', 'header', 'cookie'].includes(loc[0]))
    loc.shift();
  const field = loc.map((p) => (typeof p === 'number' ? `item ${p + 1}` : p.replace(/[_-]+/g, ' ').trim())).join(' ');
  const type = nonEmpty(item['type']) ?? '';
  if (field === '') return msg;
  if (type === 'missing' || type.endsWith('.missing') || /^field required$/i.test(msg)) return `${field} is missing`;
  // "Input should be…" reads as part of the sentence once its capital goes.
  return `${field}: ${/^[A-Z][a-z]/.test(msg) ? msg[0]!.toLowerCase() + msg.slice(1) : msg}`;
}

function detailText(detail: unknown): string | undefined {
  if (typeof detail === 'string') return nonEmpty(detail);
  if (Array.isArray(detail)) {
    const parts = detail.map(validationItem).filter((p): p is string => p !== undefined);
    return parts.length > 0 ? `The service refused the request: ${parts.join('; ')}.` : undefined;
  }
  if (isRecord(detail)) return nonEmpty(detail['message']) ?? nonEmpty(detail['msg']);
  return undefined;
}

function rawText(text: string): string | undefined {
  // An HTML error page from a proxy: its text, not its markup.
  const plain = /^\s*</.test(text)
    ? text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ')
    : text;
  const collapsed = plain.replace(/\s+/g, ' ').trim();
  if (collapsed === '') return undefined;
  return collapsed.length > MAX_RAW_CHARS ? `${collapsed.slice(0, MAX_RAW_CHARS - 1)}…` : collapsed;
}

/**
 * The service's own words for a failed call: `detail` (a string, or FastAPI's list of
 * `{ loc, msg }`), `message`, `error` (a string or `{ message }`), else the raw body,
 * else `HTTP <status>`. `body` is the parsed JSON, or undefined when the body was not JSON.
 */
export function serviceErrorMessage(body: unknown, raw: string, status: number): string {
  if (isRecord(body)) {
    const error = body['error'];
    const found =
      detailText(body['detail']) ??
      nonEmpty(body['message']) ??
      nonEmpty(error) ??
      (isRecord(error) ? (nonEmpty(error['message']) ?? nonEmpty(error['detail'])) : undefined);
    if (found) return found;
    // A validation list with nothing readable in it: a sentence, never the list itself.
    if (Array.isArray(body['detail'])) return `The service refused the request as invalid (HTTP ${status}).`;
  } else if (typeof body === 'string' && nonEmpty(body)) {
    return rawText(body) ?? `HTTP ${status}`;
  }
  return rawText(raw) ?? `HTTP ${status}`;
}

/**
 * The machine-readable error code of a failed call, if any: `code`, `error.code`, a numeric
 * `error`, else the `type` of the first item of a FastAPI validation list (`missing`).
 */
export function serviceErrorCode(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const pick = (value: unknown) => (typeof value === 'number' ? String(value) : nonEmpty(value));
  const error = body['error'];
  // The documented alternative shape `{ error: 404, message }` carries its code as a number.
  const own =
    pick(body['code']) ??
    (isRecord(error) ? pick(error['code']) : typeof error === 'number' ? String(error) : undefined);
  if (own !== undefined) return own;
  const detail = body['detail'];
  if (!Array.isArray(detail)) return undefined;
  for (const item of detail) {
    const type = isRecord(item) ? nonEmpty(item['type']) : undefined;
    if (type) return type;
  }
  return undefined;
}

/**
 * A cloud-storage error (the `PUT` to a presigned address answers S3-style XML,
 * `<Error><Code>AccessDenied</Code><Message>Request has expired</Message>…</Error>`). Only the
 * two top-level members are read, so two bounded patterns do the job an XML parser would, with
 * nothing to resolve (no entities, no DTD) and a length cap against a huge body.
 */
export function storageError(raw: string): { code: string; message: string } | undefined {
  const text = raw.length > 20_000 ? raw.slice(0, 20_000) : raw;
  if (!/<Error\b/.test(text)) return undefined;
  const code = /<Code>([^<]{1,200})<\/Code>/.exec(text)?.[1]?.trim();
  if (!code) return undefined;
  const message = /<Message>([^<]{0,1000})<\/Message>/.exec(text)?.[1]?.trim() ?? '';
  const unescape = (v: string) =>
    v
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  return { code: unescape(code), message: unescape(message) };
}
