// One Provet instance under `/provet/<provet_id>/` on the sandbox's origin: its OAuth endpoints,
// its REST API under `api/0.1/` (every path ends in a slash, as Provet's do; a path without it
// is redirected there, as Django does), the rate limits, and one route of the double's own for
// the tests, `sandbox-control/`, which Provet does not have.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CONSULTATION_STATUS, CONSULTATION_STATUSES, DEPARTMENT, ProvetData, type ProvetNote } from './data.ts';
import { FilterError, readFilters } from './filters.ts';
import { DEFAULT_LIMITS, RollingLimits, type LimitedEndpoint } from './limits.ts';
import { Notes, type NoteFault } from './notes.ts';
import { ProvetOAuth, type Caller } from './oauth.ts';
import { SavedState } from './saved.ts';
import {
  NOTE_FILTERS,
  noteJson,
  RESOURCES,
  type Context,
  type Json,
  type Resource,
  type ResourceName,
} from './resources.ts';
import { detail, fieldErrors, ProvetError, readJsonObject, redirect, sendJson, sendThenDrop } from './wire.ts';

export const PROVET_ID = '4321';
export const PROVET_PREFIX = `/provet/${PROVET_ID}`;

/** What the double reads of the sandbox's options, at each request. */
export interface ProvetSettings {
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
  /** Every endpoint's budget a minute; null = each endpoint's own (`DEFAULT_LIMITS`); 0 = none. */
  rateLimitPerMinute: number | null;
  noteFault: NoteFault;
  tokenLog: string | null;
}

/** The page size of a list when none is asked, and the most a page holds. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

type Params = string[];
type Handle = (req: IncomingMessage, res: ServerResponse, url: URL, params: Params) => Promise<void> | void;
interface Route {
  pattern: RegExp;
  methods: Record<string, Handle>;
}

export class ProvetInstance {
  readonly data: ProvetData;
  readonly oauth: ProvetOAuth;
  readonly notes: Notes;
  /** Requests per route, as `METHOD path` with ids as `{id}`, for tests and benchmarks to count. */
  readonly requests: Record<string, number> = {};
  private readonly limits: RollingLimits;
  private readonly settings: () => ProvetSettings;
  private readonly origin: () => string;
  private readonly routes: Route[];
  private readonly saved: SavedState;

  /**
   * With a data folder, the day's records and the sign-ins (as digests) outlive a restart; a
   * saved day other than today gives back its sign-ins only.
   */
  constructor(settings: () => ProvetSettings, origin: () => string, dataDir: string | null = null, now = Date.now()) {
    this.settings = settings;
    this.origin = origin;
    this.data = new ProvetData(now);
    this.oauth = new ProvetOAuth(this.data, settings);
    this.saved = new SavedState(dataDir);
    const saved = this.saved.load();
    if (saved) {
      this.oauth.tokens.restore(saved.oauth);
      this.data.restore(saved.data);
    }
    this.save();
    this.notes = new Notes(this.data, () => settings().noteFault);
    this.limits = new RollingLimits((endpoint) => settings().rateLimitPerMinute ?? DEFAULT_LIMITS[endpoint]);
    const resource = Object.keys(RESOURCES).join('|');
    this.routes = [
      {
        pattern: /^oauth2\/authorize\/$/,
        methods: {
          GET: (_req, res, url) => this.oauth.authorizePage(res, url, this.name),
          POST: (req, res) => this.oauth.authorizeSubmit(req, res, this.name),
        },
      },
      { pattern: /^oauth2\/token\/$/, methods: { POST: (req, res) => this.oauth.token(req, res) } },
      { pattern: /^oauth2\/revoke_token\/$/, methods: { POST: (req, res) => this.oauth.revoke(req, res) } },
      {
        pattern: /^oauth2\/userinfo\/$/,
        methods: {
          GET: (req, res) => this.oauth.userinfo(req, res),
          POST: (req, res) => this.oauth.userinfo(req, res),
        },
      },
      {
        pattern: new RegExp(`^api/0\\.1/(${resource})/$`),
        methods: { GET: (req, res, url, [name]) => this.list(req, res, url, name as ResourceName) },
      },
      {
        pattern: new RegExp(`^api/0\\.1/(${resource})/(\\d+)/$`),
        methods: { GET: (req, res, url, [name, id]) => this.one(req, res, url, name as ResourceName, Number(id)) },
      },
      {
        pattern: /^api\/0\.1\/consultation\/(\d+)\/update_status\/$/,
        methods: { POST: (req, res, url, [id]) => this.updateStatus(req, res, url, Number(id)) },
      },
      {
        pattern: /^api\/0\.1\/consultation\/(\d+)\/consultationnote\/$/,
        methods: {
          GET: (req, res, url, [id]) => this.noteList(req, res, url, Number(id)),
          POST: (req, res, url, [id]) => this.noteWrite(req, res, url, Number(id), null, 'POST'),
        },
      },
      {
        pattern: /^api\/0\.1\/consultation\/(\d+)\/consultationnote\/(\d+)\/$/,
        methods: Object.fromEntries(
          (['GET', 'PUT', 'PATCH', 'DELETE'] as const).map((method) => [
            method,
            (req: IncomingMessage, res: ServerResponse, url: URL, [id, noteId]: Params) =>
              this.noteWrite(req, res, url, Number(id), Number(noteId), method),
          ]),
        ),
      },
      {
        pattern: /^sandbox-control\/appointment\/(\d+)\/check_in\/$/,
        methods: { POST: (_req, res, url, [id]) => this.checkInRoute(res, url, Number(id)) },
      },
      {
        // Every clinical note the double holds, as stored: what an end-to-end spec checks the
        // app wrote (Provet's own list needs a consultation and a signed-in user).
        pattern: /^sandbox-control\/notes\/$/,
        methods: { GET: (_req, res) => sendJson(res, 200, { results: this.data.notes }) },
      },
    ];
  }

  /** The instance's address, as a clinic's IT would type it: `<origin>/provet/<provet_id>`. */
  get address(): string {
    return `${this.origin()}${PROVET_PREFIX}`;
  }

  private get name(): string {
    return `Provet Cloud instance ${PROVET_ID} (${DEPARTMENT.name})`;
  }

  /** Answers a request whose path starts with `/provet/`. */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    try {
      if (!url.pathname.startsWith(`${PROVET_PREFIX}/`)) throw detail(404, 'Not found.');
      const rest = url.pathname.slice(PROVET_PREFIX.length + 1);
      const found = this.match(rest);
      if (!found) {
        // Django's APPEND_SLASH: a known path without its slash is sent to the one with it.
        if (!rest.endsWith('/') && this.match(`${rest}/`)) {
          redirect(res, `${url.pathname}/${url.search}`, 301);
          return;
        }
        throw detail(404, 'Not found.');
      }
      // Counted by path with each id as {id}: `POST api/0.1/consultation/{id}/consultationnote/`.
      const key = `${method} ${rest.replace(/(?<=\/)\d+(?=\/)/g, '{id}')}`;
      this.requests[key] = (this.requests[key] ?? 0) + 1;
      const handler = found.route.methods[method];
      if (!handler) {
        const allow = Object.keys(found.route.methods).join(', ');
        throw detail(405, `Method "${method}" not allowed.`, { Allow: allow });
      }
      try {
        await handler(req, res, url, found.params);
      } finally {
        if (method !== 'GET') this.save();
      }
    } catch (e) {
      const error = e instanceof ProvetError ? e : detail(500, `The Provet double failed: ${(e as Error).message}`);
      if (res.headersSent) {
        res.socket?.destroy();
        return;
      }
      if (!req.complete) req.resume();
      sendJson(res, error.status, error.body, error.headers);
    }
  }

  /** Checks an appointment's patients in (its consultation made, status 0); null for no such appointment. */
  checkIn(appointmentId: number) {
    const consultation = this.data.checkIn(appointmentId, Date.now());
    this.save();
    return consultation;
  }

  /** Moves an appointment to another time or onto other pets, as the front desk would; false when there is none. */
  moveAppointment(appointmentId: number, change: { start?: number; patients?: number[] }): boolean {
    const moved = this.data.moveAppointment(appointmentId, change) !== null;
    this.save();
    return moved;
  }

  /** Why the double's state is not being kept on disk, if it is not. */
  get saveProblem(): string | null {
    return this.saved.problem;
  }

  private save(): void {
    this.saved.save({ version: 1, data: this.data.snapshot(), oauth: this.oauth.tokens.snapshot() });
  }

  private match(rest: string): { route: Route; params: Params } | null {
    for (const route of this.routes) {
      const m = route.pattern.exec(rest);
      if (m) return { route, params: m.slice(1) };
    }
    return null;
  }

  private context(url: URL): Context {
    const expose = new Set(
      [...url.searchParams.keys()].filter((k) => k.startsWith('expose_')).map((k) => k.slice('expose_'.length)),
    );
    return { api: `${this.address}/api/0.1/`, data: this.data, expose };
  }

  /** The caller, then their budget on the endpoint (a big page costs as many default pages). */
  private admit(req: IncomingMessage, endpoint: LimitedEndpoint, cost = 1): Caller {
    const caller = this.oauth.authenticate(req);
    // Provet counts per API user: a refreshed token does not start a new budget.
    const wait = this.limits.take(String(caller.user.id), endpoint, cost);
    if (wait !== null)
      throw detail(429, `Request was throttled. Expected available in ${wait} seconds.`, {
        'Retry-After': String(wait),
      });
    return caller;
  }

  private paged<T>(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    endpoint: LimitedEndpoint,
    all: T[],
    json: (r: T) => Json,
  ) {
    const asked = Number(url.searchParams.get('page_size'));
    // DRF keeps the default for a page size that does not read, and caps one too big.
    const size = Number.isInteger(asked) && asked > 0 ? Math.min(asked, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
    this.admit(req, endpoint, Math.ceil(size / DEFAULT_PAGE_SIZE));
    const rawPage = url.searchParams.get('page') ?? '1';
    const page = /^\d+$/.test(rawPage) ? Number(rawPage) : NaN;
    const pages = Math.max(1, Math.ceil(all.length / size));
    if (!(page >= 1 && page <= pages)) throw detail(404, 'Invalid page.');
    const at = (n: number | null) => {
      if (n === null) return null;
      const link = new URL(`${this.origin()}${url.pathname}${url.search}`);
      if (n === 1) link.searchParams.delete('page');
      else link.searchParams.set('page', String(n));
      return link.href;
    };
    sendJson(res, 200, {
      count: all.length,
      num_pages: pages,
      next: at(page < pages ? page + 1 : null),
      previous: at(page > 1 ? page - 1 : null),
      results: all.slice((page - 1) * size, page * size).map(json),
    });
  }

  private list(req: IncomingMessage, res: ServerResponse, url: URL, name: ResourceName): void {
    const resource = resourceNamed(name);
    const ctx = this.context(url);
    let test: (r: { id: number }) => boolean;
    try {
      test = readFilters(url.searchParams, resource.filters);
    } catch (e) {
      // The caller is asked for first, so a refused filter still needs a token.
      this.oauth.authenticate(req);
      if (e instanceof FilterError) throw fieldErrors({ [e.parameter]: [e.message] });
      throw e;
    }
    const all = [...resource.records(this.data)].filter(test).sort((a, b) => a.id - b.id);
    this.paged(req, res, url, `${name}-list` as const, all, (r) => resource.serialize(r, ctx));
  }

  private one(req: IncomingMessage, res: ServerResponse, url: URL, name: ResourceName, id: number): void {
    this.admit(req, `${name}-detail` as const);
    const resource = resourceNamed(name);
    const record = resource.records(this.data).find((r) => r.id === id);
    if (!record) throw detail(404, 'Not found.');
    sendJson(res, 200, resource.serialize(record, this.context(url)));
  }

  /** POST consultation/{id}/update_status/ with `{status}`: the one way a status changes. */
  private async updateStatus(req: IncomingMessage, res: ServerResponse, url: URL, id: number): Promise<void> {
    this.admit(req, 'consultation-update-status');
    const consultation = this.notes.consultation(id);
    const body = await readJsonObject(req);
    const status = body['status'];
    if (status === undefined) throw fieldErrors({ status: ['This field is required.'] });
    if (typeof status !== 'number' || !CONSULTATION_STATUSES.includes(status))
      throw fieldErrors({ status: [`"${String(status)}" is not a valid choice.`] });
    if (consultation.status === CONSULTATION_STATUS.finalized && status !== CONSULTATION_STATUS.finalized)
      throw fieldErrors({ status: ['A finalized consultation cannot change status.'] });
    const now = Date.now();
    consultation.status = status;
    if (status !== CONSULTATION_STATUS.admitted && status !== CONSULTATION_STATUS.draft) consultation.started ??= now;
    if (status === CONSULTATION_STATUS.finalized) consultation.finished ??= now;
    sendJson(res, 200, RESOURCES.consultation.serialize(consultation, this.context(url)));
  }

  private noteList(req: IncomingMessage, res: ServerResponse, url: URL, consultationId: number): void {
    this.oauth.authenticate(req);
    const consultation = this.notes.consultation(consultationId);
    const ctx = this.context(url);
    let test: (n: ProvetNote) => boolean;
    try {
      test = readFilters(url.searchParams, NOTE_FILTERS);
    } catch (e) {
      if (e instanceof FilterError) throw fieldErrors({ [e.parameter]: [e.message] });
      throw e;
    }
    const all = this.notes.list(consultation).filter(test);
    this.paged(req, res, url, 'consultationnote-list', all, (n) => noteJson(n, ctx));
  }

  private async noteWrite(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    consultationId: number,
    noteId: number | null,
    method: 'POST' | 'GET' | 'PUT' | 'PATCH' | 'DELETE',
  ): Promise<void> {
    const caller = this.admit(req, noteId === null ? 'consultationnote-list' : 'consultationnote-detail');
    const consultation = this.notes.consultation(consultationId);
    const ctx = this.context(url);
    const note = noteId === null ? null : this.notes.note(consultation, noteId);
    if (method === 'GET' && note) {
      sendJson(res, 200, noteJson(note, ctx));
      return;
    }
    if (method === 'DELETE' && note) {
      this.notes.remove(caller, consultation, note);
      sendJson(res, 204, undefined);
      return;
    }
    const body = await readJsonObject(req);
    const answer =
      note === null
        ? this.notes.create(caller, consultation, body, ctx)
        : this.notes.change(caller, consultation, note, body, method === 'PATCH', ctx);
    if (answer.drop) sendThenDrop(res, answer.status, answer.body);
    else sendJson(res, answer.status, answer.body);
  }

  /** The double's own: checks the appointment's patients in, as the clinic's front desk would. */
  private checkInRoute(res: ServerResponse, url: URL, appointmentId: number): void {
    const consultation = this.checkIn(appointmentId);
    if (!consultation) throw detail(404, 'Not found.');
    const ctx = this.context(url);
    sendJson(res, 200, {
      appointment: `${ctx.api}appointment/${appointmentId}/`,
      consultation: RESOURCES.consultation.serialize(consultation, ctx),
    });
  }
}

/**
 * A resource by its name in the path, seen through what every resource has: the table holds
 * each with its own record type, which a lookup by a name only known at run time cannot keep.
 */
function resourceNamed(name: ResourceName): Resource<{ id: number }> {
  return RESOURCES[name] as unknown as Resource<{ id: number }>;
}
