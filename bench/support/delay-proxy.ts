// A proxy that makes every answer of a server `latencyMs` late, for a service further away than
// loopback without slowing the server itself for anyone else: only what comes through the proxy
// waits. The server names itself in its answers (full URLs in bodies, Location headers), so its
// origin is written as the proxy's there, and a client that follows those links stays behind the
// proxy. Answers are small JSON and HTML pages, read whole before they are passed on.
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface DelayProxy {
  origin: string;
  /** Closes the connections kept open between requests, so the next request opens one afresh. */
  closeIdle(): void;
  close(): Promise<void>;
}

async function bodyOf(stream: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

export async function startDelayProxy(target: string, latencyMs: number): Promise<DelayProxy> {
  const to = new URL(target);
  let origin = '';
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req);
      // Late by the same time a service behind a slower link would be: before it is asked.
      await sleep(latencyMs);
      const upstream = request(
        {
          host: to.hostname,
          port: to.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: to.host, 'content-length': String(body.length) },
        },
        (answer) => {
          void bodyOf(answer).then((raw) => {
            const type = String(answer.headers['content-type'] ?? '');
            const text = /json|html|text/.test(type) ? raw.toString('utf8').split(to.origin).join(origin) : null;
            const out = text === null ? raw : Buffer.from(text, 'utf8');
            const headers = { ...answer.headers, 'content-length': String(out.length) };
            if (typeof headers.location === 'string') headers.location = headers.location.split(to.origin).join(origin);
            delete headers['transfer-encoding'];
            res.writeHead(answer.statusCode ?? 502, headers);
            res.end(out);
          });
        },
      );
      upstream.on('error', () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      upstream.end(body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    closeIdle: () => server.closeIdleConnections(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
