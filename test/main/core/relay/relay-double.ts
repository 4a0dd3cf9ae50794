// A clinic relay built to its wire protocol, for the app's tests: real HTTP on loopback, the
// subscriber's token checked with the service's own GET /users/me (the sandbox), the service's
// deliveries taken at POST / (signed by the sandbox; the signature is checked as a relay does).
// It can also go quiet (accept and never speak), refuse, and end streams with `token-expired`.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { request } from 'undici';
import { SIGNATURE_HEADER, verifyWebhook } from '../../../../src/shared/webhook/index.ts';

export interface DoubleEvent {
  id: number;
  public_id: string;
  recording_session_public_id: string | null;
  status: string;
  at: string;
}

export interface RelayDouble {
  url: string;
  events: DoubleEvent[];
  /** The `since` of every GET /links answered. */
  linkReads: number[];
  /** Every GET /events, with the Last-Event-ID it came with. */
  subscriptions: { lastEventId: string | null; status: number; authorization: string }[];
  /** Accept GET /events and never send a byte; no keep-alives on the streams already open. */
  silent: boolean;
  /** Keep deliveries without passing them on to the streams open. */
  mute: boolean;
  /** End every stream with `token-expired` as soon as it is ready (a relay whose clock is ahead). */
  expireAtOnce: boolean;
  /** The organization it serves (the first one a subscriber belongs to, when not given). */
  organization: string | null;
  /** Adds an event as if a delivery came, and sends it to the subscribers. */
  add(event: Omit<DoubleEvent, 'id' | 'at'>): DoubleEvent;
  /** Ends every open stream with `token-expired`. */
  expireAll(): void;
  /** Cuts every open stream without a word (a relay that dies). */
  dropAll(): void;
  open(): number;
  close(): Promise<void>;
}

export async function startRelayDouble(options: {
  /** The service's scribing address, asked when a subscriber comes (the sandbox may start after the relay). */
  scribeUrl: () => string;
  webhookSecret?: () => string | null;
  heartbeatMs?: number;
  organization?: string;
}): Promise<RelayDouble> {
  const streams = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  const relay: RelayDouble = {
    url: '',
    events: [],
    subscriptions: [],
    linkReads: [],
    silent: false,
    mute: false,
    expireAtOnce: false,
    organization: options.organization ?? null,
    add(event) {
      const full = { ...event, id: relay.events.length + 1, at: new Date().toISOString() };
      relay.events.push(full);
      if (!relay.mute) for (const res of streams) send(res, full);
      return full;
    },
    expireAll() {
      for (const res of streams) {
        res.end(`event: token-expired\ndata: ${JSON.stringify({ message: 'Your sign-in has lapsed.' })}\n\n`);
        streams.delete(res);
      }
    },
    dropAll() {
      for (const res of streams) res.socket?.destroy();
      streams.clear();
    },
    open: () => streams.size,
    close: async () => {
      clearInterval(beat);
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  const send = (res: ServerResponse, e: DoubleEvent) =>
    res.write(`id: ${e.id}\nevent: scribe\ndata: ${JSON.stringify(e)}\n\n`);

  /** Who the bearer is, as the service says; a status to refuse with otherwise. */
  async function who(req: IncomingMessage): Promise<{ organization: string } | { status: number; code: string }> {
    const auth = String(req.headers.authorization ?? '');
    if (!auth.startsWith('Bearer ')) return { status: 401, code: 'unauthorized' };
    try {
      const me = await request(`${options.scribeUrl()}/users/me`, {
        headers: { authorization: auth, 'x-api-version': 'v1', accept: 'application/json' },
      });
      const body = (await me.body.json()) as { organization_public_id?: string };
      if (me.statusCode === 401) return { status: 401, code: 'unauthorized' };
      if (me.statusCode !== 200 || !body.organization_public_id) return { status: 503, code: 'unavailable' };
      relay.organization ??= body.organization_public_id;
      if (body.organization_public_id !== relay.organization) return { status: 403, code: 'forbidden' };
      return { organization: body.organization_public_id };
    } catch {
      return { status: 503, code: 'unavailable' };
    }
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://relay');
      if (req.method === 'POST' && url.pathname === '/') {
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        const raw = Buffer.concat(chunks).toString('utf8');
        const signature = String(req.headers[SIGNATURE_HEADER] ?? '');
        const secret = options.webhookSecret?.() ?? null;
        if (secret !== null && !(await verifyWebhook(secret, raw, signature))) {
          res.writeHead(401).end();
          return;
        }
        const body = JSON.parse(raw) as {
          public_id: string;
          recording_session_public_id: string | null;
          status: string;
        };
        relay.add({
          public_id: body.public_id,
          recording_session_public_id: body.recording_session_public_id ?? null,
          status: body.status,
        });
        res.writeHead(200).end('{}');
        return;
      }
      if (req.method === 'GET' && (url.pathname === '/events' || url.pathname === '/links')) {
        const lastEventId = (req.headers['last-event-id'] as string | undefined) ?? url.searchParams.get('lastEventId');
        const found = await who(req);
        if ('status' in found) {
          if (url.pathname === '/events')
            relay.subscriptions.push({
              lastEventId,
              status: found.status,
              authorization: String(req.headers.authorization),
            });
          res.writeHead(found.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { code: found.code, message: `Refused (${found.code}).` } }));
          return;
        }
        if (url.pathname === '/links') {
          const since = Number(url.searchParams.get('since') ?? 0);
          relay.linkReads.push(since);
          const links = relay.events.filter((e) => e.id > since && e.recording_session_public_id !== null);
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ links, last_id: relay.events.length }));
          return;
        }
        relay.subscriptions.push({ lastEventId, status: 200, authorization: String(req.headers.authorization) });
        if (relay.silent) return; // accepted, never answered
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write(
          `event: ready\ndata: ${JSON.stringify({ organization: found.organization, last_id: relay.events.length })}\n\n`,
        );
        if (relay.expireAtOnce) {
          res.end(`event: token-expired\ndata: ${JSON.stringify({ message: 'Your sign-in has lapsed.' })}\n\n`);
          return;
        }
        const after = lastEventId === null ? relay.events.length : Number(lastEventId);
        for (const e of relay.events) if (e.id > after) send(res, e);
        streams.add(res);
        res.on('close', () => streams.delete(res));
        return;
      }
      res.writeHead(404).end();
    })();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const beat = setInterval(() => {
    if (!relay.silent) for (const res of streams) res.write(': keep-alive\n\n');
  }, options.heartbeatMs ?? 15_000);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  relay.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return relay;
}
