// The Provet adapter's reading half (src/main/core/pims/provet/reader.ts) against a small
// loopback server of the test's own that answers Provet's appointment, patient and consultation
// addresses with Provet's shapes, and checks the vet's token against the OAuth stand-in of
// oauth-stand-in.ts. It ignores the day filter, as Provet may ignore a filter it does not know,
// so the reader is seen to check what it got. Both stand in until the sandbox's Provet double
// can be started here.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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
import { startOAuthStandIn, type OAuthStandIn } from './oauth-stand-in.ts';

const DAY = '2026-11-28';
const HOUR = 3_600_000;

let oauth: OAuthStandIn;
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

const api = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  seen.push(url.pathname + url.search);
  const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
  if (!oauth.validAccess.has(token)) {
    send(res, 401, { detail: 'Authentication credentials were not provided.' });
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
});

let tokens: PimsTokens;
beforeAll(async () => {
  oauth = await startOAuthStandIn();
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  // The API on this server, the sign-in at the stand-in: one instance as the reader sees it.
  const signInAt = provetInstance(oauth.address);
  instance = { ...provetInstance(`${origin}/54321`), authorizeUrl: signInAt.authorizeUrl, tokenUrl: signInAt.tokenUrl };
  const client = provetOAuthClient(signInAt, oauth.clientId);
  tokens = new PimsTokens({
    store: new MemorySecretStore(),
    account: { service: 'https://scribe.example', userId: 'u-hale', instance: instance.base },
    client,
  });
  await tokens.save(
    await signInWithBrowser({ client, openBrowser: async (u) => void (await (await fetch(u)).text()) }),
  );
});
afterAll(async () => {
  api.closeAllConnections();
  await new Promise((r) => api.close(r));
  await oauth.close();
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
    oauth.validAccess.delete(before!.accessToken);
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
