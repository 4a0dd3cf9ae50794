import { describe, expect, it } from 'vitest';
import {
  requestSchemas,
  type ScribeRequestBody,
  type SignInRequest,
  type WebhookStatusRequest,
} from '../../../src/shared/service/index.ts';

const UUID = '9d1c7e52-3a4b-4c5d-8e6f-7a8b9c0d1e2f';

function issues(
  schema: {
    safeParse: (v: unknown) => {
      success: boolean;
      error?: { issues: { path: PropertyKey[]; message: string; code: string }[] };
    };
  },
  value: unknown,
) {
  const result = schema.safeParse(value);
  expect(result.success).toBe(false);
  return (result.error?.issues ?? []).map((i) => ({ path: i.path.join('.'), message: i.message, code: i.code }));
}

describe('requestSchemas', () => {
  it('accept the bodies the client sends', () => {
    const signIn: SignInRequest = { email: ' vet@example-clinic.test ', password: 'demo' };
    expect(requestSchemas.signIn.parse(signIn)).toEqual({ email: 'vet@example-clinic.test', password: 'demo' });
    expect(requestSchemas.refresh.parse({ token: 'r.t.s' })).toEqual({ token: 'r.t.s' });
    const session = { patient_name: 'Bella', description: '', session_date: '2026-11-25' };
    expect(requestSchemas.createRecordingSession.parse(session)).toEqual(session);
    expect(requestSchemas.uploadUrl.parse({ recording_session_public_id: UUID })).toEqual({
      recording_session_public_id: UUID,
    });
    expect(
      requestSchemas.uploadUrl.parse({ recording_session_public_id: UUID, auto_scribe_template_public_id: 'soap' }),
    ).toBeTruthy();
    const scribe: ScribeRequestBody = { recording_session_public_id: UUID, template_public_id: 'soap' };
    expect(requestSchemas.scribeRequest.parse(scribe)).toEqual(scribe);
    expect(requestSchemas.agent.parse({ input: '' })).toEqual({ input: '' });
    expect(requestSchemas.notificationEmail.parse({ email: 'alerts@example-clinic.test' })).toEqual({
      email: 'alerts@example-clinic.test',
    });
    const hook: WebhookStatusRequest = { event_type: 'scribe', is_active: false, organization_public_id: UUID };
    expect(requestSchemas.webhookStatus.parse(hook)).toEqual(hook);
  });

  it('refuse what the published service refuses in POST /recording-sessions/create: no name, a blank name, no date, an impossible date, the old guessed body', () => {
    expect(issues(requestSchemas.createRecordingSession, { description: '', session_date: '2026-11-25' })).toEqual([
      { path: 'patient_name', message: 'Field required', code: 'invalid_type' },
    ]);
    expect(
      issues(requestSchemas.createRecordingSession, {
        patient_name: '   ',
        description: '',
        session_date: '2026-11-25',
      })[0]?.path,
    ).toBe('patient_name');
    expect(issues(requestSchemas.createRecordingSession, { patient_name: 'Bella', description: '' })[0]?.path).toBe(
      'session_date',
    );
    expect(
      issues(requestSchemas.createRecordingSession, {
        patient_name: 'Bella',
        description: '',
        session_date: '2026-02-30',
      })[0]?.message,
    ).toBe('Input should be a valid date');
    expect(issues(requestSchemas.createRecordingSession, { name: 'Bella' }).map((i) => i.path)).toEqual(
      expect.arrayContaining(['patient_name', 'session_date']),
    );
    expect(
      issues(requestSchemas.scribeRequest, {
        recording_session_public_id: UUID,
        template_public_id: 'soap',
        file_key: 'k',
      })[0]?.code,
    ).toBe('unrecognized_keys');
  });

  it('refuse unknown members', () => {
    expect(issues(requestSchemas.signIn, { email: 'a@b.test', password: 'p', remember: true })).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys' }),
    ]);
    expect(issues(requestSchemas.agent, { input: 'dog', species: 'dog' })[0]?.code).toBe('unrecognized_keys');
  });

  it('word their complaints for the error answer', () => {
    expect(issues(requestSchemas.signIn, { email: 'not-an-address' })).toEqual([
      { path: 'email', message: 'must be an e-mail address', code: 'invalid_format' },
      { path: 'password', message: 'Field required', code: 'invalid_type' },
    ]);
    expect(issues(requestSchemas.refresh, { token: 5 })).toEqual([
      { path: 'token', message: 'Input should be a valid string', code: 'invalid_type' },
    ]);
    expect(issues(requestSchemas.refresh, { token: '' })[0]?.message).toBe('String should have at least 1 character');
    expect(
      issues(requestSchemas.uploadUrl, {
        recording_session_public_id: 'x',
        file_name: 'a.txt',
        content_type: 'text/plain',
      }),
    ).toEqual([expect.objectContaining({ code: 'unrecognized_keys' })]);
    expect(
      issues(requestSchemas.webhookStatus, { event_type: 'scribe', is_active: 'yes', organization_public_id: UUID }),
    ).toEqual([{ path: 'is_active', message: 'Input should be a valid boolean', code: 'invalid_type' }]);
    expect(
      issues(requestSchemas.scribeRequest, {
        recording_session_public_id: UUID,
        template_public_id: 't'.repeat(101),
      })[0]?.message,
    ).toBe('String should have at most 100 characters');
    expect(
      issues(requestSchemas.webhookUpdate, { event_type: 'scribe', webhook_url: 'not a url', auth_token: 's' })[0]
        ?.message,
    ).toBe('Input should be a valid URL');
    expect(issues(requestSchemas.agent, {})[0]?.message).toBe('Field required');
  });
});
