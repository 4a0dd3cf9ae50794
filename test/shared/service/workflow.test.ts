import { describe, expect, it } from 'vitest';
import {
  parseRecordingSession,
  parseScribeRecord,
  parseScribeRequest,
  parseTemplatesPage,
  parseUploadUrl,
  presignedExpiry,
  scribeStatusKind,
  type RecordingSessionWire,
  type ScribeRecordWire,
  type ScribeRequestResponseWire,
  type TemplatesResponseWire,
  type UploadUrlResponseWire,
} from '../../../src/shared/service/index.ts';
import { expectFailure, fixture } from '../../support/service-answers.ts';

const dataOf = (name: string) => fixture(name)['data'] as Record<string, unknown>;

describe('parseRecordingSession (POST /recording-sessions/create)', () => {
  it('reads the published answer, a bare object', () => {
    const wire: RecordingSessionWire = {
      public_id: '3f0f5b8e-1d2c-4b6a-9e8f-0a1b2c3d4e5f',
      updated_at: '2026-11-25T09:30:00Z',
      patient_name: 'Bella',
      description: 'Vomiting for two days',
      organization_public_id: 'org-1',
    };
    expect(parseRecordingSession(wire)).toEqual({ id: '3f0f5b8e-1d2c-4b6a-9e8f-0a1b2c3d4e5f' });
  });

  it('reads the sandbox answer', () => {
    expect(parseRecordingSession(fixture('recording-session-create.json'))).toEqual({
      id: '9d1c7e52-3a4b-4c5d-8e6f-7a8b9c0d1e2f',
      createdAt: '2026-01-01T09:30:00.000Z',
    });
  });

  it('takes id instead of public_id, bare, and a created_at in Unix seconds', () => {
    expect(parseRecordingSession({ id: 'abc', created_at: 1767259800, extra: [1] })).toEqual({
      id: 'abc',
      createdAt: '2026-01-01T09:30:00.000Z',
    });
    expect(parseRecordingSession({ id: 17 })).toEqual({ id: '17' });
  });

  it('fails on a malformed answer', () => {
    expectFailure(
      () => parseRecordingSession({ message: 'created', data: {} }),
      'recording-session-create',
      'data.public_id',
      'field "data.public_id" (or "id") is missing',
    );
    expectFailure(
      () => parseRecordingSession({ public_id: true }),
      'recording-session-create',
      'public_id',
      'must be a string, got boolean',
    );
    expectFailure(
      () => parseRecordingSession({ public_id: '  ' }),
      'recording-session-create',
      'public_id',
      'must not be empty',
    );
    expectFailure(
      () => parseRecordingSession({ public_id: 'a', created_at: {} }),
      'recording-session-create',
      'created_at',
      'must be a date (text or Unix seconds), got object',
    );
    expectFailure(() => parseRecordingSession('ok'), 'recording-session-create', '', 'must be an object, got string');
  });
});

describe('parseTemplatesPage (GET /templates/all)', () => {
  const expected = [
    {
      id: 'soap',
      name: 'SOAP note',
      description: 'Subjective, objective, assessment, plan',
      sections: ['Subjective', 'Objective', 'Assessment', 'Plan'],
    },
    { id: 'vaccination', name: 'Vaccination visit', description: 'Wellness exam and vaccines given' },
    { id: 'dental', name: 'Dental' },
  ];

  it('reads the sandbox answer with its paging', () => {
    expect(parseTemplatesPage(fixture('templates.json'))).toEqual({ items: expected, page: 1, limit: 50, total: 3 });
  });

  it('reads the published page: has_next, current_page, items_per_page, no total', () => {
    const wire: TemplatesResponseWire = {
      items: [{ public_id: 't1', name: 'SOAP', description: 'd' }],
      has_next: true,
      current_page: 2,
      items_per_page: 1,
    };
    expect(parseTemplatesPage(wire)).toEqual({
      items: [{ id: 't1', name: 'SOAP', description: 'd' }],
      page: 2,
      limit: 1,
      hasNext: true,
    });
    expect(parseTemplatesPage({ ...wire, has_next: false }).hasNext).toBe(false);
    expectFailure(
      () => parseTemplatesPage({ ...wire, has_next: 'yes' }),
      'templates',
      'has_next',
      'must be true or false',
    );
  });

  it('reads a bare array', () => {
    expect(parseTemplatesPage(dataOf('templates.json')['items'])).toEqual({ items: expected });
  });

  it.each(['items', 'results', 'templates', 'data'])('reads the list under "%s", bare and inside { data }', (key) => {
    const list = dataOf('templates.json')['items'];
    expect(parseTemplatesPage({ [key]: list, total: '3' })).toEqual({ items: expected, total: 3 });
    expect(parseTemplatesPage({ message: 'ok', data: { [key]: list } })).toEqual({ items: expected });
  });

  it('takes id for public_id and section objects by title', () => {
    expect(
      parseTemplatesPage([{ id: 9, name: 'Exam', sections: [{ title: 'History' }, { name: 'Findings' }, 'Plan'] }]),
    ).toEqual({
      items: [{ id: '9', name: 'Exam', sections: ['History', 'Findings', 'Plan'] }],
    });
  });

  it('drops unreadable sections rather than the template', () => {
    expect(parseTemplatesPage([{ id: 't', name: 'Exam', sections: 'History' }])).toEqual({
      items: [{ id: 't', name: 'Exam' }],
    });
  });

  it('reads an empty list', () => {
    expect(parseTemplatesPage({ data: { items: [], page: 3, limit: 50, total: 2 } })).toEqual({
      items: [],
      page: 3,
      limit: 50,
      total: 2,
    });
  });

  it('fails on a malformed answer, naming the list element', () => {
    expectFailure(() => parseTemplatesPage(null), 'templates', '', 'must be an object, got null');
    expectFailure(
      () => parseTemplatesPage({ message: 'ok' }),
      'templates',
      'items',
      'field "items" (or "results" or "templates" or "data") is missing',
    );
    expectFailure(() => parseTemplatesPage({ data: { rows: [] } }), 'templates', 'data.items', 'is missing');
    expectFailure(
      () => parseTemplatesPage([{ public_id: 't', name: 'a' }, { public_id: 'u' }]),
      'templates',
      '[1].name',
      'field "[1].name" is missing',
    );
    expectFailure(
      () => parseTemplatesPage({ results: [{ id: 't', name: 5 }] }),
      'templates',
      'results[0].name',
      'must be a string, got number',
    );
    expectFailure(
      () => parseTemplatesPage({ data: { items: [{ name: 'x' }] } }),
      'templates',
      'data.items[0].public_id',
      '(or "id") is missing',
    );
    expectFailure(() => parseTemplatesPage({ items: [], total: -1 }), 'templates', 'total', 'must not be negative');
    expectFailure(
      () => parseTemplatesPage({ items: [], page: 'first' }),
      'templates',
      'page',
      'must be a number, got string',
    );
  });
});

describe('parseUploadUrl (POST /audio/generate-upload-url)', () => {
  it('reads the published { url, message }, its expiry from the presigned address (AWS v4)', () => {
    const url =
      'https://bucket.s3.amazonaws.com/recordings/a.webm?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F20261125%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261125T093000Z&X-Amz-Expires=900&X-Amz-SignedHeaders=host&X-Amz-Signature=' +
      'a'.repeat(64);
    const wire: UploadUrlResponseWire = { url, message: 'Upload URL generated' };
    expect(parseUploadUrl(wire)).toEqual({ uploadUrl: url, expiresAt: Date.UTC(2026, 10, 25, 9, 45, 0) / 1000 });
  });

  it('reads an expiry from the other presigned forms, and none from an address without one', () => {
    expect(
      presignedExpiry(
        'https://storage.googleapis.com/b/o?X-Goog-Date=20261125T093000Z&X-Goog-Expires=60&X-Goog-Signature=ab',
      ),
    ).toBe(Date.UTC(2026, 10, 25, 9, 31, 0) / 1000);
    expect(presignedExpiry('https://bucket.s3.amazonaws.com/o?AWSAccessKeyId=A&Expires=1795600000&Signature=x')).toBe(
      1795600000,
    );
    expect(presignedExpiry('https://x.test/o?x-amz-date=20261125T093000Z&x-amz-expires=30')).toBe(
      Date.UTC(2026, 10, 25, 9, 30, 30) / 1000,
    );
    expect(presignedExpiry('https://x.test/o?X-Amz-Date=yesterday&X-Amz-Expires=30')).toBeUndefined();
    expect(presignedExpiry('https://x.test/o?X-Amz-Date=20261125T093000Z&X-Amz-Expires=-5')).toBeUndefined();
    expect(presignedExpiry('https://x.test/o')).toBeUndefined();
    expect(presignedExpiry('not a url')).toBeUndefined();
    // An expiry the service states wins over the address's own.
    expect(
      parseUploadUrl({ url: 'https://x.test/o?X-Amz-Date=20261125T093000Z&X-Amz-Expires=30', expires_at: 1795600000 })
        .expiresAt,
    ).toBe(1795600000);
  });

  it('reads the sandbox answer', () => {
    const data = dataOf('upload-url.json');
    expect(parseUploadUrl(fixture('upload-url.json'))).toEqual({
      uploadUrl: data['upload_url'],
      fileKey: data['file_key'],
      expiresAt: 1767226500,
    });
  });

  it('takes url and key, an ISO expiry and the headers to send', () => {
    expect(
      parseUploadUrl({
        url: 'https://bucket.example.test/k?sig=1',
        key: 'k',
        expires_at: '2026-01-01T00:15:00Z',
        headers: { 'x-amz-acl': 'private' },
      }),
    ).toEqual({
      uploadUrl: 'https://bucket.example.test/k?sig=1',
      fileKey: 'k',
      expiresAt: 1767226500,
      headers: { 'x-amz-acl': 'private' },
    });
  });

  it('fails on a malformed answer', () => {
    expectFailure(
      () => parseUploadUrl({ data: { file_key: 'k' } }),
      'upload-url',
      'data.upload_url',
      'field "data.upload_url" (or "url") is missing',
    );
    expectFailure(() => parseUploadUrl({ upload_url: 12 }), 'upload-url', 'upload_url', 'must be a string, got number');
    expectFailure(
      () => parseUploadUrl({ upload_url: '/storage/k' }),
      'upload-url',
      'upload_url',
      'must be an absolute http(s) URL',
    );
    expectFailure(
      () => parseUploadUrl({ url: 'file:///etc/passwd' }),
      'upload-url',
      'url',
      'must be an absolute http(s) URL',
    );
    expectFailure(
      () => parseUploadUrl({ url: 'https://x.test/', headers: { a: 1 } }),
      'upload-url',
      'headers.a',
      'must be a string, got number',
    );
    expectFailure(
      () => parseUploadUrl({ url: 'https://x.test/', expires_at: true }),
      'upload-url',
      'expires_at',
      'must be a number, got boolean',
    );
    expectFailure(() => parseUploadUrl([]), 'upload-url', '', 'must be an object, got array');
  });
});

describe('parseScribeRequest (POST /scribe/request)', () => {
  it('reads the published { public_id, message }', () => {
    const wire: ScribeRequestResponseWire = { public_id: 'sc-1', message: 'Scribe requested' };
    expect(parseScribeRequest(wire)).toEqual({ id: 'sc-1' });
  });

  it('reads the sandbox answer', () => {
    expect(parseScribeRequest(fixture('scribe-request.json'))).toEqual({
      id: 'c4d5e6f7-0a1b-4c2d-9e3f-4a5b6c7d8e9f',
      status: 'queued',
    });
  });

  it('reads a bare record without a status', () => {
    expect(parseScribeRequest({ public_id: 'p' })).toEqual({ id: 'p' });
  });

  it('fails on a malformed answer', () => {
    expectFailure(
      () => parseScribeRequest({ message: 'Scribe requested' }),
      'scribe-request',
      'public_id',
      'for scribe-request: field "public_id" (or "id") is missing',
    );
    expectFailure(
      () => parseScribeRequest({ data: { public_id: 'p', status: 3 } }),
      'scribe-request',
      'data.status',
      'must be a string, got number',
    );
  });
});

describe('parseScribeRecord (GET /scribe/get/{id})', () => {
  it('reads a completed record with its note', () => {
    const record = parseScribeRecord(fixture('scribe-get-completed.json'));
    expect(record.id).toBe('c4d5e6f7-0a1b-4c2d-9e3f-4a5b6c7d8e9f');
    expect(record.status).toBe('completed');
    expect(record.note).toMatch(/^## Subjective\n\nSandbox note/);
    expect(record).not.toHaveProperty('error');
  });

  it('reads a failed record with its error', () => {
    expect(parseScribeRecord(fixture('scribe-get-failed.json'))).toEqual({
      id: 'c4d5e6f7-0a1b-4c2d-9e3f-4a5b6c7d8e9f',
      status: 'failed',
      error: 'The recording is empty (0 bytes); there is nothing to transcribe.',
    });
  });

  it('reads the published record: categories_output kept as sent, rtf_output, empty while scribing', () => {
    const scribing: ScribeRecordWire = {
      public_id: 'p',
      transcript_public_id: null,
      template_public_id: 't',
      status: 'scribing',
      categories_output: [],
      rtf_output: null,
    };
    expect(parseScribeRecord(scribing)).toEqual({ id: 'p', status: 'scribing' });
    const categories = [
      { category: 'Subjective', content: 'Bella has vomited twice.' },
      { title: 'Plan', text: ['Maropitant 1 mg/kg SC', 'Recheck in 48 h'] },
    ];
    const scribed = {
      ...scribing,
      status: 'scribed',
      transcript_public_id: 'tr',
      categories_output: categories,
      rtf_output: '{\\rtf1 Bella}',
    };
    expect(parseScribeRecord(scribed)).toEqual({ id: 'p', status: 'scribed', categories, rtf: '{\\rtf1 Bella}' });
    expect(parseScribeRecord({ ...scribed, html_output: '<h2>Plan</h2>' }).html).toBe('<h2>Plan</h2>');
  });

  it('drops categories that are not objects, and refuses categories_output that is not a list', () => {
    expect(
      parseScribeRecord({
        public_id: 'p',
        status: 'scribed',
        categories_output: ['x', null, { category: 'A', content: 'b' }],
      }).categories,
    ).toEqual([{ category: 'A', content: 'b' }]);
    expectFailure(
      () => parseScribeRecord({ public_id: 'p', status: 'scribed', categories_output: 'Subjective: …' }),
      'scribe-get',
      'categories_output',
      'must be an array, got string',
    );
    expectFailure(
      () => parseScribeRecord({ public_id: 'p', status: 'scribed', rtf_output: 5 }),
      'scribe-get',
      'rtf_output',
      'must be a string, got number',
    );
  });

  it('keeps an unknown status verbatim', () => {
    expect(parseScribeRecord({ id: 'p', status: 'Awaiting QA' })).toEqual({ id: 'p', status: 'Awaiting QA' });
  });

  it('writes a note in sections as ## blocks', () => {
    const note = {
      sections: [
        { title: 'Subjective', body: 'Eating less.' },
        { heading: 'Plan', content: 'Recheck.' },
        { body: 'Signed by the sandbox.' },
      ],
    };
    expect(parseScribeRecord({ public_id: 'p', status: 'completed', note }).note).toBe(
      '## Subjective\n\nEating less.\n\n## Plan\n\nRecheck.\n\nSigned by the sandbox.',
    );
  });

  it('takes a note object with one text member, note_text or content, and null as no note', () => {
    expect(parseScribeRecord({ id: 'p', status: 'done', note: { text: 'A' } }).note).toBe('A');
    expect(parseScribeRecord({ id: 'p', status: 'done', note: { markdown: '# B' } }).note).toBe('# B');
    expect(parseScribeRecord({ id: 'p', status: 'done', note_text: 'C' }).note).toBe('C');
    expect(parseScribeRecord({ id: 'p', status: 'done', content: 'D' }).note).toBe('D');
    expect(parseScribeRecord({ id: 'p', status: 'queued', note: null, error: null })).toEqual({
      id: 'p',
      status: 'queued',
    });
    expect(parseScribeRecord({ id: 'p', status: 'done', note: '   ' })).toEqual({ id: 'p', status: 'done' });
  });

  it('takes an error object by its message', () => {
    expect(
      parseScribeRecord({ id: 'p', status: 'failed', error: { message: 'Audio unreadable', code: 'bad_audio' } }).error,
    ).toBe('Audio unreadable');
  });

  it('fails on a malformed answer', () => {
    expectFailure(
      () => parseScribeRecord({ data: { public_id: 'p' } }),
      'scribe-get',
      'data.status',
      'field "data.status" is missing',
    );
    expectFailure(
      () => parseScribeRecord({ public_id: 'p', status: 2 }),
      'scribe-get',
      'status',
      'must be a string, got number',
    );
    expectFailure(
      () => parseScribeRecord({ public_id: 'p', status: 'completed', note: 5 }),
      'scribe-get',
      'note',
      'must be text or { sections: [{ title, body }] }, got number',
    );
    expectFailure(
      () => parseScribeRecord({ public_id: 'p', status: 'failed', error: ['x'] }),
      'scribe-get',
      'error',
      'must be text or { message }, got array',
    );
    expectFailure(() => parseScribeRecord({ status: 'queued' }), 'scribe-get', 'public_id', '(or "id") is missing');
    expectFailure(() => parseScribeRecord(null), 'scribe-get', '', 'got null');
  });
});

describe('scribeStatusKind', () => {
  it.each([
    ['requested', 'queued'],
    ['scribing', 'processing'],
    ['scribed', 'completed'],
    ['Scribed', 'completed'],
    ['queued', 'queued'],
    ['PENDING', 'queued'],
    ['processing', 'processing'],
    ['In Progress', 'processing'],
    ['in-progress', 'processing'],
    ['completed', 'completed'],
    ['Done', 'completed'],
    ['succeeded', 'completed'],
    ['complete', 'completed'],
    ['failed', 'failed'],
    ['ERROR', 'failed'],
    ['cancelled', 'failed'],
    ['awaiting review', 'unknown'],
    ['', 'unknown'],
  ] as const)('%s -> %s', (status, kind) => {
    expect(scribeStatusKind(status)).toBe(kind);
  });
});
