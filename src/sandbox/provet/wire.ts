// How the Provet double reads requests and writes answers: Django REST framework's shapes
// (`{detail}` for most refusals, `{field: [messages]}` for a refused body), OAuth's form bodies
// and `{error, error_description}` answers, and HTML for the sign-in page.
import type { IncomingMessage, ServerResponse } from 'node:http';

export const MAX_BODY_BYTES = 1024 * 1024;

/** A refusal the double answers, in the shape its endpoint uses. */
export class ProvetError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Record<string, string>;
  constructor(status: number, body: unknown, headers: Record<string, string> = {}) {
    super(typeof body === 'object' && body && 'detail' in body ? String(body.detail) : `Provet answered ${status}`);
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/** DRF's `{detail}` refusal. */
export function detail(status: number, text: string, headers: Record<string, string> = {}): ProvetError {
  return new ProvetError(status, { detail: text }, headers);
}

/** DRF's refused body: each field with its messages. */
export function fieldErrors(errors: Record<string, string[]>): ProvetError {
  return new ProvetError(400, errors);
}

/** An OAuth 2 error of the token, revoke and userinfo endpoints (RFC 6749 section 5.2). */
export function oauthError(status: number, error: string, description: string): ProvetError {
  return new ProvetError(status, { error, error_description: description }, { 'Cache-Control': 'no-store' });
}

async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw detail(413, `The request body is over ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * A form body, as Provet's OAuth endpoints take them: `application/x-www-form-urlencoded` or
 * `multipart/form-data`, parsed by the platform's own Fetch `Response` (undici), which reads both.
 * Anything else is refused with RFC 6749's `invalid_request`.
 */
export async function readForm(req: IncomingMessage): Promise<Map<string, string>> {
  const type = req.headers['content-type'] ?? '';
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) {
    await readRaw(req);
    throw oauthError(
      400,
      'invalid_request',
      `The body must be application/x-www-form-urlencoded or multipart/form-data, not ${type || 'absent'}.`,
    );
  }
  const raw = await readRaw(req);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(raw), { headers: { 'content-type': type } }).formData();
  } catch {
    throw oauthError(400, 'invalid_request', 'The form body could not be read.');
  }
  const out = new Map<string, string>();
  for (const [key, value] of form) if (typeof value === 'string' && !out.has(key)) out.set(key, value);
  return out;
}

/** A JSON object body, as DRF reads one: anything else is a 400 naming what was wrong. */
export async function readJsonObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  const type = req.headers['content-type'] ?? '';
  const raw = (await readRaw(req)).toString('utf8');
  if (!/^application\/json\b/i.test(type))
    throw detail(415, `Unsupported media type "${type || 'none'}" in request: send application/json.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    throw detail(400, `JSON parse error - ${(e as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw fieldErrors({ non_field_errors: ['Invalid data. Expected a dictionary, but got a different type.'] });
  return parsed as Record<string, unknown>;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...(text ? { 'Content-Type': 'application/json' } : {}),
    'Content-Length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

export function sendHtml(res: ServerResponse, status: number, html: string) {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(html)),
    'Cache-Control': 'no-store',
    // The sign-in page must not be framed (click-jacking) nor run scripts. No form-action: the
    // browser applies it to the redirect that follows the form too, and that redirect goes to
    // the app's loopback address, on a port no policy can name in advance.
    'X-Frame-Options': 'DENY',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  });
  res.end(html);
}

export function redirect(res: ServerResponse, location: string, status = 302) {
  res.writeHead(status, { Location: location, 'Content-Length': '0', 'Cache-Control': 'no-store' });
  res.end();
}

/** Writes half of the answer and cuts the connection: the write took effect, its answer is lost. */
export function sendThenDrop(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) });
  res.write(text.slice(0, Math.floor(text.length / 2)));
  res.socket?.destroy();
}

/** The note's own escaping (every text of a page made safe), so the sign-in page escapes as the app does. */
export { escapeHtml } from '../../shared/note/index.ts';

export function bearer(req: IncomingMessage): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
}
