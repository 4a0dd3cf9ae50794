// The client over real HTTP against a local stand-in that answers as the service is published
// (docs/service.md): the exact request each operation sends (method, path, headers, body), and how
// the published answers, and the published error shapes, come back to the app.
import type { IncomingHttpHeaders } from 'node:http';
import { beforeEach, describe, expect, it } from 'vitest';
import { Agents, MEDICATION_NEEDS_SPECIES } from '../../../../src/main/core/agents/agents.ts';
import { Organization } from '../../../../src/main/core/agents/organization.ts';
import { MemorySecretStore } from '../../../../src/main/core/sign-in/secret-store.ts';
import { ServiceClient } from '../../../../src/main/core/service/client.ts';
import { ServiceError } from '../../../../src/main/core/service/errors.ts';
import { Session } from '../../../../src/main/core/sign-in/session.ts';
import { Refusal } from '../../../../src/main/core/platform/index.ts';
import { serverForFile } from '../../../support/http.ts';

interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

type Answer = { status?: number; json: unknown };

const TOKEN = 'access.token.value';
const SECRET = 'whsec-0123456789abcdef';
const seen: Seen[] = [];
// What the stand-in answers, by "METHOD /path" (the query left out); set per test.
let answers: Record<string, Answer> = {};
const logLines: string[] = [];

const PUBLISHED: Record<string, Answer> = {
  'POST /agents/auth/sign-in': {
    json: {
      access_token: TOKEN,
      refresh_token: 'refresh.token.value',
      token_type: 'bearer',
      expires_at: Math.floor(Date.now() / 1000) + 3600,
      user: { id: 'u1', email: 'vet@riverside.test', name: 'Dr Vet', organization_id: 'o1' },
    },
  },
  'POST /scribe/recording-sessions/create': {
    json: {
      public_id: 'rs-1',
      updated_at: '2026-11-25T09:14:00Z',
      patient_name: 'Bella',
      description: '',
      organization_public_id: 'o1',
    },
  },
  'GET /scribe/templates/all': {
    json: {
      items: [{ public_id: 't1', name: 'SOAP', description: 'Subjective, objective, assessment, plan' }],
      has_next: false,
      current_page: 2,
      items_per_page: 10,
    },
  },
  'POST /scribe/audio/generate-upload-url': {
    json: {
      url: 'https://bucket.s3.amazonaws.com/audio/rs-1.webm?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20261125T091500Z&X-Amz-Expires=3600&X-Amz-Signature=abc',
      message: 'Upload URL generated',
    },
  },
  'POST /scribe/scribe/request': { json: { public_id: 'sc-1', message: 'Scribe requested' } },
  'GET /scribe/scribe/get/sc-1': {
    json: {
      public_id: 'sc-1',
      transcript_public_id: 'tr-1',
      template_public_id: 't1',
      status: 'scribed',
      categories_output: [
        { category: 'Subjective', content: 'Vomiting since yesterday.' },
        { category: 'Plan', content: 'Bland diet.' },
      ],
      rtf_output: '{\\rtf1\\ansi {\\b Subjective}\\par Vomiting since yesterday.}',
    },
  },
  'POST /api/medication_agent_v2': {
    json: {
      status: true,
      reason: 'Drug and species named',
      response: {
        'Plain English Concise': 'Meloxicam can be used in dogs.',
        'Plain English Summary': 'An NSAID given once daily.',
        'Medication Details': {
          Meloxicam: { drug_name_and_classification: 'Meloxicam (NSAID)', dosing_by_species: 'Dog: 0.1 mg/kg q24h' },
        },
      },
    },
  },
  'GET /scribe/users/me': {
    json: { public_id: 'u1', email: 'vet@riverside.test', name: 'Dr Vet', organization_public_id: 'o1' },
  },
  'GET /scribe/organizations/get': {
    json: {
      public_id: 'o1',
      name: 'Riverside Vets',
      description: 'Small animals',
      has_slack_bot_token: false,
      slack_channel: null,
      email_notification: 'notes@riverside.test',
    },
  },
  'PUT /scribe/webhook/update': {
    json: {
      message: 'Webhook updated',
      data: { public_id: 'w1', event_type: 'scribe', is_active: true, organization_public_id: 'o1' },
    },
  },
};

const standIn = serverForFile((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const url = new URL(req.url ?? '/', 'http://x');
    const raw = Buffer.concat(chunks).toString('utf8');
    seen.push({
      method: req.method ?? '',
      path: `${url.pathname}${url.search}`,
      headers: req.headers,
      body: raw === '' ? undefined : (JSON.parse(raw) as unknown),
    });
    const answer = answers[`${req.method} ${url.pathname}`] ?? { status: 404, json: { detail: 'Not Found' } };
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(answer.json));
  });
});

beforeEach(() => {
  seen.length = 0;
  logLines.length = 0;
  answers = { ...PUBLISHED };
});

const client = () =>
  new ServiceClient({
    urls: () => ({
      agentsUrl: `${standIn.origin}/agents`,
      scribeUrl: `${standIn.origin}/scribe/`,
      agentsApiUrl: `${standIn.origin}/api`,
    }),
    timeoutMs: 5000,
    log: (line) => logLines.push(line),
  });

function only(): Seen {
  expect(seen).toHaveLength(1);
  return seen[0] as Seen;
}

/** The one request sent: by `method` to `path`, with the headers every call to the scribing API carries with a token. */
function onlyAuthorised(method: string, path: string): Seen {
  const req = only();
  expect([req.method, req.path]).toEqual([method, path]);
  expectAuthorised(req.headers);
  return req;
}

async function failure(p: Promise<unknown>): Promise<ServiceError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ServiceError);
  return e as ServiceError;
}

/** The headers every call to the scribing API carries with a token. */
function expectAuthorised(headers: IncomingHttpHeaders) {
  expect(headers['authorization']).toBe(`Bearer ${TOKEN}`);
  expect(headers['x-api-version']).toBe('v1');
}

describe('the requests the client sends, as published', () => {
  it('POST /recording-sessions/create: patient_name, description (empty when none) and session_date, and reads the bare answer', async () => {
    const session = await client().createRecordingSession(TOKEN, {
      patientName: 'Bella',
      description: '',
      recordingSessionDate: '2026-11-25',
    });
    const req = onlyAuthorised('POST', '/scribe/recording-sessions/create');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body).toEqual({ patient_name: 'Bella', description: '', session_date: '2026-11-25' });
    expect(session.id).toBe('rs-1');
  });

  it('GET /templates/all: pages with page and limit, and says whether another page follows', async () => {
    const page = await client().templates(TOKEN, 2, 10);
    const req = only();
    expect([req.method, req.path, req.body]).toEqual(['GET', '/scribe/templates/all?page=2&limit=10', undefined]);
    expectAuthorised(req.headers);
    expect(page).toEqual({
      items: [{ id: 't1', name: 'SOAP', description: 'Subjective, objective, assessment, plan' }],
      page: 2,
      limit: 10,
      hasNext: false,
    });
  });

  it('POST /audio/generate-upload-url: the session only, the template only when scribing should start by itself; the expiry from the address', async () => {
    const upload = await client().uploadUrl(TOKEN, { recordingSessionId: 'rs-1' });
    expect(only().body).toEqual({ recording_session_public_id: 'rs-1' });
    expectAuthorised(only().headers);
    expect(upload.uploadUrl).toContain('X-Amz-Signature=abc');
    expect(upload.expiresAt).toBe(Date.UTC(2026, 10, 25, 9, 15, 0) / 1000 + 3600);
    expect(upload.fileKey).toBeUndefined();
    seen.length = 0;
    await client().uploadUrl(TOKEN, { recordingSessionId: 'rs-1', autoScribeTemplateId: 't1' });
    expect(only().body).toEqual({ recording_session_public_id: 'rs-1', auto_scribe_template_public_id: 't1' });
  });

  it('POST /scribe/request: exactly the two documented fields, with the Idempotency-Key header', async () => {
    const request = await client().requestScribe(TOKEN, {
      recordingSessionId: 'rs-1',
      templateId: 't1',
      idempotencyKey: 'idem-42',
    });
    const req = onlyAuthorised('POST', '/scribe/scribe/request');
    expect(req.headers['idempotency-key']).toBe('idem-42');
    expect(req.body).toEqual({ recording_session_public_id: 'rs-1', template_public_id: 't1' });
    expect(request.id).toBe('sc-1');
  });

  it('GET /scribe/get/{id}: the published record, its categories kept as sent and its RTF', async () => {
    const record = await client().getScribe(TOKEN, 'sc-1');
    expect([only().method, only().path]).toEqual(['GET', '/scribe/scribe/get/sc-1']);
    expect(record).toEqual({
      id: 'sc-1',
      status: 'scribed',
      categories: [
        { category: 'Subjective', content: 'Vomiting since yesterday.' },
        { category: 'Plan', content: 'Bland diet.' },
      ],
      rtf: '{\\rtf1\\ansi {\\b Subjective}\\par Vomiting since yesterday.}',
    });
  });

  it('GET /users/me and GET /organizations/get', async () => {
    expect(await client().me(TOKEN)).toEqual({
      id: 'u1',
      email: 'vet@riverside.test',
      name: 'Dr Vet',
      organizationId: 'o1',
    });
    expect(await client().organization(TOKEN)).toMatchObject({
      id: 'o1',
      name: 'Riverside Vets',
      emailNotification: 'notes@riverside.test',
    });
    expect(seen.map((s) => `${s.method} ${s.path} ${String(s.body)}`)).toEqual([
      'GET /scribe/users/me undefined',
      'GET /scribe/organizations/get undefined',
    ]);
    for (const s of seen) expectAuthorised(s.headers);
  });

  it('the medication agent: { input } to the agents API, read like the other agents', async () => {
    const result = await client().medication(TOKEN, 'meloxicam for a 20 kg dog');
    const req = onlyAuthorised('POST', '/api/medication_agent_v2');
    expect(req.body).toEqual({ input: 'meloxicam for a 20 kg dog' });
    expect(result).toEqual({
      status: true,
      reason: 'Drug and species named',
      concise: 'Meloxicam can be used in dogs.',
      summary: 'An NSAID given once daily.',
      medications: [
        { label: 'Meloxicam', drugNameAndClassification: 'Meloxicam (NSAID)', dosingBySpecies: 'Dog: 0.1 mg/kg q24h' },
      ],
    });
  });

  it('PUT /webhook/update: event type, address and secret, and the secret in no log line', async () => {
    const answer = await client().registerWebhook(TOKEN, { url: 'https://clinic.test/hooks/scribe', secret: SECRET });
    const req = onlyAuthorised('PUT', '/scribe/webhook/update');
    expect(req.body).toEqual({
      event_type: 'scribe',
      webhook_url: 'https://clinic.test/hooks/scribe',
      auth_token: SECRET,
    });
    expect(answer.webhook).toEqual({ id: 'w1', eventType: 'scribe', isActive: true, organizationId: 'o1' });
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(SECRET);
  });
});

describe('the published errors, as one sentence', () => {
  it('a webhook refusal that quotes the secret gives the sentence without it, and no log line has it', async () => {
    answers['PUT /scribe/webhook/update'] = {
      status: 422,
      json: {
        detail: [{ loc: ['body', 'auth_token'], msg: `Value error, ${SECRET} is too weak`, type: 'value_error' }],
      },
    };
    const e = await failure(
      client().registerWebhook(TOKEN, { url: 'https://clinic.test/hooks/scribe', secret: SECRET }),
    );
    expect([e.status, e.code]).toEqual([422, 'value_error']);
    expect(e.message).toBe('The service refused the request: auth token: value error, [secret] is too weak.');
    expect(`${e.message} ${String(e.cause ?? '')} ${logLines.join(' ')}`).not.toContain(SECRET);
  });

  it('a FastAPI 422 names the fields in plain words, with the type as code', async () => {
    answers['POST /scribe/recording-sessions/create'] = {
      status: 422,
      json: {
        detail: [
          { loc: ['body', 'patient_name'], msg: 'Field required', type: 'missing' },
          {
            loc: ['body', 'session_date'],
            msg: 'Input should be a valid date in the format YYYY-MM-DD',
            type: 'date_from_datetime_parsing',
          },
        ],
      },
    };
    const e = await failure(
      client().createRecordingSession(TOKEN, { patientName: '', description: '', recordingSessionDate: '25/11/2026' }),
    );
    expect([e.kind, e.operation, e.status, e.code]).toEqual(['http', 'recording-session-create', 422, 'missing']);
    expect(e.message).toBe(
      'The service refused the request: patient name is missing; session date: input should be a valid date in the format YYYY-MM-DD.',
    );
  });

  it('{ detail: text } and { error, message }', async () => {
    answers['GET /scribe/users/me'] = { status: 401, json: { detail: 'Could not validate credentials' } };
    const e = await failure(client().me(TOKEN));
    expect([e.status, e.message, e.unauthorized]).toEqual([401, 'Could not validate credentials', true]);
    answers['GET /scribe/scribe/get/sc-9'] = { status: 404, json: { error: 404, message: 'Scribe not found' } };
    const missing = await failure(client().getScribe(TOKEN, 'sc-9'));
    expect([missing.status, missing.code, missing.message]).toEqual([404, '404', 'Scribe not found']);
  });

  it('an answer that fits no published shape names the operation and the field', async () => {
    answers['GET /scribe/scribe/get/sc-1'] = {
      json: { public_id: 'sc-1', status: 'scribed', categories_output: 'Subjective: vomiting' },
    };
    const e = await failure(client().getScribe(TOKEN, 'sc-1'));
    expect(e.kind).toBe('invalid_answer');
    expect(e.message).toMatch(/scribe-get: field "categories_output" must be an array, got string/);
  });
});

describe('Agents and Organization: the extra operations with their input checked first', () => {
  async function signedIn(saved: string[] = []) {
    const c = client();
    const session = new Session({ client: c, store: new MemorySecretStore() });
    await session.signIn('vet@riverside.test', 'correct horse');
    seen.length = 0;
    const options = { saveWebhookSecret: async (secret: string) => void saved.push(secret) };
    return { agents: new Agents(c, session, options), organization: new Organization(c, session, options) };
  }

  it('the medication agent wants input and a species; a drug it cannot recognise is still sent', async () => {
    const { agents: clinical } = await signedIn();
    expect(() => clinical.medication('   ')).toThrow(Refusal);
    expect(() => clinical.medication('meloxicam 0.1 mg/kg')).toThrow(MEDICATION_NEEDS_SPECIES);
    expect(seen).toHaveLength(0);
    await clinical.medication('  zorbamycin for a cat ');
    expect(only().body).toEqual({ input: 'zorbamycin for a cat' });
  });

  it('the organization in force', async () => {
    const { organization } = await signedIn();
    expect((await organization.get()).emailNotification).toBe('notes@riverside.test');
  });

  it('a webhook: https and a long enough secret before anything is sent; then the secret is kept', async () => {
    const saved: string[] = [];
    const { organization } = await signedIn(saved);
    await expect(organization.registerWebhook({ url: 'http://clinic.test/hooks', secret: SECRET })).rejects.toThrow(
      /must start with https:\/\//,
    );
    await expect(organization.registerWebhook({ url: 'clinic hooks', secret: SECRET })).rejects.toThrow(
      /not a web address/,
    );
    await expect(organization.registerWebhook({ url: 'https://clinic.test/hooks', secret: 'short' })).rejects.toThrow(
      /at least 16 characters/,
    );
    expect(seen).toHaveLength(0);
    expect(saved).toEqual([]);
    const webhook = await organization.registerWebhook({ url: 'https://clinic.test/hooks', secret: SECRET });
    expect(webhook.isActive).toBe(true);
    expect(only().body).toEqual({ event_type: 'scribe', webhook_url: 'https://clinic.test/hooks', auth_token: SECRET });
    expect(saved).toEqual([SECRET]);
  });

  it('a refusal that quotes the secret has it taken out, and nothing is kept', async () => {
    const saved: string[] = [];
    const { organization } = await signedIn(saved);
    answers['PUT /scribe/webhook/update'] = {
      status: 400,
      json: { detail: `auth_token ${SECRET} is already used by another organization` },
    };
    const e = await failure(organization.registerWebhook({ url: 'https://clinic.test/hooks', secret: SECRET }));
    expect(e.message).toBe('auth_token [secret] is already used by another organization');
    expect(saved).toEqual([]);
  });
});
