// The sandbox's routes: every row of SPEC section 4, strict, under three prefixes so a client
// never assumes the three base addresses are one. Faults (latency, 503s, cut connections,
// 429s) are injected around the handlers, the same way for every route.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { requestTarget } from '../shared/request-target.ts';
import { requestSchemas } from '../shared/service/index.ts';
import { answerDdx, answerTreatmentPlan } from './agents.ts';
import type { Auth } from './auth.ts';
import { ApiError, bearerToken, readJson, Router, sendError, sendJson, validate, type Reply, type RequestContext } from './http.ts';
import type { SandboxOptions } from './options.ts';
import { scribeStatus, type ScribeJobs } from './scribe-jobs.ts';
import type { OrganizationRecord, StateStore, UserRecord, WebhookRecord } from './state.ts';
import { TEMPLATES } from './templates.ts';
import type { Uploads } from './uploads.ts';

export const PREFIX = { agents: '/agents', scribe: '/scribe', agentsApi: '/agents-api', storage: '/storage' } as const;
export const API_VERSION = 'v1';
export const MAX_AGENT_INPUT_CHARS = 20_000;

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

function userJson(user: UserRecord) {
  return { id: user.id, email: user.email, name: user.name, organization_id: user.organization_id };
}

function organizationJson(org: OrganizationRecord) {
  const { public_id, name, description, has_slack_bot_token, slack_channel, email_notification, is_active } = org;
  return { public_id, name, description, has_slack_bot_token, slack_channel, email_notification, is_active };
}

function webhookJson(hook: WebhookRecord) {
  const { public_id, event_type, is_active, organization_public_id } = hook;
  return { public_id, event_type, is_active, organization_public_id };
}

function intParam(url: URL, name: string, fallback: number, min: number, max: number): number {
  const raw = url.searchParams.get(name);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) {
    throw new ApiError(422, 'validation_error', `Invalid request: ${name} must be a whole number from ${min} to ${max}, not "${raw}".`);
  }
  return n;
}

export function buildRouter(parts: ServerParts): Router {
  const { store, auth, uploads, jobs, counters } = parts;
  const state = store.state;
  const router = new Router();
  const user = (ctx: RequestContext) => auth.authenticate(bearerToken(ctx.req));

  const signIn = async (ctx: RequestContext): Promise<Reply> => {
    const body = validate(schemas.signIn, await readJson(ctx.req), 400);
    const account = auth.checkPassword(body.email, body.password);
    const tokens = await auth.signIn(account);
    counters.signIns += 1;
    return { body: { ...tokens, token_type: 'bearer', user: userJson(account) } };
  };
  router.add('POST', `${PREFIX.agents}/auth/sign-in`, signIn);
  router.add('POST', `${PREFIX.scribe}/auth/login`, signIn);

  router.add('POST', `${PREFIX.scribe}/auth/refresh-token`, async (ctx) => {
    const version = ctx.req.headers['x-api-version'];
    if (version === undefined) throw new ApiError(400, 'api_version_required', `The X-API-Version header is required; the current version is ${API_VERSION}.`);
    const body = validate(schemas.refresh, await readJson(ctx.req), 400);
    const answer = await auth.refresh(bearerToken(ctx.req), body.token).catch((e: unknown) => {
      if (e instanceof ApiError && e.code === 'refresh_token_reused') counters.refreshReuseDetected += 1;
      throw e;
    });
    if (answer.replayed) counters.refreshReplays += 1;
    else counters.refreshes += 1;
    const u = answer.user;
    return {
      body: {
        access_token: answer.access_token,
        refresh_token: answer.refresh_token,
        token_type: 'bearer',
        expires_at: answer.expires_at,
        refresh_expires_at: answer.refresh_expires_at,
        // The refresh answer names the user's fields differently from sign-in (SPEC 2.3).
        user: { public_id: u.id, email: u.email, name: u.name, organization_public_id: u.organization_id },
      },
    };
  });

  router.add('POST', `${PREFIX.scribe}/recording-sessions/create`, async (ctx) => {
    const { user: account } = await user(ctx);
    const body = validate(schemas.createSession, await readJson(ctx.req, { optional: true }));
    const session = {
      public_id: crypto.randomUUID(),
      name: body.name ?? null,
      created_at: new Date().toISOString(),
      organization_id: account.organization_id,
      user_id: account.id,
    };
    state.sessions[session.public_id] = session;
    store.save();
    return { status: 201, body: { message: 'Recording session created', data: { public_id: session.public_id, created_at: session.created_at, name: session.name } } };
  });

  router.add('GET', `${PREFIX.scribe}/templates/all`, async (ctx) => {
    await user(ctx);
    const page = intParam(ctx.url, 'page', 1, 1, 1_000_000);
    const limit = intParam(ctx.url, 'limit', 50, 1, 100);
    const items = TEMPLATES.slice((page - 1) * limit, page * limit).map(({ public_id, name, description }) => ({ public_id, name, description }));
    return { body: { message: 'Templates', data: { items, page, limit, total: TEMPLATES.length } } };
  });

  router.add('POST', `${PREFIX.scribe}/audio/generate-upload-url`, async (ctx) => {
    const { user: account } = await user(ctx);
    const body = validate(schemas.uploadUrl, await readJson(ctx.req));
    const session = state.sessions[body.recording_session_public_id];
    if (!session || session.organization_id !== account.organization_id) {
      throw new ApiError(404, 'not_found', `No recording session ${body.recording_session_public_id}.`);
    }
    return { body: { message: 'Upload URL generated', data: uploads.create(parts.origin(), session.public_id, body.file_name, body.content_type) } };
  });

  router.add('PUT', `${PREFIX.storage}/:key`, async (ctx) => {
    const result = await uploads.put(ctx.req, ctx.params['key'] ?? '', ctx.url.searchParams);
    counters.uploads += 1;
    return { body: { message: 'Uploaded', size: result.size }, headers: { ETag: `"${result.sha256}"` } };
  });

  router.add('POST', `${PREFIX.scribe}/scribe/request`, async (ctx) => {
    const { user: account } = await user(ctx);
    const body = validate(schemas.scribeRequest, await readJson(ctx.req));
    const key = ctx.req.headers['idempotency-key'];
    const { record, created } = jobs.create({
      sessionId: body.recording_session_public_id,
      templateId: body.template_public_id,
      fileKey: body.file_key,
      organizationId: account.organization_id,
      idempotencyKey: typeof key === 'string' && key.trim() ? key.trim().slice(0, 200) : null,
    });
    if (created) counters.scribeRequests += 1;
    else counters.scribeReplays += 1;
    return { status: created ? 201 : 200, body: { message: 'Scribe requested', data: { public_id: record.public_id, status: scribeStatus(record) } } };
  });

  router.add('GET', `${PREFIX.scribe}/scribe/get/:id`, async (ctx) => {
    const { user: account } = await user(ctx);
    const record = state.scribes[ctx.params['id'] ?? ''];
    if (!record || record.organization_id !== account.organization_id) {
      throw new ApiError(404, 'not_found', `No scribe record ${ctx.params['id'] ?? ''}.`);
    }
    const status = scribeStatus(record);
    return {
      body: {
        message: 'Scribe record',
        data: {
          public_id: record.public_id,
          status,
          recording_session_public_id: record.recording_session_public_id,
          template_public_id: record.template_public_id,
          created_at: record.created_at,
          ...(status === 'completed' ? { note: record.note, completed_at: new Date(record.finish_at).toISOString() } : {}),
          ...(status === 'failed' ? { error: record.error } : {}),
        },
      },
    };
  });

  const agentInput = async (ctx: RequestContext): Promise<string> => {
    await user(ctx);
    const { input } = validate(schemas.agent, await readJson(ctx.req));
    if (input.trim() === '') throw new ApiError(422, 'validation_error', 'Invalid request: input must not be empty.');
    if (input.length > MAX_AGENT_INPUT_CHARS) {
      throw new ApiError(422, 'validation_error', `Invalid request: input is ${input.length} characters; the limit is ${MAX_AGENT_INPUT_CHARS}.`);
    }
    return input;
  };
  router.add('POST', `${PREFIX.agentsApi}/ddx_agent_v2`, async (ctx) => ({ body: answerDdx(await agentInput(ctx)) }));
  router.add('POST', `${PREFIX.agentsApi}/treatment_plan_agent_v2`, async (ctx) => ({ body: answerTreatmentPlan(await agentInput(ctx)) }));

  router.add('PATCH', `${PREFIX.scribe}/organizations/update-email-for-notification`, async (ctx) => {
    const { user: account } = await user(ctx);
    const body = validate(schemas.notificationEmail, await readJson(ctx.req));
    const org = state.organizations.find((o) => o.public_id === account.organization_id);
    if (!org) throw new ApiError(404, 'not_found', 'Your organization no longer exists.');
    org.email_notification = body.email;
    store.save();
    return { body: { message: 'Notification e-mail updated', data: organizationJson(org) } };
  });

  router.add('PATCH', `${PREFIX.scribe}/webhook/status`, async (ctx) => {
    const { user: account } = await user(ctx);
    const body = validate(schemas.webhookStatus, await readJson(ctx.req));
    if (body.organization_public_id !== account.organization_id) {
      throw new ApiError(403, 'forbidden', 'You may change the webhooks of your own organization only.');
    }
    const hook = state.webhooks.find((w) => w.organization_public_id === body.organization_public_id && w.event_type === body.event_type);
    if (!hook) throw new ApiError(404, 'not_found', `No webhook for event type "${body.event_type}" in your organization.`);
    hook.is_active = body.is_active;
    store.save();
    return { body: { message: `Webhook ${body.is_active ? 'activated' : 'deactivated'}`, data: webhookJson(hook) } };
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
  return `${method} ${pathname.replace(/\/storage\/.+$/, '/storage/:key').replace(/\/scribe\/get\/.+$/, '/scribe/get/:id')}`;
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

  const server = createServer({ requestTimeout: 0, headersTimeout: 30_000, keepAliveTimeout: 5_000 }, (req, res) => {
    // The last guard: whatever a request does, the sandbox goes on serving the others.
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) sendError(res, new ApiError(500, 'internal_error', `The sandbox failed to answer: ${(e as Error).message}`));
      else res.destroy();
    });
  });
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
