// The status board (src/main/core/jobs/status-board.ts) against the real sandbox over HTTP:
// several consults in flight are looked at through one GET /scribe/all read rather than one
// GET /scribe/get/{id} each per round, and when the list is missing, failing, paged oddly or
// does not show a job, the jobs are asked for one by one and every note still arrives.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { MAX_PAGES } from '../../../../src/main/core/jobs/status-board.ts';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.ts';
import { COLLEAGUE_ACCOUNT } from '../../../../src/sandbox/state.ts';
import { firstTemplateId, makeRecording, startCoreAgainst, waitForJob } from '../../../support/core.ts';
import { forward } from '../../../support/http.ts';

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string;
  status: number;
}

/** A proxy in front of the sandbox that counts what passes, and answers GET /scribe/all as a test asks. */
interface ListProxy {
  urls: { agentsUrl: string; scribeUrl: string; agentsApiUrl: string };
  seen: Seen[];
  /** A status to answer GET /scribe/all with instead of the sandbox's list. */
  refuseList: number | null;
  /** Changes the sandbox's list page on its way back. */
  rewriteList: ((page: { items: { public_id: string }[]; has_next: boolean }) => unknown) | null;
  /** The scribe ids the sandbox gave, in order. */
  scribeIds: string[];
  count(method: string, part: string): number;
  close(): Promise<void>;
}

async function startListProxy(target: Sandbox): Promise<ListProxy> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const seen: Seen = {
      method: req.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      authorization: String(req.headers.authorization ?? ''),
      status: 0,
    };
    proxy.seen.push(seen);
    const isList = req.method === 'GET' && url.pathname.endsWith('/scribe/all');
    if (isList && proxy.refuseList !== null) {
      seen.status = proxy.refuseList;
      req.resume();
      res.writeHead(proxy.refuseList, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: 'Not here.' }));
      return;
    }
    forward(req, res, target.origin, (body, answer) => {
      seen.status = answer.statusCode ?? 502;
      let text = body.toString('utf8');
      if (req.method === 'POST' && url.pathname.endsWith('/scribe/request') && seen.status === 200)
        proxy.scribeIds.push((JSON.parse(text) as { public_id: string }).public_id);
      if (isList && proxy.rewriteList && seen.status === 200)
        text = JSON.stringify(proxy.rewriteList(JSON.parse(text) as never));
      return text;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const base = (u: string) => `${origin}${new URL(u).pathname.replace(/\/+$/, '')}`;
  const proxy: ListProxy = {
    urls: {
      agentsUrl: base(target.urls.agents_url),
      scribeUrl: base(target.urls.scribe_url),
      agentsApiUrl: base(target.urls.agents_api_url),
    },
    seen: [],
    refuseList: null,
    rewriteList: null,
    scribeIds: [],
    count: (method, part) => proxy.seen.filter((r) => r.method === method && r.path.includes(part)).length,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  return proxy;
}

const CONSULTS = 4;

describe('the status board', () => {
  const closers: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    while (closers.length) await closers.pop()?.();
  });

  /** Four consults sent at once to a sandbox taking 2 s per note; resolves when all have their notes. */
  async function fourConsults(
    setUp: (proxy: ListProxy) => void = () => {},
    statusBoard = true,
    now: (() => number) | undefined = undefined,
  ) {
    const s = await startSandbox({ scribeSeconds: 2, rateLimitPerMinute: 0 });
    closers.push(() => s.close());
    const proxy = await startListProxy(s);
    closers.push(() => proxy.close());
    setUp(proxy);
    const c: AppCore = await startCoreAgainst(s, {
      urls: proxy.urls,
      pipeline: { pollDelay: () => 250, statusBoard, ...(now ? { now } : {}) },
    });
    closers.push(() => c.stop());
    await c.session.signIn(s.demo.email, s.demo.password);
    const template = await firstTemplateId(c);
    const ids: string[] = [];
    for (let i = 0; i < CONSULTS; i++)
      ids.push(await makeRecording(c, `consult ${i + 1}`, null, { patientName: `Pet ${i + 1}` }));
    await Promise.all(ids.map((id) => c.pipeline.submit(id, template)));
    const jobs = await Promise.all(
      ids.map((id) => waitForJob(c, id, (j) => j.state === 'completed' || j.state === 'failed', 30_000)),
    );
    for (const job of jobs) expect(job.state, job.error?.message).toBe('completed');
    for (const [i, id] of ids.entries()) expect(c.pipeline.note(id).note).toContain(`Pet ${i + 1}`);
    return { proxy, c };
  }

  it('looks at several consults through one list read, asking a job itself only for its written note', async () => {
    const alone = await fourConsults(() => {}, false);
    const oneByOne = alone.proxy.count('GET', '/scribe/get/');
    expect(alone.proxy.count('GET', '/scribe/all')).toBe(0);

    const { proxy, c } = await fourConsults();
    const lists = proxy.count('GET', '/scribe/all');
    const gets = proxy.count('GET', '/scribe/get/');
    expect(lists).toBeGreaterThan(0);
    // A job is asked for by itself for its note (and, at the end, when it is the last in flight).
    expect(gets).toBeLessThan(CONSULTS * 3);
    expect(lists + gets).toBeLessThan(oneByOne / 2);
    expect(c.pipeline.counters.statusPages).toBe(lists);
    // Newest first, one page at a time, with the signed-in vet's token as every other call.
    const tokens = new Set(proxy.seen.filter((r) => r.path.includes('/scribe/')).map((r) => r.authorization));
    expect(tokens.size).toBe(1);
    for (const r of proxy.seen.filter((x) => x.path.endsWith('/scribe/all'))) expect(r.query.get('page')).toBe('1');
  });

  it("a list read is fresh for a second of real time, whatever the pipeline's clock says (held still here)", async () => {
    const held = Date.now();
    const { proxy } = await fourConsults(
      () => {},
      true,
      () => held,
    );
    // Every note arrived (checked inside); the list was read more than once, not one read for ever.
    expect(proxy.count('GET', '/scribe/all')).toBeGreaterThan(1);
  });

  it('asks each job by itself when the list fails, or is missing', async () => {
    for (const status of [500, 404]) {
      const { proxy } = await fourConsults((p) => (p.refuseList = status));
      // Asked once; then left alone for a while rather than failing every round.
      expect(proxy.count('GET', '/scribe/all'), `answered ${status}`).toBe(1);
      expect(proxy.count('GET', '/scribe/get/')).toBeGreaterThan(CONSULTS * 2);
    }
  });

  it('asks a job the list does not show by itself, and the others through the list', async () => {
    const { proxy } = await fourConsults((p) => {
      p.rewriteList = (page) => ({ ...page, items: page.items.filter((x) => x.public_id !== p.scribeIds[0]) });
    });
    const hidden = proxy.scribeIds[0]!;
    const getsOf = (id: string) => proxy.count('GET', `/scribe/get/${id}`);
    expect(getsOf(hidden)).toBeGreaterThan(2);
    expect(proxy.count('GET', '/scribe/all')).toBeGreaterThan(0);
    for (const id of proxy.scribeIds.slice(1)) expect(getsOf(id)).toBeLessThan(getsOf(hidden));
  });

  it('stops reading a list that pages oddly (empty pages, or the same items again, that say more follow)', async () => {
    for (const odd of ['empty', 'repeated'] as const) {
      const { proxy } = await fourConsults((p) => {
        p.rewriteList = (page) => ({ ...page, items: odd === 'empty' ? [] : page.items.slice(0, 1), has_next: true });
      });
      const pages = proxy.seen.filter((r) => r.path.endsWith('/scribe/all')).map((r) => Number(r.query.get('page')));
      expect(pages.length, odd).toBeGreaterThan(0);
      expect(Math.max(...pages), odd).toBeLessThanOrEqual(Math.min(2, MAX_PAGES));
    }
  });

  it("lists each account's consults with that account's own sign-in (a hand-over with consults in flight)", async () => {
    const s = await startSandbox({ scribeSeconds: 4, rateLimitPerMinute: 0 });
    closers.push(() => s.close());
    const proxy = await startListProxy(s);
    closers.push(() => proxy.close());
    const c: AppCore = await startCoreAgainst(s, {
      urls: proxy.urls,
      pipeline: { pollDelay: () => 250 },
    });
    closers.push(() => c.stop());
    const h = createHandlers(c);
    const send = async (names: string[]) => {
      const template = await firstTemplateId(c);
      const ids = [];
      for (const name of names) ids.push(await makeRecording(c, name, null, { patientName: name }));
      await Promise.all(ids.map((id) => c.pipeline.submit(id, template)));
      await Promise.all(ids.map((id) => waitForJob(c, id, (j) => j.state === 'scribe_requested')));
      return ids;
    };
    await c.session.signIn(s.demo.email, s.demo.password);
    const leaving = c.session.state().user!.id;
    const theirs = await send(['Bella', 'Rex']);
    await h['session:switchUser'](undefined);
    await c.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    const colleague = c.session.state().user!.id;
    const mine = await send(['Milo', 'Luna']);
    for (const id of [...theirs, ...mine])
      expect((await waitForJob(c, id, (j) => j.state === 'completed' || j.state === 'failed', 30_000)).state).toBe(
        'completed',
      );
    const listedBy = new Set(
      proxy.seen
        .filter((r) => r.path.endsWith('/scribe/all'))
        .map((r) => {
          const payload = r.authorization.replace(/^Bearer /, '').split('.')[1] ?? '';
          return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: string }).sub;
        }),
    );
    expect([...listedBy].sort()).toEqual([leaving, colleague].sort());
  });
});
