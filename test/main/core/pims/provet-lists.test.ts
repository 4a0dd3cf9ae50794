// Provet's lists (src/main/core/pims/provet/lists.ts, requests.ts): the filter grammar with its
// dates' '+' sent as %2B, every page followed from `next` on a small loopback server of the
// test's own, a 429 waited out for as long as Retry-After says, a `next` to another address
// never followed with the vet's token, and Provet's error statuses read into the port's codes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  listUrl,
  localDay,
  provetAppointment,
  provetDateTime,
  provetGet,
  provetInstance,
  readProvet,
  readProvetPages,
} from '../../../../src/main/core/pims/index.ts';
import { serverForFile } from '../../../support/http.ts';
import { pimsFailure as failure } from './support.ts';

describe('list addresses', () => {
  const api = provetInstance('https://provetcloud.com/54321').api;

  it('writes dates as YYYY-MM-DD hh:mm+hh:mm, at the offset given', () => {
    const at = new Date('2026-11-28T07:05:00Z');
    expect(provetDateTime(at, 120)).toBe('2026-11-28 09:05+02:00');
    expect(provetDateTime(at, -300)).toBe('2026-11-28 02:05-05:00');
    expect(provetDateTime(at, 330)).toBe('2026-11-28 12:35+05:30');
    expect(provetDateTime(at, 0)).toBe('2026-11-28 07:05+00:00');
  });

  it('sends the + of a date as %2B, the filter as field__op, and the page size up to 1,000', () => {
    const url = listUrl(api, 'appointment', {
      filters: [
        { field: 'start', op: 'gte', value: '2026-11-28 00:00+02:00' },
        { field: 'user', op: 'is', value: 7 },
        { field: 'active', op: 'is', value: true },
      ],
      pageSize: 5000,
    });
    expect(url).toBe(
      'https://provetcloud.com/54321/api/0.1/appointment/?start__gte=2026-11-28+00%3A00%2B02%3A00&user__is=7&active__is=true&page_size=1000',
    );
    // Read back as a server reads a query, the date is whole: the '+' is not a space.
    expect(new URL(url).searchParams.get('start__gte')).toBe('2026-11-28 00:00+02:00');
    expect(listUrl(api, 'patient', { expose: ['client'] })).toBe(
      'https://provetcloud.com/54321/api/0.1/patient/?expose_client=',
    );
  });

  it('refuses a field or resource name that is not one', () => {
    expect(() => listUrl(api, 'appointment', { filters: [{ field: 'start&x', op: 'gte', value: '1' }] })).toThrow(
      /not a Provet field name/,
    );
    expect(() => listUrl(api, '../user', {})).toThrow(/not a Provet resource name/);
  });

  it('gives a local day’s two ends each with its own offset, across a clock change', () => {
    const tz = process.env['TZ'];
    process.env['TZ'] = 'Europe/Helsinki';
    try {
      expect(localDay('2026-11-28')).toMatchObject({ from: '2026-11-28 00:00+02:00', to: '2026-11-29 00:00+02:00' });
      // Clocks go forward on 29 March 2026 in Helsinki: the day starts at +02:00 and ends at +03:00.
      expect(localDay('2026-03-29')).toMatchObject({ from: '2026-03-29 00:00+02:00', to: '2026-03-30 00:00+03:00' });
    } finally {
      if (tz === undefined) delete process.env['TZ'];
      else process.env['TZ'] = tz;
    }
    expect(() => localDay('2026-02-30')).toThrow(/not a day written as YYYY-MM-DD/);
    expect(() => localDay('28.11.2026')).toThrow(/not a day/);
  });
});

describe('reading every page on a loopback server', () => {
  type Handler = (req: IncomingMessage, res: ServerResponse) => void;
  let handler: Handler = () => undefined;
  const seen: { path: string; auth: string | undefined }[] = [];
  const standIn = serverForFile((req, res) => {
    seen.push({ path: req.url ?? '', auth: req.headers.authorization });
    handler(req, res);
  });
  beforeEach(() => {
    seen.length = 0;
  });

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const appointment = (id: number) => ({
    id,
    url: `${standIn.origin}/54321/api/0.1/appointment/${id}/`,
    start: '2026-11-28T09:00:00+02:00',
    end: '2026-11-28T09:20:00+02:00',
    user: `${standIn.origin}/54321/api/0.1/user/7/`,
    patients: [`${standIn.origin}/54321/api/0.1/patient/${id + 100}/`],
    consultation: null,
    some_new_member: { added: 'later' },
  });
  /** A Provet list page of `results`, `count` in all over `numPages`, its next page at `next`. */
  const sendPage = (res: ServerResponse, count: number, numPages: number, next: string | null, results: unknown[]) =>
    send(res, 200, { count, num_pages: numPages, next, previous: null, results });
  // Three pages of two, built from the query as Provet would: `next` a full address.
  const pages = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', standIn.origin);
    const n = Number(url.searchParams.get('page') ?? '1');
    const next = new URL(url);
    next.searchParams.set('page', String(n + 1));
    sendPage(res, 6, 3, n < 3 ? next.toString() : null, [appointment(n * 10 + 1), appointment(n * 10 + 2)]);
  };
  const read = (first: string) =>
    readProvetPages(
      first,
      (url) => provetGet(url, 'tok-1'),
      (raw) => readProvet(provetAppointment, 'an appointment', raw),
    );

  it('follows next to the last page, with the token on each request and the filters kept', async () => {
    handler = pages;
    const first = listUrl(`${standIn.origin}/54321/api/0.1/`, 'appointment', {
      filters: [{ field: 'start', op: 'gte', value: '2026-11-28 00:00+02:00' }],
      pageSize: 2,
    });
    const { items, count } = await read(first);
    expect(items.map((a) => a.id)).toEqual(['11', '12', '21', '22', '31', '32']);
    expect(count).toBe(6);
    expect(seen).toHaveLength(3);
    for (const s of seen) {
      expect(s.auth).toBe('Bearer tok-1');
      expect(s.path).toContain('start__gte=2026-11-28+00%3A00%2B02%3A00');
    }
  });

  it('waits out a 429 for as long as Retry-After says, then goes on from the same page', async () => {
    let limited = false;
    handler = (req, res) => {
      if (req.url?.includes('page=2') && !limited) {
        limited = true;
        send(res, 429, { detail: 'Request was throttled.' }, { 'retry-after': '1' });
        return;
      }
      pages(req, res);
    };
    const started = Date.now();
    const { items } = await read(`${standIn.origin}/54321/api/0.1/appointment/?page_size=2`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(items).toHaveLength(6);
    expect(seen.map((s) => new URL(s.path, standIn.origin).searchParams.get('page'))).toEqual([null, '2', '2', '3']);
  });

  it('gives up on a 429 that asks for a longer wait than allowed, saying how long', async () => {
    handler = (_req, res) => send(res, 429, { detail: 'Request was throttled.' }, { 'retry-after': '600' });
    const e = await failure(read(`${standIn.origin}/54321/api/0.1/appointment/`));
    expect(e.code).toBe('rate_limited');
    expect(e.retryAfterMs).toBe(600_000);
    expect(seen).toHaveLength(1);
  });

  it('never follows a next page at another address with the vet’s token', async () => {
    handler = (_req, res) =>
      sendPage(res, 4, 2, 'https://elsewhere.example/54321/api/0.1/appointment/?page=2', [appointment(1)]);
    const e = await failure(read(`${standIn.origin}/54321/api/0.1/appointment/`));
    expect(e.code).toBe('invalid_answer');
    expect(e.message).toMatch(/next page at another address/);
    expect(seen).toHaveLength(1);
  });

  it('keeps an item met twice once, and stops on a next page it has already read', async () => {
    handler = (req, res) =>
      sendPage(res, 2, 2, `${standIn.origin}${new URL(req.url ?? '/', standIn.origin).pathname}?page=2`, [
        appointment(1),
        appointment(1),
      ]);
    const { items } = await read(`${standIn.origin}/54321/api/0.1/appointment/`);
    expect(items.map((a) => a.id)).toEqual(['1']);
    expect(seen).toHaveLength(2);
  });

  it('refuses a page that is not Provet’s page shape', async () => {
    handler = (_req, res) => send(res, 200, [appointment(1)]);
    const e = await failure(read(`${standIn.origin}/54321/api/0.1/appointment/`));
    expect(e.code).toBe('invalid_answer');
  });

  it.each([
    [401, { detail: 'Authentication credentials were not provided.' }, 'signed_out', /^Sign in to Provet again\.$/],
    [
      403,
      { detail: 'You do not have permission to perform this action.' },
      'permission',
      /ask the clinic's Provet administrator/,
    ],
    [404, { detail: 'Not found.' }, 'not_found', /no longer has/],
    [
      400,
      { note: ['This field may not be blank.'] },
      'refused',
      /^Provet refused what was sent: note: This field may not be blank\.$/,
    ],
    [502, {}, 'unreachable', /failed on its side \(HTTP 502\)/],
  ])('reads HTTP %i as %s', async (status, body, code, words) => {
    handler = (_req, res) => send(res, status, body);
    const e = await failure(provetGet(`${standIn.origin}/54321/api/0.1/consultation/1/`, 't'));
    expect(e.code).toBe(code);
    expect(e.message).toMatch(words);
    if (status === 400) expect(e.fieldErrors).toEqual({ note: ['This field may not be blank.'] });
  });
});
