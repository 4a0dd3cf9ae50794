// The Provet double's REST API over real HTTP: today's appointments by vet with every page
// followed, the filter grammar and its dates (a `+` must be sent as %2B), expose_, trailing
// slashes, a patient checked in and a consultation's status, and the per-endpoint 429.
import { beforeAll, describe, expect, it } from 'vitest';
import { PROVET_USERS } from '../../../src/sandbox/index.ts';
import { api, provetSandbox, send, signInToProvet, type Page } from './support.ts';

const world = provetSandbox();
let token = '';
beforeAll(async () => {
  token = (await signInToProvet(world.sandbox)).access_token;
});

/** A local midnight in Provet's query format, its `+` sent as %2B. */
function localMidnight(dayOffset = 0, { encodePlus = true } = {}): string {
  const d = new Date();
  const day = new Date(d.getFullYear(), d.getMonth(), d.getDate() + dayOffset);
  const pad = (n: number) => String(Math.abs(n)).padStart(2, '0');
  const offset = -day.getTimezoneOffset();
  const sign = offset >= 0 ? (encodePlus ? '%2B' : '+') : '-';
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}%20${'00:00'}${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}

type Appointment = {
  id: number;
  url: string;
  start: string;
  user: string;
  patients: (string | { name: string; species: string })[];
  client: string | { firstname: string };
  consultation: string | null;
  active: boolean;
  complaint: string;
};

/** Every page of a list, following `next`. */
async function all<T>(first: string): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let url: string | null = first;
  let pages = 0;
  while (url) {
    const page: { status: number; json: Page<T>; text: string } = await send<Page<T>>('GET', url, { token });
    expect(page.status, page.text).toBe(200);
    items.push(...page.json.results);
    url = page.json.next;
    pages += 1;
  }
  return { items, pages };
}

const today = () => `start__gte=${localMidnight(0)}&start__lt=${localMidnight(1)}`;

describe("today's appointments", () => {
  it("lists the demo vet's active appointments of today over several pages", async () => {
    const s = world.sandbox;
    const first = await send<Page<Appointment>>(
      'GET',
      api(s, `appointment/?${today()}&user__is=11&active__is=true&page_size=2`),
      {
        token,
      },
    );
    expect(first.json).toMatchObject({ count: 4, num_pages: 2, previous: null });
    expect(first.json.next).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/provet\/4321\/api\/0\.1\/appointment\/\?.*page=2/);
    const { items, pages } = await all<Appointment>(
      api(s, `appointment/?${today()}&user__is=11&active__is=true&page_size=2`),
    );
    expect(pages).toBe(2);
    expect(items.map((a) => a.id).sort()).toEqual([301, 302, 303, 304]);
    expect(items.every((a) => a.user === api(s, 'user/11/'))).toBe(true);
    // Times carry the instance's offset, and fall today.
    expect(items[0]?.start).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
  });

  it("lists a second vet's appointments apart", async () => {
    const { items } = await all<Appointment>(api(world.sandbox, `appointment/?${today()}&user__is=12`));
    expect(items.map((a) => a.id)).toEqual([305, 306]);
    const assisting = await all<Appointment>(api(world.sandbox, `appointment/?${today()}&additional_users__is=11`));
    expect(assisting.items.map((a) => a.id)).toEqual([305]);
  });

  it("a date sent with an unencoded '+' reads as a space and is refused naming the parameter", async () => {
    const url = api(world.sandbox, `appointment/?start__gte=${localMidnight(0, { encodePlus: false })}`);
    const answer = await send<Record<string, string[]>>('GET', url, { token });
    if (url.includes('+')) {
      expect(answer.status).toBe(400);
      expect(answer.json['start__gte']?.[0]).toMatch(/%2B/);
    } else {
      // West of Greenwich the offset is written with '-': nothing to decode wrongly.
      expect(answer.status).toBe(200);
    }
    const utc = await send<Record<string, string[]>>(
      'GET',
      api(world.sandbox, 'appointment/?start__gte=2026-01-01%2000:00+00:00'),
      { token },
    );
    expect(utc.status).toBe(400);
    expect(Object.keys(utc.json)).toEqual(['start__gte']);
  });

  it('ignores a filter it does not know, as Provet may, and takes id__in with or without brackets', async () => {
    const s = world.sandbox;
    const everything = await send<Page>('GET', api(s, 'appointment/'), { token });
    const unknown = await send<Page>('GET', api(s, 'appointment/?colour__is=blue&user__sounds_like=x'), { token });
    expect(unknown.json.count).toBe(everything.json.count);
    for (const list of ['[203,204]', '203,204']) {
      const patients = await send<Page<{ name: string }>>('GET', api(s, `patient/?id__in=${list}`), { token });
      expect(patients.json.results.map((p) => p.name)).toEqual(['Max', 'Milo']);
    }
    const bad = await send('GET', api(s, 'patient/?id__in=[203,x]'), { token });
    expect(bad.status).toBe(400);
    const notIn = await send<Page<Appointment>>('GET', api(s, `appointment/?user__is=12&consultation__is_null=true`), {
      token,
    });
    expect(notIn.json.results.map((x) => x.id)).toEqual([306]);
    const range = await send<Page<Appointment>>(
      'GET',
      api(s, `appointment/?start__range=[${localMidnight(0)},${localMidnight(1)}]&user__is_not=11`),
      { token },
    );
    expect(range.json.results.map((x) => x.id)).toEqual([305, 306]);
  });

  it('inlines the patients and the client with expose_, and links them otherwise', async () => {
    const s = world.sandbox;
    const plain = await send<Appointment>('GET', api(s, 'appointment/303/'), { token });
    expect(plain.json.patients).toEqual([api(s, 'patient/203/'), api(s, 'patient/204/')]);
    expect(plain.json.client).toBe(api(s, 'client/103/'));
    const exposed = await send<Appointment>('GET', api(s, 'appointment/303/?expose_patients&expose_client'), { token });
    expect(exposed.json.patients).toEqual([
      expect.objectContaining({ id: 203, name: 'Max', species: 'Dog (Canine - Domestic)' }),
      expect.objectContaining({ id: 204, name: 'Milo', species: 'Cat (Feline - Domestic)' }),
    ]);
    expect(exposed.json.client).toMatchObject({ id: 103, firstname: 'Priya', lastname: 'Shah' });
  });

  it('pages: a page past the end is 404 "Invalid page."', async () => {
    const answer = await send('GET', api(world.sandbox, 'client/?page=99'), { token });
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({ detail: 'Invalid page.' });
  });

  it('needs the trailing slash: without it a 301 to the path with it; an unknown path is 404', async () => {
    const s = world.sandbox;
    const answer = await send('GET', `${s.provet.address}/api/0.1/appointment?user__is=11`, { token });
    expect(answer.status).toBe(301);
    expect(answer.headers['location']).toBe('/provet/4321/api/0.1/appointment/?user__is=11');
    expect((await send('GET', api(s, 'nothing/'), { token })).status).toBe(404);
    expect((await send('GET', `${s.origin}/provet/9999/api/0.1/appointment/`, { token })).status).toBe(404);
  });
});

describe('check-in and status', () => {
  it('a patient not checked in has no consultation until checked in; then its status moves by update_status', async () => {
    const s = world.sandbox;
    const before = await send<Appointment>('GET', api(s, 'appointment/302/'), { token });
    expect(before.json.consultation).toBeNull();
    const checkedIn = await send<{ consultation: { id: number; status: number } }>(
      'POST',
      `${s.provet.address}/sandbox-control/appointment/302/check_in/`,
    );
    expect(checkedIn.status).toBe(200);
    expect(checkedIn.json.consultation.status).toBe(0);
    const id = checkedIn.json.consultation.id;
    const after = await send<Appointment>('GET', api(s, 'appointment/302/'), { token });
    expect(after.json.consultation).toBe(api(s, `consultation/${id}/`));

    const moved = await send<{ status: number }>('POST', api(s, `consultation/${id}/update_status/`), {
      token,
      json: { status: 8 },
    });
    expect(moved.status).toBe(200);
    expect(moved.json.status).toBe(8);
    const wrong = await send('POST', api(s, `consultation/${id}/update_status/`), { token, json: { status: 42 } });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toEqual({ status: ['"42" is not a valid choice.'] });
    const filtered = await send<Page>('GET', api(s, `consultation/?id__is=${id}&status__is=8`), { token });
    expect(filtered.json.count).toBe(1);
  });
});

describe("the double's own routes", () => {
  it('lists every note it holds for an end-to-end spec, as stored', async () => {
    const s = world.sandbox;
    const wrote = await send('POST', api(s, 'consultation/401/consultationnote/'), {
      token,
      json: { patient: api(s, 'patient/201/'), text: 'Listed by the control route.' },
    });
    expect(wrote.status).toBe(201);
    const listed = await send<{ results: { text: string }[] }>('GET', `${s.provet.address}/sandbox-control/notes/`);
    expect(listed.status).toBe(200);
    expect(listed.json.results).toEqual(s.provet.notes());
    expect(listed.json.results.map((n) => n.text)).toContain('Listed by the control route.');
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After per endpoint over a rolling minute, a big page counting as several', async () => {
    const s = world.sandbox;
    const signedIn = await signInToProvet(s, PROVET_USERS.colleague);
    const mine = signedIn.access_token;
    s.options.provetRateLimit = 3;
    try {
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 4; i++) {
        last = await send('GET', api(s, 'patient/201/'), { token: mine });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      const wait = Number(last?.headers['retry-after']);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
      expect(last?.json['detail']).toMatch(/throttled/);
      // The budget is the vet's, not the token's: a refreshed token does not start a new one.
      const refreshed = await send<{ access_token: string }>('POST', `${s.provet.address}/oauth2/token/`, {
        form: { grant_type: 'refresh_token', refresh_token: signedIn.refresh_token, client_id: s.provet.clientId },
      });
      expect((await send('GET', api(s, 'patient/201/'), { token: refreshed.json.access_token })).status).toBe(429);
      // Another endpoint has its own budget; a page of 150 costs three default pages.
      const token2 = refreshed.json.access_token;
      expect((await send('GET', api(s, 'client/?page_size=150'), { token: token2 })).status).toBe(200);
      expect((await send('GET', api(s, 'client/'), { token: token2 })).status).toBe(429);
    } finally {
      s.options.provetRateLimit = null;
    }
  });
});

describe('the front desk moving a visit', () => {
  it('moves an appointment to another day, its length kept, or onto another pet; an opened consultation keeps its pets', async () => {
    const s = world.sandbox;
    const before = await send<Appointment & { end: string }>('GET', api(s, 'appointment/305/'), { token });
    const start = Date.parse(before.json.start);
    const tomorrow = start + 24 * 3_600_000;
    expect(s.provet.moveAppointment(305, { start: tomorrow, patients: [207] })).toBe(true);
    try {
      const after = await send<Appointment & { end: string }>('GET', api(s, 'appointment/305/'), { token });
      expect(Date.parse(after.json.start)).toBe(tomorrow);
      expect(Date.parse(after.json.end) - Date.parse(after.json.start)).toBe(
        Date.parse(before.json.end) - Date.parse(before.json.start),
      );
      expect(after.json.patients).toEqual([api(s, 'patient/207/')]);
      expect(after.json.client).toBe(api(s, 'client/106/'));
      const consultation = await send<{ patients: string[] }>('GET', api(s, 'consultation/405/'), { token });
      expect(consultation.json.patients).toEqual([api(s, 'patient/206/')]);
    } finally {
      s.provet.moveAppointment(305, { start, patients: [206] });
    }
    expect(s.provet.moveAppointment(999, { start })).toBe(false);
    expect(s.provet.moveAppointment(305, { patients: [999] })).toBe(false);
    expect(s.provet.moveAppointment(305, { patients: [] })).toBe(false);
  });
});
