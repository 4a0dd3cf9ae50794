// The sandbox's server: the routes of every operation the app uses (one module a part of the
// API, in routes/), each on its host role (agents_url, scribe_url, agents_api_url), under
// three prefixes so a client never assumes the three base addresses are one. Faults (latency, 503s, cut connections,
// 429s) are injected around the handlers, the same way for every route.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { requestTarget } from '../shared/request-target.ts';
import { SERVICE_OPERATIONS } from '../shared/service/index.ts';
import { API_VERSION, API_VERSION_HEADER } from '../shared/service/version.ts';
import { ApiError, Router, sendError, sendJson } from './http.ts';
import { agentRoutes } from './routes/agents.ts';
import { audioAndUploadRoutes } from './routes/audio-and-uploads.ts';
import { authRoutes } from './routes/auth.ts';
import { CHAT_PATH, chatRoutes } from './routes/chat.ts';
import type { ServerParts } from './routes/common.ts';
import { organizationAndWebhookRoutes } from './routes/organization-and-webhooks.ts';
import { recordingSessionRoutes } from './routes/recording-sessions.ts';
import { scribeRoutes } from './routes/scribe.ts';
import { templateRoutes } from './routes/templates.ts';
import type { ProvetInstance } from './provet/index.ts';

export { PREFIX, type Counters, type ServerParts } from './routes/common.ts';

/**
 * Every route, each part of the API from its module. The order is the order a request's path
 * is matched in (and the methods a 405 lists).
 */
export function buildRouter(parts: ServerParts): Router {
  const router = new Router();
  for (const addRoutes of [
    authRoutes,
    recordingSessionRoutes,
    templateRoutes,
    audioAndUploadRoutes,
    scribeRoutes,
    agentRoutes,
    organizationAndWebhookRoutes,
    chatRoutes,
  ]) {
    addRoutes(router, parts);
  }
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
      throw new ApiError(
        429,
        'rate_limited',
        `Too many requests: the limit is ${this.perMinute} a minute. Try again in ${retryAfter} s.`,
        {
          'Retry-After': String(retryAfter),
        },
      );
    }
  }
}

/**
 * The paths with a parameter, as the counts name them (`/scribe/get/x` as `/scribe/get/:id`):
 * the storage address, then each published operation whose path in the table has one.
 */
const NAMED_PATHS: { pattern: RegExp; name: string }[] = [
  { pattern: /\/storage\/.+$/, name: '/storage/:key' },
  ...Object.values(SERVICE_OPERATIONS)
    .flatMap((spec) => ('path' in spec && spec.path.includes('{') ? [spec.path] : []))
    .map((path) => {
      // Split with the parameters kept at the odd places; a last parameter takes the rest.
      const source = path
        .split(/(\{[^}/]+\})/)
        .map((piece, i, all) =>
          i % 2 === 0
            ? piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
            : i === all.length - 2 && all[i + 1] === ''
              ? '.+'
              : '[^/]+',
        )
        .join('');
      return { pattern: new RegExp(`${source}$`), name: path.replace(/\{([^}/]+)\}/g, ':$1') };
    }),
];

function routeName(method: string, pathname: string): string {
  return `${method} ${NAMED_PATHS.reduce((named, { pattern, name }) => named.replace(pattern, name), pathname)}`;
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

/**
 * The sandbox's HTTP server. With a Provet instance, paths under `/provet/` are its own: it
 * answers them in Provet's shapes, with only the latency of the sandbox's faults around it.
 */
export function createSandboxServer(parts: ServerParts, provet: ProvetInstance | null = null): Server {
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
      if (provet && url.pathname.startsWith('/provet/')) {
        await provet.handle(req, res, url);
        return;
      }
      const { handler, params } = router.match(method, url.pathname);
      limiter.check(req.headers.authorization ?? req.socket.remoteAddress ?? 'unknown');
      if (options.failRate > 0 && random() < options.failRate) {
        counters.injected503 += 1;
        throw new ApiError(
          503,
          'service_unavailable',
          'The sandbox is simulating an outage (--fail-rate); try again.',
          { 'Retry-After': '1' },
        );
      }
      const version = req.headers[API_VERSION_HEADER];
      // POST /chat takes a version of its own and checks it itself.
      if (version !== undefined && version !== API_VERSION && url.pathname !== CHAT_PATH) {
        throw new ApiError(
          400,
          'unsupported_api_version',
          `X-API-Version "${String(version)}" is not supported; the current version is ${API_VERSION}.`,
        );
      }
      const reply = await handler({ req, res, url, params });
      if (drop) {
        counters.droppedConnections += 1;
        sendThenDrop(res, reply.status ?? 200, reply.body);
        return;
      }
      if (reply.text) {
        const text = String(reply.body ?? '');
        res.writeHead(reply.status ?? 200, {
          'Content-Type': 'text/plain; charset=utf-8',
          'Content-Length': String(Buffer.byteLength(text)),
          ...reply.headers,
        });
        res.end(text);
        return;
      }
      sendJson(res, reply.status ?? 200, reply.body, reply.headers);
    } catch (e) {
      const error =
        e instanceof ApiError
          ? e
          : new ApiError(500, 'internal_error', `The sandbox failed to answer: ${(e as Error).message}`);
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
      if (!res.headersSent)
        sendError(res, new ApiError(500, 'internal_error', `The sandbox failed to answer: ${(e as Error).message}`));
      else res.destroy();
    });
  });
  server.setTimeout(parts.options.idleTimeoutMs, (socket) => socket.destroy());
  server.on('clientError', (_err, socket) => {
    const body = '{"detail":"Malformed HTTP request.","code":"bad_request"}';
    if (socket.writable) {
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
    } else socket.destroy();
  });
  return server;
}

export function serverOrigin(server: Server, host: string): string {
  const { port } = server.address() as AddressInfo;
  const h = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return `http://${h}:${port}`;
}
