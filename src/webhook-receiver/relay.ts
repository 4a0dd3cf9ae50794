// The clinic relay: exam-room apps subscribe to the deliveries this receiver accepts.
//   GET /events  server-sent events: `ready`, then each relay event (after Last-Event-ID first, then
//                live), `: keep-alive` comments, and `token-expired` when the subscriber's token lapses
//   GET /links   the events after `since` that name a recording session, for a PC that was off
//   GET /health  whether the relay is on, and for which organization
//   POST /edits  a PC says a note was edited on it (which note, where, by whom, when; never the
//                text): passed on to every stream as `event: edit`, and the last per note kept
//                for a PC that subscribes later
// Subscribers prove who they are with their own access token for the service (relay-auth.ts), and
// only vets of the relay's organization are served: the events are one clinic's and nobody else's.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RelayAuth, RelayAuthError, type Subscriber } from './relay-auth.ts';
import type { RelayEvent, RelayFeed } from './relay-feed.ts';
import { relayEditProblem, relayEditSchema, type RelayEdit } from '../shared/relay-edits.ts';

export const RELAY_PATHS = new Set(['/events', '/links', '/health', '/edits']);
export const DEFAULT_HEARTBEAT_MS = 15_000;
// Pages of the store read at a time when a subscriber catches up.
const PAGE = 500;
// The most events one answer of GET /links holds; `last_id` then says where to go on from.
const MAX_LINKS = 5_000;
// A subscriber this far behind on its socket is not reading: it is cut off and resumes with Last-Event-ID.
const MAX_BUFFERED_BYTES = 1024 * 1024;
// Timers longer than this fire at once in Node; a token living longer is checked again at this point.
const MAX_TIMER_MS = 2 ** 31 - 1;
// An announcement is a few short fields: anything longer is not one.
const MAX_EDIT_BYTES = 4096;
// Notes whose last edit is kept, far above a clinic's weeks of edited notes; the oldest go first.
const MAX_KEPT_EDITS = 20_000;

export interface RelayOptions {
  /** The service's scribing address, where `GET /users/me` answers who a token is. */
  scribeUrl: string;
  /** The organization served; when absent, the first a verified delivery names. */
  organization?: string | null;
  heartbeatMs?: number;
  /** Told when the organization is learned from a delivery. */
  onOrganization?: (organization: string) => void;
}

class RelayError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export class Relay {
  organization: string | null;
  private readonly feed: RelayFeed;
  private readonly auth: RelayAuth;
  private readonly heartbeatMs: number;
  private readonly onOrganization: (organization: string) => void;
  private readonly now: () => number;
  private readonly streams = new Set<ServerResponse>();
  /**
   * The last edit announced of each note, oldest first. Kept by this process only (not in the
   * store): an edit is a courtesy to the other rooms, not a delivery, and a restart forgets it.
   */
  private readonly edits = new Map<string, RelayEdit>();
  private readonly editListeners = new Set<(edit: RelayEdit) => void>();

  constructor(feed: RelayFeed, options: RelayOptions, now: () => number = Date.now) {
    this.feed = feed;
    this.organization = options.organization || null;
    this.auth = new RelayAuth(options.scribeUrl, now);
    this.heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    this.onOrganization = options.onOrganization ?? (() => {});
    this.now = now;
  }

  /** A verified delivery that names its organization sets it, when none was given. */
  learn(payload: unknown): void {
    if (this.organization !== null || typeof payload !== 'object' || payload === null) return;
    const named = (payload as Record<string, unknown>)['organization_public_id'];
    if (typeof named !== 'string' || named === '') return;
    this.organization = named;
    this.onOrganization(named);
  }

  async serve(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    try {
      if (path === '/edits') return await this.announce(req, res);
      if (req.method !== 'GET') {
        res.setHeader('allow', 'GET');
        throw new RelayError(
          405,
          'method_not_allowed',
          `${req.method ?? 'this method'} is not allowed on ${path}; use GET`,
        );
      }
      if (path === '/health') return sendJson(res, 200, { ok: true, relay: true, organization: this.organization });
      const url = new URL(req.url ?? '/', 'http://relay');
      const token = RelayAuth.bearer(req.headers.authorization);
      const subscriber = await this.admit(token);
      if (path === '/links') return await this.links(res, url);
      await this.stream(req, res, url, token, subscriber);
    } catch (error) {
      const known =
        error instanceof RelayError || error instanceof RelayAuthError
          ? error
          : new RelayError(500, 'internal_error', 'the relay failed to answer');
      if (res.headersSent || res.destroyed) return void res.end();
      sendJson(res, known.status, { error: { code: known.code, message: known.message } });
    }
  }

  /** Ends every stream, for a receiver that stops: the apps resume elsewhere with Last-Event-ID. */
  close(): void {
    for (const res of this.streams) res.end();
  }

  private async admit(token: string): Promise<Subscriber> {
    const subscriber = await this.auth.who(token);
    if (this.organization === null)
      throw new RelayError(
        503,
        'organization_unknown',
        'this relay does not know its organization yet: its operator gives it with --organization',
      );
    if (subscriber.organization !== this.organization)
      throw new RelayError(403, 'forbidden', "this relay serves another organization's clinic");
    return subscriber;
  }

  /**
   * POST /edits: a PC of the organization announces an edit, with the same token and the same
   * organization check as a subscription. Every field is checked, and a body with any other
   * field (a note's text) is refused, so nothing but who, where and when is ever passed on.
   */
  private async announce(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      throw new RelayError(
        405,
        'method_not_allowed',
        `${req.method ?? 'this method'} is not allowed on /edits; use POST`,
      );
    }
    await this.admit(RelayAuth.bearer(req.headers.authorization));
    const text = await readSmallBody(req, MAX_EDIT_BYTES);
    let body: unknown;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      throw new RelayError(400, 'bad_request', 'the body of POST /edits is not JSON');
    }
    const parsed = relayEditSchema.safeParse(body);
    if (!parsed.success)
      throw new RelayError(400, 'bad_request', `not an edit: ${relayEditProblem(parsed.error).slice(0, 400)}`);
    const edit = parsed.data;
    const kept = this.edits.get(edit.public_id);
    // Announcements can cross on their way: an older edit does not replace a newer one.
    if (!kept || Date.parse(kept.edited_at) <= Date.parse(edit.edited_at)) {
      this.edits.delete(edit.public_id);
      this.edits.set(edit.public_id, edit);
      if (this.edits.size > MAX_KEPT_EDITS) this.edits.delete(this.edits.keys().next().value as string);
      for (const listener of this.editListeners) listener(edit);
    }
    sendJson(res, 202, { accepted: true });
  }

  private async links(res: ServerResponse, url: URL): Promise<void> {
    const since = eventId(url.searchParams.get('since'), 'since') ?? 0;
    const links: RelayEvent[] = [];
    let lastId = since;
    let examined = 0;
    while (examined < MAX_LINKS) {
      const page = await this.feed.after(lastId, Math.min(PAGE, MAX_LINKS - examined));
      for (const event of page) if (event.recording_session_public_id !== null) links.push(event);
      examined += page.length;
      lastId = page.at(-1)?.id ?? lastId;
      if (page.length < PAGE) break;
    }
    // Past MAX_LINKS, last_id is where the next ask goes on from; else it is the newest id, so a
    // PC that asks again later with it as `since` misses nothing and repeats nothing.
    if (examined < MAX_LINKS) lastId = Math.max(lastId, await this.feed.lastId());
    sendJson(res, 200, { links, last_id: lastId });
  }

  private async stream(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    token: string,
    subscriber: Subscriber,
  ): Promise<void> {
    const header = req.headers['last-event-id'];
    const resume =
      eventId(typeof header === 'string' ? header : null, 'Last-Event-ID') ??
      eventId(url.searchParams.get('lastEventId'), 'lastEventId');
    // Live events are listened for before the store is read, and held until the catch-up is
    // sent: an event recorded in between is in one or the other, and ids drop the overlap.
    const held: RelayEvent[] = [];
    let live = false;
    let sent = 0;
    const send = (event: RelayEvent): void => {
      if (event.id <= sent || res.destroyed) return;
      sent = event.id;
      res.write(`id: ${event.id}\nevent: scribe\ndata: ${JSON.stringify(event)}\n\n`);
      if (res.writableLength > MAX_BUFFERED_BYTES) res.destroy();
    };
    const unlisten = this.feed.listen((event) => (live ? send(event) : held.push(event)));
    // Edits carry no id: each is sent as it comes once the stream is open, and the kept ones
    // first, so a PC that was off hears the last edit of every note.
    let editsOpen = false;
    const sendEdit = (edit: RelayEdit): void => {
      if (!editsOpen || res.destroyed) return;
      res.write(`event: edit\ndata: ${JSON.stringify(edit)}\n\n`);
      if (res.writableLength > MAX_BUFFERED_BYTES) res.destroy();
    };
    this.editListeners.add(sendEdit);
    const timers: NodeJS.Timeout[] = [];
    const done = (): void => {
      unlisten();
      this.editListeners.delete(sendEdit);
      for (const timer of timers) clearTimeout(timer);
      this.streams.delete(res);
    };
    res.on('close', done);
    try {
      const lastId = await this.feed.lastId();
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        // Proxies that buffer answers (nginx) would hold events back.
        'x-accel-buffering': 'no',
      });
      this.streams.add(res);
      res.write(
        `event: ready\ndata: ${JSON.stringify({ organization: subscriber.organization, last_id: lastId })}\n\n`,
      );
      if (resume === null) sent = lastId;
      else {
        // An id above any this relay gave was given by an earlier run kept in memory, whose ids
        // started again at 1 when it restarted: every event of this run is new to the PC.
        sent = resume > lastId ? 0 : resume;
        for (;;) {
          const page = await this.feed.after(sent, PAGE);
          for (const event of page) send(event);
          if (page.length < PAGE || res.destroyed) break;
        }
      }
      live = true;
      for (const event of held.splice(0)) send(event);
      editsOpen = true;
      for (const edit of [...this.edits.values()]) sendEdit(edit);
    } catch (error) {
      done();
      throw error;
    }
    // The PC may have gone while the catch-up was read: nothing is left to watch.
    if (res.destroyed) return done();
    timers.push(setInterval(() => res.write(': keep-alive\n\n'), this.heartbeatMs));
    this.watchToken(res, token, subscriber, timers);
  }

  // A JWT says when it lapses; any other token is asked about again each time its answer is no
  // longer kept, and the stream ends once the service refuses it.
  private watchToken(res: ServerResponse, token: string, subscriber: Subscriber, timers: NodeJS.Timeout[]): void {
    const lapse = (): void => {
      res.end(
        `event: token-expired\ndata: ${JSON.stringify({ message: 'the access token has expired: refresh it and subscribe again' })}\n\n`,
      );
    };
    const check = (): void => {
      if (res.destroyed) return;
      if (subscriber.expiresAt !== null && subscriber.expiresAt <= this.now()) return lapse();
      const wait = subscriber.expiresAt !== null ? subscriber.expiresAt - this.now() : 5 * 60_000;
      timers.push(
        setTimeout(
          () => {
            if (subscriber.expiresAt !== null) return check();
            this.auth.forget(token);
            this.auth.who(token).then(
              () => check(),
              (error: unknown) => (error instanceof RelayAuthError && error.status === 401 ? lapse() : check()),
            );
          },
          Math.min(Math.max(wait, 0), MAX_TIMER_MS),
        ),
      );
    };
    check();
  }
}

/** A relay event id from a header or a query, null when absent; a 400 when it is not one. */
function eventId(text: string | null, name: string): number | null {
  if (text === null || text.trim() === '') return null;
  if (!/^\d{1,15}$/.test(text.trim()))
    throw new RelayError(
      400,
      'bad_request',
      `${name} must be a relay event id (a whole number), not "${text.slice(0, 40)}"`,
    );
  return Number(text.trim());
}

/** A request's body as text, refused (413) past `max` bytes. */
async function readSmallBody(req: IncomingMessage, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw new RelayError(413, 'payload_too_large', `an edit is at most ${max} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
