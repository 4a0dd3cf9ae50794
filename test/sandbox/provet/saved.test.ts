// The Provet double with a data folder: the day's notes and check-ins and the vets' sign-ins
// outlive a restart of the sandbox, the file holds no token, and a file of another day gives
// back the sign-ins only.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/index.ts';
import { api, send, signInToProvet, type Page } from './support.ts';

const dir = mkdtempSync(join(tmpdir(), 'provet-double-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the Provet double with a data folder', () => {
  it('keeps the notes, the check-ins and the sign-ins across a restart, and writes no token to disk', async () => {
    const first = await startSandbox({ dataDir: dir, scribeSeconds: 0 });
    const tokens = await signInToProvet(first);
    const consultation = first.provet.checkIn(302);
    if (!consultation) throw new Error('no appointment 302');
    const made = await send('POST', api(first, `consultation/${consultation.id}/consultationnote/`), {
      token: tokens.access_token,
      json: { patient: api(first, 'patient/202/'), text: 'Luna: vomiting, settled.' },
    });
    expect(made.status).toBe(201);
    await first.close();

    const text = readFileSync(join(dir, 'provet-state.json'), 'utf8');
    expect(text).not.toContain(tokens.access_token);
    expect(text).not.toContain(tokens.refresh_token);

    const second = await startSandbox({ dataDir: dir, scribeSeconds: 0 });
    try {
      const notes = await send<Page<{ text: string }>>(
        'GET',
        api(second, `consultation/${consultation.id}/consultationnote/`),
        { token: tokens.access_token },
      );
      expect(notes.status).toBe(200);
      expect(notes.json.results.map((n) => n.text)).toEqual(['Luna: vomiting, settled.']);
      const appointment = await send<{ consultation: string }>('GET', api(second, 'appointment/302/'), {
        token: tokens.access_token,
      });
      expect(appointment.json.consultation).toBe(api(second, `consultation/${consultation.id}/`));
      const refreshed = await send('POST', `${second.provet.address}/oauth2/token/`, {
        form: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: second.provet.clientId },
      });
      expect(refreshed.status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it("a saved day other than today gives back the sign-ins, and today's appointments afresh", async () => {
    const file = join(dir, 'provet-state.json');
    const first = await startSandbox({ dataDir: dir, scribeSeconds: 0 });
    const tokens = await signInToProvet(first);
    await first.close();
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { data: { day: string } };
    saved.data.day = '2001-01-01';
    writeFileSync(file, JSON.stringify(saved));

    const second = await startSandbox({ dataDir: dir, scribeSeconds: 0 });
    try {
      const appointment = await send<{ consultation: string | null }>('GET', api(second, 'appointment/302/'), {
        token: tokens.access_token,
      });
      expect(appointment.status).toBe(200);
      expect(appointment.json.consultation).toBeNull();
      expect(second.provet.notes()).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it('a file that is not its state is set aside: the double starts afresh', async () => {
    writeFileSync(join(dir, 'provet-state.json'), '{"version": 7}');
    const s = await startSandbox({ dataDir: dir, scribeSeconds: 0 });
    try {
      const tokens = await signInToProvet(s);
      expect((await send('GET', api(s, 'appointment/301/'), { token: tokens.access_token })).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
