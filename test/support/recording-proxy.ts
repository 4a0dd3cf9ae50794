// A recording proxy in front of a real sandbox: it notes each request's method, path, headers
// and body, forwards it as it came, and answers what the sandbox answered, with the sandbox's
// origin in JSON answers rewritten to its own, so the presigned upload URL leads back through it.
// Tests read from it exactly what the engine sent over the wire. An answer may be held back (the
// request done at the sandbox, its answer kept until `release()`) or dropped (done, and the
// connection cut instead of answered): a slow or lost answer of a request the service carried out.
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sandbox } from '../../src/sandbox/index.ts';

export interface SeenRequest {
  method: string;
  /** The path without its query. */
  path: string;
  query: string;
  headers: IncomingHttpHeaders;
  /** The body as JSON when it was JSON; undefined otherwise. */
  json: unknown;
  bodyBytes: number;
  status: number | null;
  /** When the request arrived (Date.now()). */
  at: number;
  /** The JSON answer as the client got it (after any rewrite). */
  answer: unknown;
}

export interface RecordingProxy {
  origin: string;
  seen: SeenRequest[];
  /** The requests of a method whose path holds the given text, e.g. ('POST', '/scribe/request'). */
  find(method: string, path: string): SeenRequest[];
  /** The three base addresses of the sandbox, through the proxy. */
  urls: { agentsUrl: string; scribeUrl: string; agentsApiUrl: string };
  /**
   * Changes a JSON answer on its way back (a test's way to meet an answer the sandbox does not
   * give by itself); undefined leaves it as the sandbox wrote it.
   */
  rewrite: ((request: SeenRequest, answer: unknown) => unknown) | null;
  /**
   * What becomes of an answer once the sandbox has given it: 'hold' keeps it until `release()`,
   * 'drop' cuts the connection without it; undefined sends it on.
   */
  fate: ((request: SeenRequest) => 'hold' | 'drop' | undefined) | null;
  /** Sends on every answer held so far. */
  release(): void;
  /** How many answers are held now. */
  held(): number;
  close(): Promise<void>;
}

export async function startRecordingProxy(target: Sandbox): Promise<RecordingProxy> {
  const seen: SeenRequest[] = [];
  const held: (() => void)[] = [];
  let origin = '';
  const server: Server = createServer((req, res) => {
    const [path = '', query = ''] = (req.url ?? '/').split('?');
    const record: SeenRequest = {
      method: req.method ?? '',
      path,
      query,
      headers: { ...req.headers },
      json: undefined,
      bodyBytes: 0,
      status: null,
      answer: undefined,
      at: Date.now(),
    };
    seen.push(record);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      record.bodyBytes += c.length;
      // Uploads are counted, not kept.
      if (record.bodyBytes <= 1024 * 1024) chunks.push(c);
    });
    req.on('end', () => {
      if (String(req.headers['content-type'] ?? '').includes('json')) {
        try {
          record.json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
        } catch {
          record.json = undefined;
        }
      }
    });
    const upstream = httpRequest(
      `${target.origin}${req.url ?? '/'}`,
      { method: req.method, headers: { ...req.headers, host: new URL(target.origin).host } },
      (answer) => {
        record.status = answer.statusCode ?? null;
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          let text = Buffer.concat(body);
          if (String(answer.headers['content-type'] ?? '').includes('json')) {
            text = Buffer.from(text.toString('utf8').split(target.origin).join(origin));
            let json: unknown;
            try {
              json = JSON.parse(text.toString('utf8')) as unknown;
            } catch {
              json = undefined;
            }
            const rewritten = json === undefined ? undefined : proxy.rewrite?.(record, json);
            if (rewritten !== undefined) text = Buffer.from(JSON.stringify(rewritten));
            record.answer = rewritten ?? json;
          }
          const headers = { ...answer.headers, 'content-length': String(text.length) };
          delete headers['transfer-encoding'];
          const send = () => {
            if (!res.destroyed) res.writeHead(answer.statusCode ?? 502, headers).end(text);
          };
          const fate = proxy.fate?.(record);
          if (fate === 'drop') res.socket?.destroy();
          else if (fate === 'hold') held.push(send);
          else send();
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const base = (url: string) => `${origin}${new URL(url).pathname.replace(/\/+$/, '')}`;
  const proxy: RecordingProxy = {
    origin,
    seen,
    rewrite: null,
    fate: null,
    release: () => {
      for (const send of held.splice(0)) send();
    },
    held: () => held.length,
    find: (method, part) => seen.filter((r) => r.method === method && r.path.includes(part)),
    urls: {
      agentsUrl: base(target.urls.agents_url),
      scribeUrl: base(target.urls.scribe_url),
      agentsApiUrl: base(target.urls.agents_api_url),
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  return proxy;
}

/** The user a bearer token was issued to (its `sub`), read from a request's Authorization header. */
export function tokenUser(authorization: string | string[] | undefined): string | null {
  const token = typeof authorization === 'string' ? authorization.replace(/^Bearer /, '') : '';
  const payload = token.split('.')[1];
  if (!payload) return null;
  return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: string }).sub ?? null;
}
