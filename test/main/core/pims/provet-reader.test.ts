// The Provet adapter's reading half (src/main/core/pims/provet/reader.ts) against a small
// loopback server of the test's own that answers Provet's appointment, patient and consultation
// addresses with Provet's shapes. It ignores the day filter, as Provet may ignore a filter it does
// not know, so the reader is seen to check what it got: a fault the sandbox's Provet double, which
// honours its filters, cannot show. The vet signs in at the double, through its sign-in page, and
// this server takes a token only when the double's REST API takes it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  localDay,
  PimsTokens,
  provetInstance,
  provetOAuthClient,
  ProvetReader,
  signInWithBrowser,
  type ProvetInstance,
} from '../../../../src/main/core/pims/index.ts';
import { MemorySecretStore } from '../../../../src/main/core/sign-in/index.ts';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.ts';
import { browse } from './provet-double.ts';

const DAY = '2026-11-28';
const HOUR = 3_600_000;

let s: Sandbox;
let origin = '';
let instance: ProvetInstance;
const seen: string[] = [];
const patients = new Map<string, { name: string; species: string }>([
  ['790', { name: 'Miso', species: 'Cat (Feline - Domestic)' }],
  ['791', { name: 'Tofu', species: 'Cat (Feline - Domestic)' }],
  ['792', { name: 'Rex', species: 'Dog (Canine - Domestic)' }],
  ['793', { name: 'Old', species: 'Dog (Canine - Domestic)' }],
]);

function appointments(): Record<string, unknown>[] {
  const day = localDay(DAY).start.getTime();
  const at = (h: number) => new Date(day + h * HOUR).toISOString();
  const rel = (what: string, id: number | string) => `${origin}/54321/api/0.1/${what}/${id}/`;
  const one = (id: number, h: number, vet: number, pets: (number | string)[], extra: Record<string, unknown> = {}) => ({
    id,
    url: rel('appointment', id),
    start: at(h),
    end: at(h + 0.25),
    title: `Visit ${id}`,
    complaint: '',
    user: rel('user', vet),
    patients: pets.map((p) => rel('patient', p)),
    consultation: null,
    active: true,
    ...extra,
  });
  return [
    one(1, 11, 8, [792]),
    one(2, 10, 7, [790, 791], { consultation: rel('consultation', 338) }),
    one(3, 9, 7, [792]),
    // Yesterday's, sent all the same by a server that ignored the filter.
    one(4, -3, 7, [793]),
    // Cancelled.
    one(5, 12, 7, [792], { active: false }),
    // A pet removed from Provet since it was booked.
    one(6, 13, 7, [999]),
  ];
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Whether the double's REST API takes the token, as the instance that issued it. */
async function takenAtDouble(authorization: string): Promise<boolean> {
  const answer = await request(`${s.provet.address}/api/0.1/user/11/`, { headers: { authorization } });
  await answer.body.text();
  return answer.statusCode === 200;
}

const api = createServer((req, res) => void answer(req, res));

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  seen.push(url.pathname + url.search);
  if (!(await takenAtDouble(req.headers.authorization ?? ''))) {
    send(res, 401, { detail: 'The access token is invalid or has expired.' });
    return;
  }
  const m = /^\/54321\/api\/0\.1\/(appointment|patient|consultation)\/(?:(\d+)\/)?$/.exec(url.pathname);
  if (!m) return send(res, 404, { detail: 'Not found.' });
  const [, what, id] = m;
  if (what === 'appointment' && !id)
    return send(res, 200, { count: 6, num_pages: 1, next: null, previous: null, results: appointments() });
  if (what === 'appointment') {
    const a = appointments().find((x) => String(x['id']) === id);
    return a ? send(res, 200, a) : send(res, 404, { detail: 'Not found.' });
  }
  if (what === 'patient') {
    const p = patients.get(id ?? '');
    return p
      ? send(res, 200, { id: Number(id), url: `${origin}${url.pathname}`, breed: 'None', ...p })
      : send(res, 404, { detail: 'Not found.' });
  }
  return send(res, 200, {
    url: `${origin}${url.pathname}`,
    patients: [`${origin}/54321/api/0.1/patient/790/`, `${origin}/54321/api/0.1/patient/791/`],
    status: 10,
  });
}

let tokens: PimsTokens;
beforeAll(async () => {
  s = await startSandbox({ scribeSeconds: 0 });
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  // The API on this server, the sign-in at the double: one instance as the reader sees it.
  const signInAt = provetInstance(s.provet.address);
  instance = {
    ...provetInstance(`${origin}/54321`),
    authorizeUrl: signInAt.authorizeUrl,
    tokenUrl: signInAt.tokenUrl,
    revokeUrl: signInAt.revokeUrl,
  };
  const client = provetOAuthClient(signInAt, s.provet.clientId);
  tokens = new PimsTokens({
    store: new MemorySecretStore(),
    account: { service: 'https://scribe.example', userId: 'u-hale', instance: instance.base },
    client,
  });
  await tokens.save(await signInWithBrowser({ client, openBrowser: (u) => browse(s, u) }));
});
afterAll(async () => {
  api.closeAllConnections();
  await new Promise((r) => api.close(r));
  await s?.close();
});
beforeEach(() => {
  seen.length = 0;
});

describe('reading a day from Provet', () => {
  it('lists the day’s active appointments with every pet named, the vet’s own first, and asks with the day’s filter', async () => {
    const reader = new ProvetReader({ instance, tokens });
    const day = await reader.todaysAppointments({ id: '7' }, DAY);
    expect(day.map((a) => [a.id, a.vet?.id, a.patients.map((p) => p.name)])).toEqual([
      ['3', '7', ['Rex']],
      ['2', '7', ['Miso', 'Tofu']],
      ['6', '7', ['']],
      ['1', '8', ['Rex']],
    ]);
    expect(day[1]?.consultationId).toBe('338');
    expect(day[1]?.patients[0]).toEqual({ id: '790', name: 'Miso', species: 'Cat (Feline - Domestic)' });
    const { from, to } = localDay(DAY);
    const list = new URL(seen[0] ?? '', origin);
    expect(list.searchParams.get('start__gte')).toBe(from);
    expect(list.searchParams.get('start__lt')).toBe(to);
    expect(seen[0]).toContain('%2B');
    expect(list.searchParams.has('expose_patients')).toBe(true);
    // Each pet read once, however many appointments it is in; none for the cancelled or yesterday's.
    const reads = seen.filter((s) => s.includes('/patient/')).sort();
    expect(reads).toEqual(['790', '791', '792', '999'].map((id) => `/54321/api/0.1/patient/${id}/`));
  });

  it('refreshes once when Provet no longer takes the token, and goes on', async () => {
    const before = await tokens.load();
    // Provet withdrew the access token (RFC 7009); the refresh token still works.
    const withdrawn = await request(`${s.provet.address}/oauth2/revoke_token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: before!.accessToken, client_id: s.provet.clientId }).toString(),
    });
    await withdrawn.body.text();
    const reader = new ProvetReader({ instance, tokens });
    expect(await reader.patient('792')).toEqual({ id: '792', name: 'Rex', species: 'Dog (Canine - Domestic)' });
    expect((await tokens.load())?.accessToken).not.toBe(before?.accessToken);
    expect(seen).toEqual(['/54321/api/0.1/patient/792/', '/54321/api/0.1/patient/792/']);
  });

  it('finds an appointment’s consultation, or none before check-in', async () => {
    const reader = new ProvetReader({ instance, tokens });
    expect(await reader.findConsultation('2')).toEqual({ id: '338', patientIds: ['790', '791'], finalized: true });
    expect(await reader.findConsultation('3')).toBeNull();
    await expect(reader.findConsultation('../user')).rejects.toThrow('"../user" is not a Provet id.');
  });
});
