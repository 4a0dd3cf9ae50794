// The sandbox's routes: every operation the app uses, in the bodies and answers the service
// publishes (SERVICE.md), each on its host role (agents_url, scribe_url, agents_api_url), under
// three prefixes so a client never assumes the three base addresses are one. Faults (latency, 503s, cut connections,
// 429s) are injected around the handlers, the same way for every route.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { requestTarget } from '../shared/request-target.ts';
import { requestSchemas } from '../shared/service/index.ts';
import { sectionsFromCategories, sectionsToRtf } from '../shared/note/index.ts';
import type {
  LoginResponseWire,
  OrganizationGetResponseWire,
  OrganizationUpdateResponseWire,
  OrganizationWire,
  PageWire,
  PublicUserWire,
  RefreshResponseWire,
  SignInResponseWire,
  RecordingSessionWire,
  ScribeListItemWire,
  ScribeRecordWire,
  ScribeRequestResponseWire,
  TemplateWire,
  UploadUrlResponseWire,
  UserWire,
  WebhookStatusResponseWire,
  WebhookUpdateResponseWire,
  WebhookWire,
} from '../shared/service/wire.ts';
import { answerDdx, answerTreatmentPlan } from './agents.ts';
import { answerChat, answerFast, answerMedication } from './medication.ts';
import type { Auth } from './auth.ts';
import { ApiError, bearerToken, invalid, readBody, requireHeaders, Router, sendError, sendJson, type Reply, type RequestContext } from './http.ts';
import type { SandboxOptions } from './options.ts';
import { scribeStatus, type ScribeJobs } from './scribe-jobs.ts';
import type { OrganizationRecord, ScribeRecord, SessionRecord, StateStore, UserRecord, WebhookRecord } from './state.ts';
import { TEMPLATES } from './templates.ts';
import type { Uploads } from './uploads.ts';

export const PREFIX = { agents: '/agents', scribe: '/scribe', agentsApi: '/agents-api', storage: '/storage' } as const;
export const API_VERSION = 'v1';
export const MAX_AGENT_INPUT_CHARS = 20_000;
/**
 * The operations whose `X-API-Version` the OpenAPI document marks required (the others list no
 * such parameter): FastAPI answers its absence 422, in one list with the body's faults.
 */
const VERSIONED = { headers: ['x-api-version'] } as const;

const schemas = requestSchemas;

export interface Counters {
  requests: number;
  byRoute: Record<string, number>;
  injected503: number;
  droppedConnections: number;
  rateLimited: number;
  signIns: number;
  refreshes: number;
  refreshReplays: number;
  refreshReuseDetected: number;
  scribeRequests: number;
  scribeReplays: number;
  uploads: number;
}

export interface ServerParts {
  options: SandboxOptions;
  store: StateStore;
  auth: Auth;
  uploads: Uploads;
  jobs: ScribeJobs;
  origin: () => string;
  random: () => number;
  counters: Counters;
}

/**
 * Row 3 as its reference page shows it: the OpenAPI's three token members, expiry, and the user
 * under the public names. Built from the wire declarations, which declare the OpenAPI form only.
 */
type LoginPageResponse = LoginResponseWire & Pick<SignInResponseWire, 'expires_at' | 'refresh_expires_at'> & { user: PublicUserWire };

function userJson(user: UserRecord): UserWire {
  return { id: user.id, email: user.email, name: user.name, organization_id: user.organization_id };
}

function organizationJson(org: OrganizationRecord): OrganizationWire {
  const { public_id, name, description, has_slack_bot_token, slack_channel, email_notification, is_active } = org;
  return { public_id, name, description, has_slack_bot_token, slack_channel, email_notification, is_active };
}

function webhookJson(hook: WebhookRecord): WebhookWire {
  const { public_id, event_type, is_active, organization_public_id } = hook;
  return { public_id, event_type, is_active, organization_public_id };
}

function publicUserJson(user: UserRecord): PublicUserWire {
  return { public_id: user.id, email: user.email, name: user.name, organization_public_id: user.organization_id };
}

function sessionJson(session: SessionRecord): RecordingSessionWire {
  return {
    public_id: session.public_id,
    updated_at: session.updated_at,
    patient_name: session.patient_name,
    description: session.description,
    organization_public_id: session.organization_id,
  };
}

/** A published page (templates, scribes, sessions): has_next, no total. */
function page<T>(all: readonly T[], url: URL): PageWire<T> {
  const current = intParam(url, 'page', 1, 1, 1_000_000);
  const limit = intParam(url, 'limit', 50, 1, 100);
  return { items: all.slice((current - 1) * limit, current * limit), has_next: current * limit < all.length, current_page: current, items_per_page: limit };
}

/** Row 9's record; the note (categories and RTF) once scribed. */
export function scribeRecordJson(record: ScribeRecord, now = Date.now()): ScribeRecordWire & { error?: string } {
  const status = scribeStatus(record, now);
  const scribed = status === 'scribed' && record.categories !== null;
  return {
    public_id: record.public_id,
    transcript_public_id: status === 'requested' ? null : `tr-${record.public_id}`,
    template_public_id: record.template_public_id,
    // 'failed' is the sandbox's own word for audio it cannot read; the service publishes none.
    status: status as ScribeRecordWire['status'],
    categories_output: scribed ? record.categories! : [],
    rtf_output: scribed ? sectionsToRtf(sectionsFromCategories(record.categories!), { patientName: null, date: null }) : null,
    ...(status === 'failed' && record.error ? { error: record.error } : {}),
  };
}

/** A whole-number query parameter, refused as FastAPI refuses `Query(ge=min, le=max)`. */
function intParam(url: URL, name: string, fallback: number, min: number, max: number): number {
  const raw = url.searchParams.get(name);
  if (raw === null) return fallback;
  const loc = ['query', name];
  if (!/^\s*[-+]?\d+\s*$/.test(raw)) throw invalid([{ loc, msg: 'Input should be a valid integer, unable to parse string as an integer', type: 'int_parsing' }]);
  const n = Number(raw);
  if (n < min) throw invalid([{ loc, msg: `Input should be greater than or equal to ${min}`, type: 'greater_than_equal' }]);
  if (n > max) throw invalid([{ loc, msg: `Input should be less than or equal to ${max}`, type: 'less_than_equal' }]);
  return n;
}

export function buildRouter(parts: ServerParts): Router {
  const { store, auth, uploads, jobs, counters } = parts;
  const state = store.state;
  const router = new Router();
  const user = (ctx: RequestContext) => auth.authenticate(bearerToken(ctx.req));

  const signIn = async (ctx: RequestContext, login: boolean): Promise<Reply> => {
    const body = await readBody(ctx.req, schemas.signIn, login ? VERSIONED : {});
    const account = await auth.checkPassword(body.email, body.password);
    const { access_token, refresh_token, expires_at, refresh_expires_at } = await auth.signIn(account);
    counters.signIns += 1;
    if (!login) {
      const answer: SignInResponseWire = { access_token, refresh_token, token_type: 'bearer', expires_at, refresh_expires_at, user: userJson(account) };
      return { body: answer };
    }
    // Row 3's OpenAPI answer is only the three token fields; its page adds expiry and the user
    // under the public names. The page's form is the default, the OpenAPI's an option.
    const tokens: LoginResponseWire = { access_token, refresh_token, token_type: 'bearer' };
    if (parts.options.loginTokensOnly) return { body: tokens };
    const page: LoginPageResponse = { ...tokens, expires_at, refresh_expires_at, user: publicUserJson(account) };
    return { body: page };
  };
  router.add('POST', `${PREFIX.agents}/auth/sign-in`, (ctx) => signIn(ctx, false));
  router.add('POST', `${PREFIX.scribe}/auth/login`, (ctx) => signIn(ctx, true));

  router.add('GET', `${PREFIX.scribe}/users/me`, async (ctx) => {
    const { user: account } = await user(ctx);
    requireHeaders(ctx.req, VERSIONED.headers);
    return { body: publicUserJson(account) };
  });

  router.add('POST', `${PREFIX.scribe}/auth/refresh-token`, async (ctx) => {
    const body = await readBody(ctx.req, schemas.refresh, VERSIONED);
    const answer = await auth.refresh(bearerToken(ctx.req), body.token).catch((e: unknown) => {
      if (e instanceof ApiError && e.code === 'refresh_token_reused') counters.refreshReuseDetected += 1;
      throw e;
    });
    if (answer.replayed) counters.refreshReplays += 1;
    else counters.refreshes += 1;
    // The OpenAPI answer is the three token fields; the page adds expiry and the user.
    if (parts.options.refreshTokensOnly) {
      const tokens: LoginResponseWire = { access_token: answer.access_token, refresh_token: answer.refresh_token, token_type: 'bearer' };
      return { body: tokens };
    }
    const refreshed: RefreshResponseWire = {
      access_token: answer.access_token,
      refresh_token: answer.refresh_token,
      token_type: 'bearer',
      expires_at: answer.expires_at,
      refresh_expires_at: answer.refresh_expires_at,
      // The refresh answer names the user's fields differently from sign-in (SPEC 2.3).
      user: publicUserJson(answer.user),
    };
    return { body: refreshed };
  });

  router.add('POST', `${PREFIX.scribe}/recording-sessions/create`, async (ctx) => {
    const { user: account } = await user(ctx);
    const body = await readBody(ctx.req, schemas.createSession, VERSIONED);
    const now = new Date().toISOString();
    const session: SessionRecord = {
      public_id: crypto.randomUUID(),
      patient_name: body.patient_name,
      description: body.description,
      session_date: body.session_date,
      created_at: now,
      updated_at: now,
      organization_id: account.organization_id,
      user_id: account.id,
      last_upload_key: null,
    };
    state.sessions[session.public_id] = session;
    store.save();
    return { body: sessionJson(session) };
  });

  const ownSession = (id: string, organizationId: string): SessionRecord => {
    const session = state.sessions[id];
    if (!session || session.organization_id !== organizationId) throw new ApiError(404, 'not_found', 'Recording session not found.');
    return session;
  };

  router.add('GET', `${PREFIX.scribe}/recording-sessions/all`, async (ctx) => {
    const { user: account } = await user(ctx);
    const own = Object.values(state.sessions)
      .filter((x) => x.organization_id === account.organization_id)
      .sort((a, b) => b.created_at.localeCompare(a.created_at))
      .map(sessionJson);
    return { body: page(own, ctx.url) };
  });

  router.add('GET', `${PREFIX.scribe}/recording-sessions/get/:id`, async (ctx) => {
    const { user: account } = await user(ctx);
    return { body: sessionJson(ownSession(ctx.params['id'] ?? '', account.organization_id)) };
  });

  router.add('GET', `${PREFIX.scribe}/templates/all`, async (ctx) => {
    await user(ctx);
    const all: TemplateWire[] = TEMPLATES.map(({ public_id, name, description }) => ({ public_id, name, description }));
    return { body: page(all, ctx.url) };
  });

  router.add('POST', `${PREFIX.scribe}/audio/generate-upload-url`, async (ctx) => {
    const { user: account } = await user(ctx);
    const body = await readBody(ctx.req, schemas.uploadUrl, VERSIONED);
    const session = ownSession(body.recording_session_public_id, account.organization_id);
    const auto = body.auto_scribe_template_public_id ?? null;
    if (auto !== null && !TEMPLATES.some((t) => t.public_id === auto)) throw new ApiError(404, 'not_found', 'Template not found.');
    const answer: UploadUrlResponseWire = { url: uploads.create(parts.origin(), session.public_id, auto), message: 'Upload URL generated successfully' };
    return { body: answer };
  });

  router.add('PUT', `${PREFIX.storage}/:key`, async (ctx) => {
    const result = await uploads.put(ctx.req, ctx.params['key'] ?? '', ctx.url.searchParams);
    counters.uploads += 1;
    // Row 6's optional template: scribing starts by itself once the audio is in.
    const auto = result.record.auto_scribe_template_public_id;
    const session = state.sessions[result.record.recording_session_public_id];
    // One job per upload address: a PUT repeated to the same address (a client retrying a
    // cut-off upload) replaces the file but does not scribe it twice.
    if (auto && session) {
      const { created } = jobs.create({ sessionId: session.public_id, templateId: auto, organizationId: session.organization_id, idempotencyKey: `auto-scribe:${result.record.file_key}` });
      if (created) counters.scribeRequests += 1;
    }
    return { status: 200, body: undefined, headers: { ETag: `"${result.sha256}"` } };
  });

  router.add('POST', `${PREFIX.scribe}/scribe/request`, async (ctx) => {
    const { user: account } = await user(ctx);
    const body = await readBody(ctx.req, schemas.scribeRequest, VERSIONED);
    const key = ctx.req.headers['idempotency-key'];
    const { record, created } = jobs.create({
      sessionId: body.recording_session_public_id,
      templateId: body.template_public_id,
      organizationId: account.organization_id,
      idempotencyKey: typeof key === 'string' && key.trim() ? key.trim().slice(0, 200) : null,
    });
    if (created) counters.scribeRequests += 1;
    else counters.scribeReplays += 1;
    const answer: ScribeRequestResponseWire = { public_id: record.public_id, message: 'Scribe requested successfully' };
    return { body: answer };
  });

  router.add('GET', `${PREFIX.scribe}/scribe/get/:id`, async (ctx) => {
    const { user: account } = await user(ctx);
    const record = state.scribes[ctx.params['id'] ?? ''];
    if (!record || record.organization_id !== account.organization_id) throw new ApiError(404, 'not_found', 'Scribe not found.');
    return { body: scribeRecordJson(record) };
  });

  router.add('GET', `${PREFIX.scribe}/scribe/all`, async (ctx) => {
    const { user: account } = await user(ctx);
    const own: ScribeListItemWire[] = Object.values(state.scribes)
      .filter((x) => x.organization_id === account.organization_id)
      .sort((a, b) => b.created_at.localeCompare(a.created_at))
      .map((x) => ({
        public_id: x.public_id,
        updated_at: new Date(Math.min(Date.now(), Math.max(Date.parse(x.created_at), x.finish_at))).toISOString(),
        transcript_public_id: scribeStatus(x) === 'requested' ? null : `tr-${x.public_id}`,
        template_public_id: x.template_public_id,
        organization_public_id: x.organization_id,
        status: scribeStatus(x) as ScribeListItemWire['status'],
      }));
    return { body: page(own, ctx.url) };
  });

  const agentInput = async (ctx: RequestContext): Promise<string> => {
    await user(ctx);
    const { input } = await readBody(ctx.req, schemas.agent);
    if (input.trim() === '') throw invalid([{ loc: ['body', 'input'], msg: 'String should have at least 1 character', type: 'string_too_short' }]);
    if (input.length > MAX_AGENT_INPUT_CHARS) {
      throw invalid([{ loc: ['body', 'input'], msg: `String should have at most ${MAX_AGENT_INPUT_CHARS} characters`, type: 'string_too_long' }]);
    }
    return input;
  };
  router.add('POST', `${PREFIX.agentsApi}/ddx_agent_v2`, async (ctx) => ({ body: answerDdx(await agentInput(ctx)) }));
  router.add('POST', `${PREFIX.agentsApi}/treatment_plan_agent_v2`, async (ctx) => ({ body: answerTreatmentPlan(await agentInput(ctx)) }));
  router.add('POST', `${PREFIX.agentsApi}/medication_agent_v2`, async (ctx) => ({ body: answerMedication(await agentInput(ctx)) }));
  router.add('POST', `${PREFIX.agentsApi}/chat_agent`, async (ctx) => {
    await user(ctx);
    const body = await readBody(ctx.req, schemas.chatAgent);
    if (body.input.trim() === '') throw invalid([{ loc: ['body', 'input'], msg: 'String should have at least 1 character', type: 'string_too_short' }]);
    return { body: answerChat(body.input) };
  });
  // The fast agents answer one block of plain text (SERVICE.md).
  for (const [path, kind] of [['fast_ddx_agent', 'ddx'], ['fast_treatment_plan_agent', 'treatment']] as const) {
    router.add('POST', `${PREFIX.agentsApi}/${path}`, async (ctx) => {
      await user(ctx);
      const { message } = await readBody(ctx.req, schemas.fastAgent);
      if (message.trim() === '') throw invalid([{ loc: ['body', 'message'], msg: 'String should have at least 1 character', type: 'string_too_short' }]);
      return { body: answerFast(kind, message), text: true };
    });
  }

  router.add('GET', `${PREFIX.scribe}/organizations/get`, async (ctx) => {
    const { user: account } = await user(ctx);
    const org = state.organizations.find((o) => o.public_id === account.organization_id);
    if (!org) throw new ApiError(404, 'not_found', 'Organization not found.');
    const { is_active: _active, ...published } = organizationJson(org);
    const answer: OrganizationGetResponseWire = published;
    return { body: answer };
  });

  router.add('PUT', `${PREFIX.scribe}/webhook/update`, async (ctx) => {
    const { user: account } = await user(ctx);
    const body = await readBody(ctx.req, schemas.webhookUpdate);
    let hook = state.webhooks.find((w) => w.organization_public_id === account.organization_id && w.event_type === body.event_type);
    if (!hook) {
      hook = { public_id: crypto.randomUUID(), event_type: body.event_type, is_active: true, organization_public_id: account.organization_id };
      state.webhooks.push(hook);
    }
    hook.webhook_url = body.webhook_url;
    hook.auth_token = body.auth_token;
    hook.is_active = true;
    store.save();
    const answer: WebhookUpdateResponseWire = { message: 'Webhook updated successfully', data: webhookJson(hook) };
    return { body: answer };
  });

  router.add('PATCH', `${PREFIX.scribe}/organizations/update-email-for-notification`, async (ctx) => {
    const { user: account } = await user(ctx);
    const body = await readBody(ctx.req, schemas.notificationEmail);
    const org = state.organizations.find((o) => o.public_id === account.organization_id);
    if (!org) throw new ApiError(404, 'not_found', 'Your organization no longer exists.');
    org.email_notification = body.email;
    store.save();
    const answer: OrganizationUpdateResponseWire = { message: 'Notification e-mail updated', data: organizationJson(org) };
    return { body: answer };
  });

  router.add('PATCH', `${PREFIX.scribe}/webhook/status`, async (ctx) => {
    const { user: account } = await user(ctx);
    const body = await readBody(ctx.req, schemas.webhookStatus);
    if (body.organization_public_id !== account.organization_id) {
      throw new ApiError(403, 'forbidden', 'You may change the webhooks of your own organization only.');
    }
    const hook = state.webhooks.find((w) => w.organization_public_id === body.organization_public_id && w.event_type === body.event_type);
    if (!hook) throw new ApiError(404, 'not_found', `No webhook for event type "${body.event_type}" in your organization.`);
    hook.is_active = body.is_active;
    store.save();
    const answer: WebhookStatusResponseWire = { message: `Webhook ${body.is_active ? 'activated' : 'deactivated'}`, data: webhookJson(hook) };
    return { body: answer };
  });

  return router;
}

/** Counts requests a minute per client (its token, else its address); fixed one-minute windows. */
class RateLimiter {
  private window = 0;
  private readonly counts = new Map<string, number>();
  private readonly perMinute: number;
  constructor(perMinute: number) {
    this.perMinute = perMinute;
  }
  check(key: string, now = Date.now()): void {
    if (this.perMinute <= 0) return;
    const window = Math.floor(now / 60_000);
    if (window !== this.window) {
      this.window = window;
      this.counts.clear();
    }
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    if (n > this.perMinute) {
      const retryAfter = Math.max(1, Math.ceil(((window + 1) * 60_000 - now) / 1000));
      throw new ApiError(429, 'rate_limited', `Too many requests: the limit is ${this.perMinute} a minute. Try again in ${retryAfter} s.`, {
        'Retry-After': String(retryAfter),
      });
    }
  }
}

function routeName(method: string, pathname: string): string {
  return `${method} ${pathname
    .replace(/\/storage\/.+$/, '/storage/:key')
    .replace(/\/scribe\/get\/.+$/, '/scribe/get/:id')
    .replace(/\/recording-sessions\/get\/.+$/, '/recording-sessions/get/:id')}`;
}

const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
const DRAIN_MAX_MS = 2000;

function drain(req: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', done);
      req.off('error', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_MAX_BYTES) done();
    };
    const timer = setTimeout(done, DRAIN_MAX_MS);
    req.on('data', onData);
    req.once('end', done);
    req.once('error', done);
    req.resume();
  });
}

/** Cuts the connection after part of the answer, as a failing network or proxy would. */
function sendThenDrop(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body ?? {});
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) });
  res.write(text.slice(0, Math.floor(text.length / 2)));
  res.socket?.destroy();
}

export function createSandboxServer(parts: ServerParts): Server {
  const router = buildRouter(parts);
  const limiter = new RateLimiter(parts.options.rateLimitPerMinute);
  const { options, counters, random } = parts;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = requestTarget(req.url, 'http://sandbox.invalid');
    if (!url) {
      sendError(res, new ApiError(400, 'bad_request', `The request target ${JSON.stringify(req.url)} is not a path.`));
      return;
    }
    const method = req.method ?? 'GET';
    counters.requests += 1;
    const name = routeName(method, url.pathname);
    counters.byRoute[name] = (counters.byRoute[name] ?? 0) + 1;
    const drop = options.dropRate > 0 && random() < options.dropRate;
    try {
      if (options.latencyMs > 0) await delay(options.latencyMs);
      const { handler, params } = router.match(method, url.pathname);
      limiter.check(req.headers.authorization ?? req.socket.remoteAddress ?? 'unknown');
      if (options.failRate > 0 && random() < options.failRate) {
        counters.injected503 += 1;
        throw new ApiError(503, 'service_unavailable', 'The sandbox is simulating an outage (--fail-rate); try again.', { 'Retry-After': '1' });
      }
      const version = req.headers['x-api-version'];
      if (version !== undefined && version !== API_VERSION) {
        throw new ApiError(400, 'unsupported_api_version', `X-API-Version "${String(version)}" is not supported; the current version is ${API_VERSION}.`);
      }
      const reply = await handler({ req, res, url, params });
      if (drop) {
        counters.droppedConnections += 1;
        sendThenDrop(res, reply.status ?? 200, reply.body);
        return;
      }
      if (reply.text) {
        const text = String(reply.body ?? '');
        res.writeHead(reply.status ?? 200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)), ...reply.headers });
        res.end(text);
        return;
      }
      sendJson(res, reply.status ?? 200, reply.body, reply.headers);
    } catch (e) {
      const error = e instanceof ApiError ? e : new ApiError(500, 'internal_error', `The sandbox failed to answer: ${(e as Error).message}`);
      if (error.status === 429) counters.rateLimited += 1;
      if (res.headersSent) {
        res.socket?.destroy();
        return;
      }
      // An answer sent before the request body was read: read and drop the rest first (a
      // bounded amount), or the client's kernel may see a reset before it reads the answer.
      if (!req.complete) {
        await drain(req);
        if (!req.complete) res.setHeader('Connection', 'close');
      }
      if (drop) {
        counters.droppedConnections += 1;
        sendThenDrop(res, error.status, { detail: error.message, code: error.code });
        return;
      }
      sendError(res, error);
    }
  };

  // Headers must come within 30 s. The whole request has no limit (a 1 GB upload on a slow line
  // takes what it takes), but a connection on which nothing moves for idleTimeoutMs is closed:
  // a body sent a byte at a time, with long pauses, cannot hold a connection for ever.
  const server = createServer({ requestTimeout: 0, headersTimeout: 30_000, keepAliveTimeout: 5_000 }, (req, res) => {
    // The last guard: whatever a request does, the sandbox goes on serving the others.
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) sendError(res, new ApiError(500, 'internal_error', `The sandbox failed to answer: ${(e as Error).message}`));
      else res.destroy();
    });
  });
  server.setTimeout(parts.options.idleTimeoutMs, (socket) => socket.destroy());
  server.on('clientError', (_err, socket) => {
    const body = '{"detail":"Malformed HTTP request.","code":"bad_request"}';
    if (socket.writable) {
      socket.end(`HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    }
    else socket.destroy();
  });
  return server;
}

export function serverOrigin(server: Server, host: string): string {
  const { port } = server.address() as AddressInfo;
  const h = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return `http://${h}:${port}`;
}
