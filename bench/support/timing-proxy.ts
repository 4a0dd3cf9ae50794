// A pass-through HTTP proxy in front of the sandbox process that notes when each request
// arrives (wall clock, so it compares with moments taken in the window), for figures the
// app's own process cannot be asked for, such as Stop -> the scribe request. Bodies are
// streamed both ways untouched.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ArrivedRequest {
  method: string;
  path: string;
  /** Date.now() when the request's head arrived. */
  at: number;
}

export interface TimingProxy {
  origin: string;
  readonly arrived: ArrivedRequest[];
  close(): Promise<void>;
}

export async function startTimingProxy(target: string): Promise<TimingProxy> {
  const to = new URL(target);
  const arrived: ArrivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    arrived.push({ method: req.method ?? '', path: req.url ?? '', at: Date.now() });
    const upstream = request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    arrived,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
