// A front in front of a recording proxy (or any origin) that passes every request on at once and
// can hold the answer of chosen ones until the test lets it go: a slow service, for the moment a
// test needs something to happen (a switch of user) while a request is out. It can also refuse
// a chosen request on cue, as the service would, without passing it on.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forward } from './http.ts';

export interface HeldFront {
  /** The three base addresses, through the front. */
  urls: { agentsUrl: string; scribeUrl: string; agentsApiUrl: string };
  /** Holds the answers of requests whose method and path match, from now on. */
  hold(method: string, path: RegExp): void;
  /** How many answers are held now. */
  held(): number;
  /**
   * Answers the next request whose method and path match with this status and JSON body, without
   * passing it on; resolves with that request's headers (whose token it carried).
   */
  refuseNext(method: string, path: RegExp, status: number, body: unknown): Promise<IncomingHttpHeaders>;
  /** Lets every held answer go, and holds no more. */
  release(): void;
  close(): Promise<void>;
}

export async function startHeldFront(
  origin: string,
  urls: { agentsUrl: string; scribeUrl: string; agentsApiUrl: string },
): Promise<HeldFront> {
  let rule: { method: string; path: RegExp } | null = null;
  let waiting: (() => void)[] = [];
  let refusal: {
    method: string;
    path: RegExp;
    status: number;
    body: string;
    seen: (headers: IncomingHttpHeaders) => void;
  } | null = null;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '';
    if (refusal !== null && req.method === refusal.method && refusal.path.test(path)) {
      const { status, body, seen } = refusal;
      refusal = null;
      req.resume();
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
      seen({ ...req.headers });
      return;
    }
    const holdIt = rule !== null && req.method === rule.method && rule.path.test(path);
    forward(req, res, origin, undefined, (send) => {
      if (holdIt && rule !== null) waiting.push(send);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const front = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const through = (url: string) => `${front}${new URL(url).pathname}`;
  const held: HeldFront = {
    urls: {
      agentsUrl: through(urls.agentsUrl),
      scribeUrl: through(urls.scribeUrl),
      agentsApiUrl: through(urls.agentsApiUrl),
    },
    hold(method, path) {
      rule = { method, path };
    },
    held: () => waiting.length,
    refuseNext: (method, path, status, body) =>
      new Promise((seen) => {
        refusal = { method, path, status, body: JSON.stringify(body), seen };
      }),
    release() {
      rule = null;
      const go = waiting;
      waiting = [];
      for (const send of go) send();
    },
    async close() {
      held.release();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return held;
}
