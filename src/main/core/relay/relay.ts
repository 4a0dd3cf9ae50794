// The app's side of the clinic relay: one subscription to the relay's GET /events with the
// access token of the vet in front (the session's, never logged, never sent to the window), kept
// alive for as long as an address is set and someone is signed in. It resumes after a drop with
// Last-Event-ID, so no event is missed and none is passed on twice; it subscribes again with a
// refreshed token when the relay says the token lapsed; it counts a relay that sends nothing for
// two heartbeats as gone (a connection can stay open with no one behind it) and tries again with
// backoff. Its state is told as it changes, so the pipeline polls as usual the moment the relay
// is not there, and the window says which it is. Edits of notes are announced and heard through
// it too (edits.ts keeps them). Over 400 lines: GET /events, GET /links and POST /edits share the
// way to the relay, the token's handling and the reading of its answers, kept in one place.
import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import type { EditedElsewhere } from '../../../shared/clinic.ts';
import type { RelayState, RelayStatus } from '../../../shared/relay.ts';
import { relayEditSchema, type RelayEdit } from '../../../shared/relay-edits.ts';
import { backoffDelay, type BackoffOptions } from '../platform/index.ts';
import { ServiceError, type Network } from '../service/index.ts';
import {
  ActorAwayError,
  SessionChangedError,
  SignedOutError,
  type Actor,
  type Actors,
  type Session,
} from '../sign-in/index.ts';
import { RelayEdits } from './edits.ts';
import { EventStreamReader } from './event-stream.ts';
import { RelayLinksFiles } from './links-file.ts';
import { RelayPairs } from './pairs.ts';
import { proxyAnswer, relayWay, wayFailure } from './way.ts';
import {
  linksSchema,
  readySchema,
  refusalMessage,
  relayEventSchema,
  type RelayEvent,
  type RelayLink,
} from './messages.ts';

export interface RelayOptions {
  /** The relay's address as set (settings `relayUrl`); '' = none. */
  address: () => string;
  /** The sign-in in front: whose token subscribes. */
  session: Session;
  /** The relay's heartbeat; nothing heard for two of them is a relay gone quiet. Default 15 s. */
  heartbeatMs?: number;
  /** Waits between tries after a failure. Default 1 s doubling to 30 s. */
  backoff?: BackoffOptions;
  /** How long to wait for the relay's answer to a request. Default 10 s. */
  answerTimeoutMs?: number;
  /**
   * How long a refusal stands before it is asked again (the vet or the address changing asks at
   * once). Default 5 min: a 401 refreshes the vet's token, which is not to be done every few seconds.
   */
  refusedRetryMs?: number;
  /**
   * The app's network (the computer's proxy, the clinic's roots of trust), the service client's
   * own: the relay is reached as the service is (way.ts). Absent: straight to it, Node's roots.
   */
  network?: Pick<Network, 'route' | 'dispatcher'>;
  /** The app's data folder: the pairs and the last link id read are kept in it (links-file.ts). Absent: in memory only. */
  dataDir?: string;
  /** Whose sign-in announces an edit: the vet who made it (edits.ts). Absent: the sign-in in front. */
  actors?: Pick<Actors, 'withToken'>;
  /**
   * This computer's name in an announced edit ("Exam room 1"), or how to read it at each save (the
   * name set in Settings). Default, and when it reads empty: the computer's host name.
   */
  computerName?: string | (() => string);
  /** Saves of one note closer together than this are announced once. Default 2 s. */
  editDebounceMs?: number;
  log?: (line: string) => void;
}

export interface RelayEvents {
  status: [RelayStatus];
  event: [RelayEvent];
  /** An edit of a note of the organization, announced by the PC it was made on, heard and kept. */
  edited: [RelayEdit & { organization: string }];
}

/** The relay answered, but not to this vet: said in its words, and tried again only after a while. */
class RelayRefused extends Error {}
/** The relay could not be used this time (down, quiet, not a relay): polling goes on as usual. */
class RelayUnreachable extends Error {}

const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1000, capMs: 30_000 };

export class Relay extends EventEmitter<RelayEvents> {
  private readonly options: RelayOptions;
  private state: RelayState = { state: 'off' };
  /** The last event passed on, for Last-Event-ID; kept per relay address and organization. */
  private lastId: number | null = null;
  private lastOf: string | null = null;
  /** Aborted to drop the connection (or the wait) and look again at the address and the vet. */
  private cycle = new AbortController();
  /** Each scribe's recording session, as the relay's events and links name it. */
  private readonly known: RelayPairs;
  /** Edits announced and heard (edits.ts). */
  private readonly edits: RelayEdits;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(options: RelayOptions) {
    super();
    this.options = options;
    this.known = new RelayPairs({
      files: options.dataDir ? new RelayLinksFiles(join(options.dataDir, 'relay')) : null,
      ...(options.log ? { log: options.log } : {}),
    });
    this.edits = new RelayEdits({
      files: options.dataDir ? new RelayLinksFiles(join(options.dataDir, 'relay')) : null,
      send: (actor, edit) => this.announce(actor, edit),
      computerName: () => {
        const name = typeof options.computerName === 'function' ? options.computerName() : options.computerName;
        return (name?.trim() || hostname()).trim().slice(0, 80) || 'another PC';
      },
      debounceMs: options.editDebounceMs ?? 2000,
      log: options.log ?? (() => undefined),
    });
  }

  /** The vet (`actor`) saved their edit of note `scribeId`: the other rooms are told, once the saves settle. */
  editSaved(actor: Actor, scribeId: string): void {
    if (this.options.address()) this.edits.saved(actor, scribeId);
  }

  /** The last edit another room announced of note `scribeId`, of `organizationId`; null when none was heard. */
  editOf(organizationId: string, scribeId: string): Promise<EditedElsewhere | null> {
    const address = this.options.address();
    return address ? this.edits.find(address, organizationId, scribeId) : Promise.resolve(null);
  }

  status(): RelayStatus {
    return { ...this.state, address: this.options.address() };
  }

  /** Whether a note can be counted on to be announced by the relay now. */
  live(): boolean {
    return this.state.state === 'connected';
  }

  start(): void {
    this.stopped = false;
    this.running ??= this.loop().finally(() => {
      this.running = null;
    });
  }

  /** The address or the vet in front changed: the connection is dropped and made again now. */
  restart(): void {
    this.cycle.abort();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.edits.stop();
    this.cycle.abort();
    await this.running;
  }

  /**
   * `GET /links?since=`: the relay's pairs of a recording session and its note after `since`,
   * asked with the sign-in of `userId` (a refresh of the clinic's list is that vet's).
   */
  async links(userId: string, since: number): Promise<{ links: RelayLink[]; lastId: number }> {
    const address = this.options.address();
    if (!address) return { links: [], lastId: since };
    const url = new URL('links', withSlash(address));
    url.searchParams.set('since', String(since));
    const way = await relayWay(this.options.network, url);
    return this.options.session.withToken(
      async (token) => {
        const answer = await request(url, {
          method: 'GET',
          headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
          headersTimeout: this.timeout(),
          bodyTimeout: this.timeout(),
          ...way.options,
        }).catch((e: unknown) => {
          const words = wayFailure(e, url, way.route);
          throw words ? new RelayUnreachable(words) : e;
        });
        const body = await answer.body.text();
        if (answer.statusCode === 401)
          throw new ServiceError('http', 'relay-links', refusalMessage(body, 401), { status: 401 });
        if (answer.statusCode !== 200)
          throw new Error(
            proxyAnswer(answer.statusCode, url, way.route) ??
              `The clinic relay refused GET /links: ${refusalMessage(body, answer.statusCode)}`,
          );
        const parsed = linksSchema.safeParse(safeJson(body));
        if (!parsed.success)
          throw new Error('The clinic relay answered GET /links with something that is not a list of links.');
        return { links: parsed.data.links, lastId: parsed.data.last_id };
      },
      { as: userId },
    );
  }

  /**
   * Every scribe's recording session the relay has named, brought up to date with its
   * GET /links (with the sign-in of `userId`, of `organizationId`; pairs.ts): the clinic's list
   * puts a note of another room under its patient with them.
   */
  pairs(userId: string, organizationId: string): Promise<ReadonlyMap<string, string>> {
    return this.known.read(this.options.address(), organizationId, (since) => this.links(userId, since));
  }

  /**
   * POST /edits, with the sign-in of the vet who made the edit while this computer keeps it; else
   * (they left and nothing of theirs is on its way) with the one in front, when it is of the
   * same organization: the announcement names the editor either way, never the sender.
   */
  private async announce(actor: Actor, edit: RelayEdit): Promise<void> {
    const address = this.options.address();
    if (!address) return;
    const url = new URL('edits', withSlash(address));
    const way = await relayWay(this.options.network, url);
    const post = async (token: string): Promise<void> => {
      const answer = await request(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(edit),
        headersTimeout: this.timeout(),
        bodyTimeout: this.timeout(),
        ...way.options,
      });
      const body = await answer.body.text();
      if (answer.statusCode === 401)
        throw new ServiceError('http', 'relay-edits', refusalMessage(body, 401), { status: 401 });
      if (answer.statusCode !== 202)
        throw new Error(
          proxyAnswer(answer.statusCode, url, way.route) ??
            `The clinic relay refused POST /edits: ${refusalMessage(body, answer.statusCode)}`,
        );
    };
    const { actors, session } = this.options;
    try {
      if (!actors) throw new ActorAwayError(actor);
      await actors.withToken(actor, post, { inFlight: true });
    } catch (e) {
      if (!(e instanceof ActorAwayError)) throw e;
      const front = session.state();
      if (!front.signedIn || front.user?.organizationId !== actor.organizationId) throw e;
      await session.withToken(post, { as: front.user.id });
    }
  }

  private timeout(): number {
    return this.options.answerTimeoutMs ?? 10_000;
  }

  private set(state: RelayState): void {
    const before = JSON.stringify(this.state);
    this.state = state;
    if (JSON.stringify(state) !== before) this.emit('status', this.status());
  }

  private async loop(): Promise<void> {
    let attempt = 0;
    let lastLapse = 0;
    while (!this.stopped) {
      this.cycle = new AbortController();
      const { signal } = this.cycle;
      const address = this.options.address();
      const signedIn = this.options.session.state();
      if (!address) {
        this.set({ state: 'off' });
        await waitFor(signal);
        continue;
      }
      if (!signedIn.signedIn || !signedIn.user) {
        this.set({ state: 'signed-out' });
        await waitFor(signal);
        continue;
      }
      // A relay being tried again stays "not reachable" (polling as usual) until it answers.
      if (['off', 'signed-out', 'refused'].includes(this.state.state)) this.set({ state: 'connecting' });
      let wait: number;
      try {
        const lapsed = await this.options.session.withToken((token) => this.listen(address, token, signal), {
          as: signedIn.user.id,
          signal,
        });
        if (lapsed !== null) {
          // The relay says the token lapsed: a fresh one (the session's one refresh at a time),
          // then at once again; but a relay that says so again within a minute (its clock and
          // the service's apart) is asked with backoff, not in a loop of refreshes.
          const again = Date.now() - lastLapse < 60_000;
          lastLapse = Date.now();
          await this.options.session.refresh(lapsed);
          if (!again) {
            attempt = 0;
            continue;
          }
          await sleep(backoffDelay(attempt++, this.options.backoff ?? DEFAULT_BACKOFF), undefined, { signal }).catch(
            () => {},
          );
          continue;
        }
        this.set({ state: 'unreachable', message: 'The clinic relay closed the connection.' });
        wait = backoffDelay(attempt++, this.options.backoff ?? DEFAULT_BACKOFF);
      } catch (e) {
        if (signal.aborted || this.stopped) continue;
        if (e instanceof SessionChangedError || e instanceof SignedOutError) continue;
        const refused = e instanceof RelayRefused || (e instanceof ServiceError && e.unauthorized);
        const message = (e as Error).message;
        this.set(refused ? { state: 'refused', message } : { state: 'unreachable', message });
        this.options.log?.(`relay: ${refused ? 'refused' : 'not reachable'}: ${message}`);
        // A refusal stays a refusal until something changes: asked again only after a while.
        wait = refused
          ? (this.options.refusedRetryMs ?? 5 * 60_000)
          : backoffDelay(attempt++, this.options.backoff ?? DEFAULT_BACKOFF);
      }
      await sleep(wait, undefined, { signal }).catch(() => {});
    }
  }

  /**
   * One subscription, until it ends: null when the relay closed it or it went quiet (thrown),
   * or the token the relay said had lapsed.
   */
  private async listen(address: string, token: string, cycle: AbortSignal): Promise<string | null> {
    const quietMs = 2 * (this.options.heartbeatMs ?? 15_000);
    const stop = new AbortController();
    const signal = AbortSignal.any([cycle, stop.signal]);
    let quiet: NodeJS.Timeout | undefined;
    let wentQuiet = false;
    const heard = () => {
      clearTimeout(quiet);
      quiet = setTimeout(() => {
        wentQuiet = true;
        stop.abort();
      }, quietMs);
    };
    const key = `${address}`;
    if (this.lastOf !== key) {
      this.lastId = null;
      this.lastOf = key;
    }
    const url = new URL('events', withSlash(address));
    try {
      heard();
      const way = await relayWay(this.options.network, url);
      const answer = await request(url, {
        method: 'GET',
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'text/event-stream',
          ...(this.lastId === null ? {} : { 'last-event-id': String(this.lastId) }),
        },
        signal,
        headersTimeout: Math.min(quietMs, this.timeout()),
        bodyTimeout: 0,
        ...way.options,
      }).catch((e: unknown) => {
        if (wentQuiet) throw new RelayUnreachable(`The clinic relay did not answer within ${quietMs / 1000} s.`);
        const words = signal.aborted ? null : wayFailure(e, url, way.route);
        throw words ? new RelayUnreachable(words) : e;
      });
      if (answer.statusCode !== 200) {
        const body = await answer.body.text().catch(() => '');
        const byProxy = proxyAnswer(answer.statusCode, url, way.route);
        if (byProxy) throw new RelayUnreachable(byProxy);
        const message = refusalMessage(body, answer.statusCode);
        if (answer.statusCode === 401) throw new ServiceError('http', 'relay-events', message, { status: 401 });
        if (answer.statusCode === 403) throw new RelayRefused(message);
        if (answer.statusCode === 503)
          throw new RelayUnreachable(`The clinic relay cannot reach the service (${message}).`);
        throw new RelayUnreachable(`The clinic relay answered HTTP ${answer.statusCode}: ${message}`);
      }
      const type = String(answer.headers['content-type'] ?? '');
      if (!type.startsWith('text/event-stream')) {
        answer.body.destroy();
        throw new RelayUnreachable('That address is not a clinic relay: it did not answer with an event stream.');
      }
      const reader = new EventStreamReader();
      try {
        for await (const chunk of answer.body as AsyncIterable<Buffer>) {
          heard();
          for (const event of reader.push(chunk)) {
            const lapsed = this.handle(event.event, event.data);
            if (lapsed) {
              answer.body.destroy();
              return token;
            }
          }
        }
      } catch (e) {
        if (wentQuiet) throw new RelayUnreachable(`The clinic relay sent nothing for ${quietMs / 1000} s.`);
        throw e;
      }
      return null;
    } finally {
      clearTimeout(quiet);
    }
  }

  /** One event of the stream; true when it says the token lapsed. */
  private handle(name: string, data: string): boolean {
    if (name === 'token-expired') return true;
    if (name === 'ready') {
      const ready = readySchema.safeParse(safeJson(data));
      if (!ready.success) throw new RelayUnreachable('The clinic relay sent a ready event this app cannot read.');
      // A relay that starts its ids again (its store was wiped) would leave every new event
      // below the last id kept: its own count is taken instead.
      if (this.lastId !== null && ready.data.last_id < this.lastId) this.lastId = ready.data.last_id;
      // The first subscription starts where the relay is: a drop after it resumes from there, so
      // what comes while this computer reconnects is not missed.
      this.lastId ??= ready.data.last_id;
      this.set({ state: 'connected', organization: ready.data.organization });
      this.edits.resend();
      return false;
    }
    if (name === 'edit') {
      const edit = relayEditSchema.safeParse(safeJson(data));
      if (!edit.success) this.options.log?.('relay: an edit that is not what the relay sends was left out');
      else if (this.state.state === 'connected') {
        const organization = this.state.organization;
        void this.edits
          .heard(this.options.address(), organization, edit.data)
          .then(() => this.emit('edited', { ...edit.data, organization }));
      }
      return false;
    }
    if (name !== 'scribe') return false;
    const event = relayEventSchema.safeParse(safeJson(data));
    if (!event.success) {
      this.options.log?.('relay: an event that is not what the relay sends was left out');
      return false;
    }
    if (this.lastId !== null && event.data.id <= this.lastId) return false;
    this.lastId = event.data.id;
    if (event.data.recording_session_public_id !== null && this.state.state === 'connected') {
      this.known.heard(
        this.options.address(),
        this.state.organization,
        event.data.public_id,
        event.data.recording_session_public_id,
      );
    }
    this.emit('event', event.data);
    return false;
  }
}

function withSlash(address: string): string {
  return address.endsWith('/') ? address : `${address}/`;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Resolves when the signal aborts: a wait for the address or the vet to change. */
function waitFor(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
