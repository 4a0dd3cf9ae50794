// A reference receiver for the service's webhook deliveries: verifies X-Webhook-Signature over
// the canonical form of the body, handles each delivery (known by event id, else by public_id and
// status, as the published payloads have no id), and prints every accepted event as one JSON
// line. It imports node:* and src/shared only, and pg when deliveries are kept in PostgreSQL, so
// it can be copied out and deployed alone.
//
// What it guarantees, whatever the store: a delivery answered 200 was handled, and the handler
// is called at least once for each delivery the sender keeps retrying, every call of one
// delivery with the same `delivery_key`. While a call runs, no other call of its delivery starts,
// in this receiver or in another sharing its database: the claim is renewed for as long as the
// handler runs, however long that is. A second call happens only when something fails after
// the handler returned and before the delivery is recorded as handled (the receiver dies; the
// file or the database refuses the record), or when a receiver loses its database connection
// or stops renewing its claim (hung, frozen) while its handler runs: the answer is then 500 or
// none, and the retry calls the handler again. No store closes that gap, since the handler's
// effect and the record are not one transaction. A handler that makes its effect once per
// `delivery_key` (a unique key stored with the effect) makes the whole effectively once.
//
// With a scribing address it is also the clinic relay (relay.ts), which serves its own paths.
// Over 400 lines because the checks of one delivery, in the order the answers table gives them,
// read best in one place.
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  canonicalJson,
  canonicalJsonFromValue,
  quoteString,
  SIGNATURE_HEADER,
  verifySignature,
  WebhookPayloadError,
} from '../shared/webhook/index.ts';
import { deliveryKey } from './delivery-key.ts';
import { formatDuration } from './duration.ts';
import { BUSY, KeyQueue } from './key-queue.ts';
import { openSeenStore } from './open-seen-store.ts';
import { Relay, RELAY_PATHS, type RelayOptions } from './relay.ts';
import { relayEventOf } from './relay-feed.ts';
import { DEFAULT_REMEMBER_MS, DEFAULT_WAIT_MS, StoreBusyError, type Claim } from './seen-store.ts';
import { staleDate } from './stale-delivery.ts';

export interface AcceptedEvent {
  received_at: string;
  event_id: string | null;
  event_type: string | null;
  /**
   * What names this delivery: `event:<event_id>`, else `scribe:<public_id>:<status>`, the same
   * text on every call of the handler for it (a retry, another receiver). Null when the payload
   * has neither, and nothing tells two such deliveries apart. A handler that files its effect
   * under this key, and skips a key it has filed, does its work once.
   */
  delivery_key: string | null;
  /** The body as parsed by JSON.parse (numbers as doubles); `canonical` keeps their text. */
  payload: unknown;
  /** The canonical text the signature was checked against. */
  canonical: string;
}

export interface WebhookReceiverOptions {
  port?: number;
  host?: string;
  secret: string;
  maxBodyBytes?: number;
  /**
   * Called for each delivery until one call returns and is recorded (delivery-key.ts); a throw
   * (or rejection) answers 500 so the sender retries. At least once, not exactly once: a record
   * that fails after it returned calls it again, with the same `delivery_key`.
   */
  onEvent?: (event: AcceptedEvent) => void | Promise<void>;
  /** Where event lines go (without a newline); process.stdout by default. */
  out?: (line: string) => void;
  /** Time allowed for the request headers (default 10 s) and the whole request (default 30 s). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Where handled deliveries are kept across restarts (a node:sqlite file); memory when absent. */
  dataDir?: string | null;
  /** A PostgreSQL URL: receivers given the same one share what they handled (instead of dataDir). */
  databaseUrl?: string | null;
  /** How long a handled delivery is remembered (seen-store.ts DEFAULT_REMEMBER_MS). */
  rememberMs?: number;
  /** How long a copy waits for another copy of its delivery being handled before it is answered 503. */
  waitMs?: number;
  /**
   * PostgreSQL only: the claim's lease, how long a claim whose receiver stopped renewing it (hung,
   * frozen, cut off) is kept before the server ends it; renewed while the handler runs
   * (postgres-seen-store.ts).
   */
  holdLimitMs?: number;
  /** The clock, for tests of what happens hours later. */
  now?: () => number;
  /** Turns the clinic relay on (relay.ts): accepted `scribe` deliveries passed on to subscribers. */
  relay?: RelayOptions | null;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  close(): Promise<void>;
  /** Where handled deliveries are kept (a file, or memory). */
  seenStore: string;
  /** The most recent accepted events (the last MAX_KEPT_EVENTS), oldest first. */
  events: AcceptedEvent[];
  /** The relay, when it is on. */
  relay: Relay | null;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const PATHS = new Set(['/', '/webhook']);
const MAX_KEPT_EVENTS = 1_000;
// Deliveries are small: a client slower than this is not a sender, and is cut off.
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;
// Node enforces both timeouts on this tick (30 s by default, which would double them).
const TIMEOUT_CHECK_MS = 500;
// After a 413 the rest of an oversized body is read and dropped for a moment, so that closing
// the socket does not reset the connection before the client has read the answer.
const DISCARD_GRACE_MS = 2_000;

// A retryable answer: the sender tries again on its own schedule; this only says when is useful.
const RETRY_AFTER_SECONDS = 60;

class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, detail: string, headers: Record<string, string> = {}) {
    super(detail);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

const retryLater = (code: string, detail: string) =>
  new HttpError(503, code, detail, { 'retry-after': String(RETRY_AFTER_SECONDS) });

export async function startWebhookReceiver(options: WebhookReceiverOptions): Promise<WebhookReceiver> {
  if (!options.secret) throw new Error('the webhook secret is empty');
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const out = options.out ?? ((line: string) => void process.stdout.write(line + '\n'));
  const now = options.now ?? Date.now;
  const rememberMs = options.rememberMs ?? DEFAULT_REMEMBER_MS;
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const seen = await openSeenStore({
    dataDir: options.dataDir ?? null,
    databaseUrl: options.databaseUrl ?? null,
    rememberMs,
    waitMs,
    ...(options.holdLimitMs !== undefined ? { holdLimitMs: options.holdLimitMs } : {}),
    now: now(),
  });
  let relay: Relay | null = null;
  try {
    if (options.relay) relay = new Relay(await seen.openFeed(), options.relay, now);
  } catch (e) {
    await seen.close();
    throw e;
  }
  const copies = new KeyQueue();
  const events: AcceptedEvent[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (relay && RELAY_PATHS.has(path)) return relay.serve(req, res, path);
    if (path === '/health' && req.method === 'GET')
      return sendJson(res, 200, { ok: true, relay: false, organization: null });
    if (!PATHS.has(path))
      throw new HttpError(404, 'not_found', `no webhook endpoint at ${path}; POST to / or /webhook`);
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      throw new HttpError(
        405,
        'method_not_allowed',
        `${req.method ?? 'this method'} is not allowed; deliveries are POST`,
      );
    }
    const signature = req.headers[SIGNATURE_HEADER];
    if (typeof signature !== 'string' || signature === '') {
      throw new HttpError(400, 'missing_signature', 'the X-Webhook-Signature header is missing');
    }
    const body = await readBody(req, res, maxBodyBytes);
    if (body.trim() === '') throw new HttpError(400, 'missing_body', 'the request has no JSON body');
    let canonical: string;
    try {
      canonical = canonicalJson(body);
    } catch (error) {
      if (error instanceof WebhookPayloadError)
        throw new HttpError(400, 'invalid_json', `the body is not JSON: ${error.message}`);
      throw error;
    }
    if (!(await verifySignature(options.secret, canonical, signature))) {
      throw new HttpError(403, 'invalid_signature', 'the X-Webhook-Signature does not match the payload');
    }
    const payload: unknown = JSON.parse(body);
    const fields = isObject(payload) ? payload : {};
    const at = now();
    const stale = staleDate(fields, at, rememberMs);
    if (stale) {
      throw new HttpError(
        422,
        'stale_delivery',
        `the delivery is dated ${new Date(stale.at).toISOString()} (${stale.field}), older than the ${formatDuration(rememberMs)} this receiver remembers deliveries for: refused as a replay`,
      );
    }
    const eventId =
      typeof fields['event_id'] === 'string' || typeof fields['event_id'] === 'number'
        ? String(fields['event_id'])
        : null;
    const eventType = typeof fields['event_type'] === 'string' ? fields['event_type'] : null;
    const key = deliveryKey(fields);
    const event: AcceptedEvent = {
      received_at: new Date(at).toISOString(),
      event_id: eventId,
      event_type: eventType,
      delivery_key: key,
      payload,
      canonical,
    };
    if (key === null) {
      // Nothing tells two such payloads apart, so each one is handled.
      await handleEvent(event);
      sendJson(res, 200, { received: true, duplicate: false });
      return;
    }
    const outcome = await copies.run(key, waitMs, () => handleOnce(key, event, at));
    if (outcome === BUSY)
      throw retryLater('in_progress', 'another copy of this delivery is still being handled; try again later');
    sendJson(res, 200, { received: true, duplicate: outcome === 'duplicate' });
  }

  // Answers 200 only once the event was handled, by this copy or an earlier one: a copy that
  // finds the key claimed waits for that claim's end rather than guessing its outcome.
  async function handleOnce(key: string, event: AcceptedEvent, at: number): Promise<'handled' | 'duplicate'> {
    let claim: Claim | null;
    try {
      claim = await seen.claim(key, at);
    } catch (error) {
      if (error instanceof StoreBusyError) throw retryLater('in_progress', `${error.message}; try again later`);
      throw retryLater(
        'store_unavailable',
        `handled deliveries cannot be looked up: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (claim === null) return 'duplicate';
    try {
      await handleEvent(event);
    } catch (error) {
      await claim.release();
      throw error;
    }
    try {
      await claim.commit(relay ? relayEventOf(event.payload, event.received_at) : null);
    } catch (error) {
      throw new HttpError(
        500,
        'store_failed',
        `the event was handled but could not be recorded, so a retry may handle it again: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return 'handled';
  }

  // The printed line is part of handling: it is written before the claim is committed, so a
  // crash in between prints it again on the retry rather than never.
  async function handleEvent(event: AcceptedEvent): Promise<void> {
    try {
      await options.onEvent?.(event);
      out(eventLine(relay ? withoutNote(event) : event));
    } catch (error) {
      throw new HttpError(
        500,
        'handler_failed',
        `the event could not be handled: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    events.push(event);
    if (events.length > MAX_KEPT_EVENTS) events.shift();
    relay?.learn(event.payload);
  }

  // The response in progress on each socket, so that a timeout can answer through it.
  const inFlight = new WeakMap<object, ServerResponse>();
  const server = createServer({ connectionsCheckingInterval: TIMEOUT_CHECK_MS }, (req, res) => {
    const socket = req.socket;
    inFlight.set(socket, res);
    res.on('close', () => inFlight.delete(socket));
    req.on('error', () => req.destroy());
    handle(req, res).catch((error: unknown) => {
      const known =
        error instanceof HttpError
          ? error
          : new HttpError(500, 'internal_error', 'the receiver failed to handle the request');
      if (res.headersSent || res.destroyed) return;
      for (const [name, value] of Object.entries(known.headers)) res.setHeader(name, value);
      sendJson(res, known.status, { detail: known.message, code: known.code });
    });
  });
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  server.requestTimeout = requestTimeout;
  // Node insists that the headers' limit is not above the whole request's.
  server.headersTimeout = Math.min(options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS, requestTimeout);
  // Malformed or too slow requests: answer in the usual shape when nothing was written yet.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    const [status, code, detail] = clientErrorAnswer(error.code);
    const res = inFlight.get(socket);
    if (res && !res.headersSent && !res.destroyed && socket.writable) {
      res.setHeader('connection', 'close');
      res.on('finish', () => socket.destroy());
      sendJson(res, status, { detail, code });
    } else if (!res && socket.writable) {
      const body = JSON.stringify({ detail, code });
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    } else {
      socket.destroy();
    }
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (e) {
    await seen.close();
    throw e;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/`,
    port: address.port,
    events,
    relay,
    seenStore: seen.where,
    close: () =>
      new Promise<void>((resolve, reject) => {
        relay?.close();
        server.close((error) => {
          seen.close().then(
            () => (error ? reject(error) : resolve()),
            (closeError: unknown) => reject(error ?? closeError),
          );
        });
        server.closeAllConnections();
      }),
  };
}

/** Reads the body as UTF-8 text, answering 413 (and giving up on it) once it is too long. */
function readBody(req: IncomingMessage, res: ServerResponse, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    const tooLarge = (): void => {
      over = true;
      chunks.length = 0;
      res.setHeader('connection', 'close');
      reject(new HttpError(413, 'payload_too_large', `the body is larger than ${maxBytes} bytes`));
      req.resume();
      setTimeout(() => req.destroy(), DISCARD_GRACE_MS).unref();
    };
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      tooLarge();
      return;
    }
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > maxBytes) tooLarge();
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (over) return;
      try {
        // ignoreBOM keeps a leading BOM in the text, so that the parser refuses it as Python does.
        resolve(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(Buffer.concat(chunks)));
      } catch {
        reject(new HttpError(400, 'invalid_json', 'the body is not UTF-8 text'));
      }
    });
    req.on('close', () => {
      if (!req.complete) reject(new HttpError(400, 'aborted', 'the request was aborted'));
    });
  });
}

function clientErrorAnswer(code: string | undefined): [number, string, string] {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'request_timeout', 'the request took too long to arrive'];
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'headers_too_large', 'the request headers are too large'];
    default:
      return [400, 'bad_request', 'malformed HTTP request'];
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// The payload goes in as its canonical text, so the line shows every number as it was signed.
function eventLine(event: AcceptedEvent): string {
  const text = (value: string | null) => (value === null ? 'null' : quoteString(value));
  return `{"received_at":${quoteString(event.received_at)},"event_id":${text(event.event_id)},"event_type":${text(event.event_type)},"delivery_key":${text(event.delivery_key)},"payload":${event.canonical}}`;
}

// A relay's output usually ends up in a system log: there a `scribe` line carries what is relayed
// (ids and status), not the note the last delivery holds.
function withoutNote(event: AcceptedEvent): AcceptedEvent {
  const relayed = relayEventOf(event.payload, event.received_at);
  if (relayed === null) return event;
  const { at: _at, ...fields } = relayed;
  return { ...event, canonical: canonicalJsonFromValue({ ...fields, event_type: 'scribe' }) };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
