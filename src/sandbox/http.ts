// Minimal routing and JSON plumbing for the sandbox. Plain node:http rather than a framework
// because the sandbox needs the raw socket (fault injection cuts connections mid-answer) and
// streams uploads of any size straight to disk; a framework would add little but layers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { decodeSegment } from '../shared/request-target.ts';

/**
 * An error answer of the sandbox, as FastAPI writes them: `{ detail: "text" }`, or
 * for a validation error 422 `{ detail: [{ loc, msg, type }] }`. `code` is sent beside `detail`
 * for the app's own checks; the published service may not send it.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;
  readonly validation: ValidationItem[] | null;
  constructor(
    status: number,
    code: string,
    detail: string,
    headers: Record<string, string> = {},
    validation: ValidationItem[] | null = null,
  ) {
    super(detail);
    this.status = status;
    this.code = code;
    this.headers = headers;
    this.validation = validation;
  }
}

export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** An error of the storage service (the presigned `PUT /storage/{key}`), answered in S3's XML. */
export class StorageError extends ApiError {
  readonly key: string;
  constructor(status: number, code: string, message: string, key: string) {
    super(status, code, message);
    this.key = key;
  }
}

function xmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
}

export type Handler = (ctx: RequestContext) => Promise<Reply> | Reply;
/** What a handler answers; `raw` handlers (the upload PUT) may write the response themselves. */
export type Reply = {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** The body is plain text, not JSON. */ text?: boolean;
};

interface Route {
  method: string;
  pattern: RegExp;
  keys: string[];
  handler: Handler;
}

export class Router {
  private readonly routes: Route[] = [];

  add(method: string, path: string, handler: Handler): this {
    const keys: string[] = [];
    const source = path
      .split('/')
      .map((part) => {
        if (part.startsWith(':')) {
          keys.push(part.slice(1));
          return '([^/]+)';
        }
        return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('/');
    this.routes.push({ method, pattern: new RegExp(`^${source}$`), keys, handler });
    return this;
  }

  /** The handler for a request, or an ApiError saying why there is none (404 / 405). */
  match(method: string, pathname: string): { handler: Handler; params: Record<string, string> } {
    const allowed = new Set<string>();
    for (const route of this.routes) {
      const m = route.pattern.exec(pathname);
      if (!m) continue;
      if (route.method !== method) {
        allowed.add(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      route.keys.forEach((key, i) => {
        const value = decodeSegment(m[i + 1] ?? '');
        if (value === null)
          throw new ApiError(400, 'bad_request', `The ${key} in ${pathname} is not valid percent-encoding.`);
        params[key] = value;
      });
      return { handler: route.handler, params };
    }
    if (allowed.size > 0) {
      const allow = [...allowed].join(', ');
      throw new ApiError(405, 'method_not_allowed', `${method} is not allowed on ${pathname}; use ${allow}.`, {
        Allow: allow,
      });
    }
    throw new ApiError(404, 'not_found', `No such endpoint: ${method} ${pathname}.`);
  }
}

export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/**
 * A FastAPI validation error: 422 with `detail` as the list of what is wrong, each item naming
 * where (`body`, `query`, `header`, then the field) and why.
 */
export function invalid(items: ValidationItem[], code = 'validation_error'): ApiError {
  const detail = items.map((i) => `${i.loc.slice(1).join('.') || String(i.loc[0] ?? 'body')}: ${i.msg}`).join('; ');
  return new ApiError(422, code, `Invalid request: ${detail}.`, {}, items);
}

const NOT_AN_OBJECT: ValidationItem = {
  loc: ['body'],
  msg: 'Input should be a valid dictionary or object to extract fields from',
  type: 'model_attributes_type',
};

/**
 * Reads a JSON request body as FastAPI does: no body, JSON that does not parse, and a body sent
 * as another content type (FastAPI then hands the model raw bytes) are 422 lists; past the
 * limit is 413, where a proxy in front of the service would stop it.
 */
export async function readJson(req: IncomingMessage, { optional = false } = {}): Promise<unknown> {
  const type = req.headers['content-type'];
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > MAX_JSON_BODY_BYTES) {
    throw new ApiError(
      413,
      'payload_too_large',
      `The request body is ${declared} bytes; the limit is ${MAX_JSON_BODY_BYTES} bytes.`,
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_JSON_BODY_BYTES) {
      throw new ApiError(
        413,
        'payload_too_large',
        `The request body is over the limit of ${MAX_JSON_BODY_BYTES} bytes.`,
      );
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') {
    if (optional) return {};
    throw invalid([{ loc: ['body'], msg: 'Field required', type: 'missing' }]);
  }
  // FastAPI parses JSON when the type is absent or application/json (or +json).
  if (type !== undefined && !/^application\/([\w.-]+\+)?json\b/i.test(type)) throw invalid([NOT_AN_OBJECT]);
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    const at = /position (\d+)/.exec((e as Error).message)?.[1];
    throw invalid([
      { loc: ['body', at === undefined ? text.length : Number(at)], msg: 'JSON decode error', type: 'json_invalid' },
    ]);
  }
}

/**
 * The type pydantic (FastAPI's validator) gives the fault a zod issue describes, so a 422 reads
 * as the service's would: `string_too_short`, not zod's `too_small`.
 */
function pydanticType(issue: z.core.$ZodIssue): string {
  // The schemas check a date as text; pydantic parses it as a date and names that fault so.
  if (issue.message.startsWith('Input should be a valid date')) return 'date_from_datetime_parsing';
  switch (issue.code) {
    case 'invalid_type':
      if (issue.message === 'Field required') return 'missing';
      return (
        (
          {
            string: 'string_type',
            boolean: 'bool_type',
            number: 'float_type',
            int: 'int_type',
            array: 'list_type',
            object: 'model_attributes_type',
          } as Record<string, string>
        )[issue.expected] ?? `${issue.expected}_type`
      );
    case 'too_small':
      return issue.origin === 'string'
        ? 'string_too_short'
        : issue.origin === 'array'
          ? 'too_short'
          : 'greater_than_equal';
    case 'too_big':
      return issue.origin === 'string' ? 'string_too_long' : issue.origin === 'array' ? 'too_long' : 'less_than_equal';
    case 'invalid_format':
      return (
        ({ url: 'url_parsing', uuid: 'uuid_parsing', regex: 'string_pattern_mismatch' } as Record<string, string>)[
          issue.format
        ] ?? 'value_error'
      );
    default:
      return 'value_error';
  }
}

/** Validates a parsed body against a schema; a FastAPI 422 list names each wrong field. */
export function validate<T>(schema: z.ZodType<T>, value: unknown): T {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid([NOT_AN_OBJECT]);
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const items = result.error.issues.flatMap((issue): ValidationItem[] => {
    const loc = ['body', ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))];
    // FastAPI names each unknown member on its own.
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => ({
        loc: [...loc, key],
        msg: 'Extra inputs are not permitted',
        type: 'extra_forbidden',
      }));
    return [{ loc, msg: issue.message, type: pydanticType(issue) }];
  });
  // Pydantic stops at a field's first fault; zod may go on to report a second for it.
  const seen = new Set<string>();
  throw invalid(
    items.filter((item) => !seen.has(JSON.stringify(item.loc)) && Boolean(seen.add(JSON.stringify(item.loc)))),
  );
}

function missingHeaders(req: IncomingMessage, names: readonly string[]): ValidationItem[] {
  return names
    .filter((name) => req.headers[name.toLowerCase()] === undefined)
    .map((name): ValidationItem => ({ loc: ['header', name.toLowerCase()], msg: 'Field required', type: 'missing' }));
}

/** The required headers of an operation without a body: 422 naming each one absent. */
export function requireHeaders(req: IncomingMessage, names: readonly string[]): void {
  const missing = missingHeaders(req, names);
  if (missing.length > 0) throw invalid(missing);
}

/**
 * A JSON body and the required headers of an operation, checked as FastAPI checks its
 * parameters: every fault in one 422 list, the headers' first.
 */
export async function readBody<T>(
  req: IncomingMessage,
  schema: z.ZodType<T>,
  { headers = [] }: { headers?: readonly string[] } = {},
): Promise<T> {
  const missing = missingHeaders(req, headers);
  let body: T;
  try {
    body = validate(schema, await readJson(req));
  } catch (e) {
    if (missing.length > 0 && e instanceof ApiError && e.validation) throw invalid([...missing, ...e.validation]);
    throw e;
  }
  if (missing.length > 0) throw invalid(missing);
  return body;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...(text ? { 'Content-Type': 'application/json; charset=utf-8' } : {}),
    'Content-Length': String(Buffer.byteLength(text)),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, error: ApiError): void {
  if (error instanceof StorageError) {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${xmlEscape(error.code)}</Code><Message>${xmlEscape(error.message)}</Message><Key>${xmlEscape(error.key)}</Key><RequestId>${Date.now().toString(16).toUpperCase()}</RequestId></Error>`;
    res.writeHead(error.status, {
      'Content-Type': 'application/xml',
      'Content-Length': String(Buffer.byteLength(xml)),
      ...error.headers,
    });
    res.end(xml);
    return;
  }
  sendJson(res, error.status, { detail: error.validation ?? error.message, code: error.code }, error.headers);
}

export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}
