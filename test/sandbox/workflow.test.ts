// The workflow from `POST /recording-sessions/create` to `GET /scribe/get/{id}` against a real
// sandbox over loopback, in the shapes the service publishes: session for a patient, has_next
// pages, the two-field scribe request, requested -> scribing -> scribed with the note as
// categories_output and rtf_output, and the published lists. The upload between them is in
// uploads.test.ts.
import { describe, expect, it } from 'vitest';
import { rtfToSections } from '../../src/shared/note/index.ts';
import { OTHER_ACCOUNT } from '../../src/sandbox/index.ts';
import { call, fakeWebm, recordingSessionBody, signIn, uploadRecording, waitFor } from '../support/http.ts';
import {
  firstTemplate,
  getScribe,
  requestScribe,
  sandboxPerTest,
  scribeAt,
  type Page,
  type Scribe,
  type Template,
  type Validation,
} from './support.ts';

const start = sandboxPerTest();

describe('POST /recording-sessions/create: create a recording session', () => {
  it('takes patient_name, description and session_date and answers the bare session', async () => {
    const s = await start();
    const { access, user } = await signIn(s);
    const a = await call<Record<string, unknown>>('POST', `${s.urls.scribe_url}/recording-sessions/create`, {
      token: access,
      body: recordingSessionBody('Max', 'Vomiting, 2 days'),
    });
    expect(a.status).toBe(200);
    expect(a.json).toEqual({
      public_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      updated_at: expect.any(String),
      patient_name: 'Max',
      description: 'Vomiting, 2 days',
      organization_public_id: user.organization_id,
    });
  });

  it('refuses what the service refuses, with a FastAPI 422 list naming each field', async () => {
    const s = await start();
    const { access } = await signIn(s);
    const post = (body: unknown) =>
      call<Validation>('POST', `${s.urls.scribe_url}/recording-sessions/create`, { token: access, body });
    const old = await post({ name: 'Bella' });
    expect(old.status).toBe(422);
    expect(old.json.detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'patient_name'], msg: 'Field required', type: 'missing' },
        { loc: ['body', 'session_date'], msg: 'Field required', type: 'missing' },
        { loc: ['body', 'name'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
      ]),
    );
    const blank = await post({ ...recordingSessionBody(), patient_name: '   ' });
    expect(blank.json.detail).toEqual([
      { loc: ['body', 'patient_name'], msg: 'String should have at least 1 character', type: 'string_too_short' },
    ]);
    const noDescription = await post({ patient_name: 'Bella', session_date: '2026-11-25' });
    expect(noDescription.json.detail).toEqual([
      { loc: ['body', 'description'], msg: 'Field required', type: 'missing' },
    ]);
    const badDate = await post({ ...recordingSessionBody(), session_date: '2026-02-30' });
    expect(badDate.json.detail).toEqual([
      { loc: ['body', 'session_date'], msg: 'Input should be a valid date', type: 'date_from_datetime_parsing' },
    ]);
    const localDate = await post({ ...recordingSessionBody(), session_date: '25/11/2026' });
    expect(localDate.json.detail).toEqual([
      {
        loc: ['body', 'session_date'],
        msg: expect.stringMatching(/^Input should be a valid date/),
        type: 'date_from_datetime_parsing',
      },
    ]);
    const number = await post({ ...recordingSessionBody(), patient_name: 7 });
    expect(number.json.detail).toEqual([
      { loc: ['body', 'patient_name'], msg: 'Input should be a valid string', type: 'string_type' },
    ]);
    // An empty description is taken: the OpenAPI requires the member, the page lets it be empty.
    expect((await post({ ...recordingSessionBody(), description: '' })).status).toBe(200);
  });

  it('lists and gets the organization sessions, paged, never another organization', async () => {
    const s = await start();
    const { access } = await signIn(s);
    const other = await signIn(s, OTHER_ACCOUNT);
    const mine = await call<{ public_id: string }>('POST', `${s.urls.scribe_url}/recording-sessions/create`, {
      token: access,
      body: recordingSessionBody('Luna'),
    });
    const theirs = await call<{ public_id: string }>('POST', `${s.urls.scribe_url}/recording-sessions/create`, {
      token: other.access,
      body: recordingSessionBody('Rex'),
    });
    const list = await call<Page<{ patient_name: string }>>(
      'GET',
      `${s.urls.scribe_url}/recording-sessions/all?page=1&limit=10`,
      { token: access },
    );
    expect(list.json).toMatchObject({ has_next: false, current_page: 1, items_per_page: 10 });
    expect(list.json.items.map((x) => x.patient_name)).toEqual(['Luna']);
    const got = await call<{ patient_name: string }>(
      'GET',
      `${s.urls.scribe_url}/recording-sessions/get/${mine.json.public_id}`,
      { token: access },
    );
    expect(got.json.patient_name).toBe('Luna');
    const hidden = await call<{ detail: string }>(
      'GET',
      `${s.urls.scribe_url}/recording-sessions/get/${theirs.json.public_id}`,
      { token: access },
    );
    expect([hidden.status, hidden.json.detail]).toEqual([404, 'Recording session not found.']);
  });
});

describe('GET /templates/all: templates', () => {
  it('pages with has_next, current_page and items_per_page, and no total', async () => {
    const s = await start();
    const { access } = await signIn(s);
    const a = await call<Page<Template>>('GET', `${s.urls.scribe_url}/templates/all?page=1&limit=50`, {
      token: access,
    });
    expect(a.status).toBe(200);
    expect(a.json.items.length).toBeGreaterThanOrEqual(8);
    expect(a.json).toMatchObject({ has_next: false, current_page: 1, items_per_page: 50 });
    expect(a.json).not.toHaveProperty('total');
    const names = a.json.items.map((t) => t.name.toLowerCase()).join(' | ');
    for (const kind of ['soap', 'wellness', 'dental', 'surgery', 'discharge']) expect(names).toContain(kind);
    const page2 = await call<Page<Template>>('GET', `${s.urls.scribe_url}/templates/all?page=2&limit=3`, {
      token: access,
    });
    expect(page2.json.items.map((t) => t.public_id)).toEqual(a.json.items.slice(3, 6).map((t) => t.public_id));
    expect(page2.json.has_next).toBe(true);
  });

  it.each([
    ['limit=101', 'limit', 'less_than_equal', 'Input should be less than or equal to 100'],
    ['limit=0', 'limit', 'greater_than_equal', 'Input should be greater than or equal to 1'],
    ['page=0', 'page', 'greater_than_equal', 'Input should be greater than or equal to 1'],
    ['page=abc', 'page', 'int_parsing', 'Input should be a valid integer, unable to parse string as an integer'],
    ['limit=5.5', 'limit', 'int_parsing', 'Input should be a valid integer, unable to parse string as an integer'],
  ])('refuses %s with a FastAPI 422 list naming the query parameter', async (query, name, type, msg) => {
    const s = await start();
    const { access } = await signIn(s);
    for (const path of ['templates/all', 'scribe/all', 'recording-sessions/all']) {
      const a = await call<Validation>('GET', `${s.urls.scribe_url}/${path}?${query}`, { token: access });
      expect([path, a.status, a.json.detail]).toEqual([path, 422, [{ loc: ['query', name], msg, type }]]);
    }
  });
});

describe('POST /scribe/request and GET /scribe/get/{id}: scribe request and status', () => {
  it('takes the two documented fields, answers { public_id, message }, and goes requested -> scribing -> scribed with the note', async () => {
    // 3 s: 600 ms requested, then 2.4 s scribing, wide enough for polls on a busy machine.
    const s = await start({ scribeSeconds: 3 });
    const { access } = await signIn(s);
    const { recordingSessionId } = await uploadRecording(s, access, fakeWebm(64_000), { patientName: 'Bella' });
    const template = await firstTemplate(s, access);
    const r = await call<{ public_id: string; message: string }>('POST', `${s.urls.scribe_url}/scribe/request`, {
      token: access,
      body: { recording_session_public_id: recordingSessionId, template_public_id: template.public_id },
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ public_id: expect.stringMatching(/^[0-9a-f-]{36}$/), message: expect.any(String) });
    const seen = new Set<string>();
    const done = await waitFor(async () => {
      const g = await call<Scribe>('GET', `${s.urls.scribe_url}/scribe/get/${r.json.public_id}`, { token: access });
      expect(g.status).toBe(200);
      seen.add(g.json.status);
      if (g.json.status !== 'scribed') {
        expect(g.json.categories_output).toEqual([]);
        expect(g.json.rtf_output).toBeNull();
      }
      return g.json.status === 'scribed' ? g.json : undefined;
    });
    expect([...seen]).toEqual(['requested', 'scribing', 'scribed']);
    expect(done).toMatchObject({
      public_id: r.json.public_id,
      template_public_id: template.public_id,
      transcript_public_id: expect.any(String),
    });
    expect(done.categories_output[0]?.content).toMatch(
      /^Example note: the sandbox does not listen to the audio\. This SOAP note for Bella/,
    );
    expect(done.categories_output.slice(1).map((c) => c.category)).toEqual([
      'Subjective',
      'Objective',
      'Assessment',
      'Plan',
    ]);
    expect(JSON.stringify(done)).not.toMatch(/would go here|would be/);
    // The RTF is the same note.
    const fromRtf = rtfToSections(done.rtf_output ?? '');
    expect(fromRtf.map((x) => x.heading)).toEqual(['Example note', 'Subjective', 'Objective', 'Assessment', 'Plan']);
    expect(fromRtf[1]?.text).toBe(done.categories_output[1]?.content);
    expect(s.stats().scribeRequests).toBe(1);
  });

  it('writes rtf_output as valid RTF: bold headings, \\par, \\ { } escaped, non-ASCII as \\uN?', async () => {
    const s = await start();
    const { access } = await signIn(s);
    const patient = 'Zoë {Mü\\ller} “Bo” 猫';
    const { recordingSessionId } = await uploadRecording(s, access, fakeWebm(), { patientName: patient });
    const done = await scribeAt(s, access, await requestScribe(s, access, recordingSessionId), 'scribed');
    const rtf = done.rtf_output ?? '';
    expect(rtf.startsWith('{\\rtf1')).toBe(true);
    expect(rtf.trimEnd().endsWith('}')).toBe(true);
    // Plain 7-bit text, every group closed: what a practice-management system can paste.
    expect([...rtf].every((ch) => ch.charCodeAt(0) < 0x80)).toBe(true);
    const unescaped = rtf.trimEnd().replace(/\\[\\{}]/g, '');
    let depth = 0;
    let closedEarly = false;
    for (const [i, ch] of [...unescaped].entries()) {
      depth += ch === '{' ? 1 : ch === '}' ? -1 : 0;
      if (depth <= 0 && i < unescaped.length - 1) closedEarly = true;
    }
    expect([depth, closedEarly]).toEqual([0, false]);
    for (const c of done.categories_output)
      expect(rtf, c.category).toMatch(new RegExp(`\\\\b\\s?${c.category}\\}?\\\\par`));
    expect(rtf.match(/\\par\b/g)?.length).toBeGreaterThanOrEqual(done.categories_output.length * 2);
    // The patient's name, as RTF spells it: \uN? for each non-ASCII character, \\ \{ \} escaped.
    const spelled = 'Zo\\u235? \\{M\\u252?\\\\ller\\} \\u8220?Bo\\u8221? \\u29483?';
    expect(rtf).toContain(spelled);
    expect(rtfToSections(rtf)[1]?.text).toContain(patient);
  });

  it('a job whose file is not audio ends failed, with the reason', async () => {
    const s = await start();
    const { access } = await signIn(s);
    const { recordingSessionId } = await uploadRecording(s, access, Buffer.from('this is not audio at all'));
    const g = await scribeAt(s, access, await requestScribe(s, access, recordingSessionId), 'failed');
    expect(g.error).toMatch(/not audio/);
    expect(g.categories_output).toEqual([]);
  });

  it('with the stall option, a job stays at scribing', async () => {
    const s = await start({ scribeSeconds: 0.2, scribeStall: true });
    const { access } = await signIn(s);
    const { recordingSessionId } = await uploadRecording(s, access, fakeWebm());
    const id = await requestScribe(s, access, recordingSessionId);
    const scribing = await scribeAt(s, access, id, 'scribing');
    expect(scribing.status).toBe('scribing');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await getScribe(s, access, id)).status).toBe('scribing');
  });

  it('refuses unknown sessions and templates, a session with nothing uploaded (409), and the old file_key body', async () => {
    const s = await start();
    const { access } = await signIn(s);
    const { recordingSessionId } = await uploadRecording(s, access, fakeWebm());
    const template = (await firstTemplate(s, access)).public_id;
    const post = (body: unknown) =>
      call<Validation>('POST', `${s.urls.scribe_url}/scribe/request`, { token: access, body });
    const zero = '00000000-0000-4000-8000-000000000000';
    expect((await post({ recording_session_public_id: zero, template_public_id: template })).status).toBe(404);
    expect((await post({ recording_session_public_id: recordingSessionId, template_public_id: 'nope' })).status).toBe(
      404,
    );
    const missing = await post({ recording_session_public_id: recordingSessionId });
    expect(missing.status).toBe(422);
    expect(missing.json.detail).toEqual([
      { loc: ['body', 'template_public_id'], msg: 'Field required', type: 'missing' },
    ]);
    const guessed = await post({
      recording_session_public_id: recordingSessionId,
      template_public_id: template,
      file_key: 'recordings/x',
    });
    expect(guessed.json.detail[0]).toMatchObject({ loc: ['body', 'file_key'], type: 'extra_forbidden' });
    const empty = await call<{ public_id: string }>('POST', `${s.urls.scribe_url}/recording-sessions/create`, {
      token: access,
      body: recordingSessionBody('Nobody'),
    });
    const early = await call('POST', `${s.urls.scribe_url}/scribe/request`, {
      token: access,
      body: { recording_session_public_id: empty.json.public_id, template_public_id: template },
    });
    expect([early.status, early.json['code']]).toEqual([409, 'file_not_uploaded']);
  });

  it('hides another organization records (404) and unknown ids, in get and in /scribe/all', async () => {
    const s = await start();
    const { access } = await signIn(s);
    const other = await signIn(s, OTHER_ACCOUNT);
    const { recordingSessionId } = await uploadRecording(s, access, fakeWebm());
    const id = await requestScribe(s, access, recordingSessionId);
    const theirs = await call('GET', `${s.urls.scribe_url}/scribe/get/${id}`, { token: other.access });
    expect([theirs.status, theirs.json['detail']]).toEqual([404, 'Scribe not found.']);
    expect((await call('GET', `${s.urls.scribe_url}/scribe/get/does-not-exist`, { token: access })).status).toBe(404);
    const mine = await call<Page<{ public_id: string; status: string; organization_public_id: string }>>(
      'GET',
      `${s.urls.scribe_url}/scribe/all`,
      { token: access },
    );
    expect(mine.json.items.map((x) => x.public_id)).toEqual([id]);
    expect(mine.json.items[0]).toMatchObject({
      transcript_public_id: expect.anything(),
      updated_at: expect.any(String),
    });
    const none = await call<Page<unknown>>('GET', `${s.urls.scribe_url}/scribe/all`, { token: other.access });
    expect(none.json.items).toEqual([]);
  });

  it('answers a repeated Idempotency-Key with the same record, not a second job', async () => {
    const s = await start();
    const { access } = await signIn(s);
    const { recordingSessionId } = await uploadRecording(s, access, fakeWebm());
    const body = {
      recording_session_public_id: recordingSessionId,
      template_public_id: (await firstTemplate(s, access)).public_id,
    };
    const headers = { 'idempotency-key': `scribe-${recordingSessionId}` };
    const a = await call<{ public_id: string }>('POST', `${s.urls.scribe_url}/scribe/request`, {
      token: access,
      body,
      headers,
    });
    const b = await call<{ public_id: string }>('POST', `${s.urls.scribe_url}/scribe/request`, {
      token: access,
      body,
      headers,
    });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.json.public_id).toBe(a.json.public_id);
    expect(s.stats().scribeReplays).toBe(1);
    expect(Object.values(s.stats().scribeRecordsByFileKey)).toEqual([1]);
  });
});
