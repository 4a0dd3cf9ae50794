import { describe, expect, it } from 'vitest';
import { requestSchemas, type ScribeRequestBody, type SignInRequest, type WebhookStatusRequest } from '../../src/shared/service/index.ts';

const UUID = '9d1c7e52-3a4b-4c5d-8e6f-7a8b9c0d1e2f';

function issues(schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string; code: string }[] } } }, value: unknown) {
  const result = schema.safeParse(value);
  expect(result.success).toBe(false);
  return (result.error?.issues ?? []).map((i) => ({ path: i.path.join('.'), message: i.message, code: i.code }));
}

describe('requestSchemas', () => {
  it('accept the bodies the client sends', () => {
    const signIn: SignInRequest = { email: ' vet@example-clinic.test ', password: 'demo' };
    expect(requestSchemas.signIn.parse(signIn)).toEqual({ email: 'vet@example-clinic.test', password: 'demo' });
    expect(requestSchemas.refresh.parse({ token: 'r.t.s' })).toEqual({ token: 'r.t.s' });
    expect(requestSchemas.createSession.parse({})).toEqual({});
    expect(requestSchemas.createSession.parse({ name: 'Bella' })).toEqual({ name: 'Bella' });
    expect(requestSchemas.uploadUrl.parse({ recording_session_public_id: UUID, file_name: 'a.webm', content_type: 'audio/webm;codecs=opus' })).toBeTruthy();
    const scribe: ScribeRequestBody = { recording_session_public_id: UUID, template_public_id: 'soap', file_key: 'recordings/x/a.webm' };
    expect(requestSchemas.scribeRequest.parse(scribe)).toEqual(scribe);
    expect(requestSchemas.agent.parse({ input: '' })).toEqual({ input: '' });
    expect(requestSchemas.notificationEmail.parse({ email: 'alerts@example-clinic.test' })).toEqual({ email: 'alerts@example-clinic.test' });
    const hook: WebhookStatusRequest = { event_type: 'scribe', is_active: false, organization_public_id: UUID };
    expect(requestSchemas.webhookStatus.parse(hook)).toEqual(hook);
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
      { path: 'password', message: 'is required', code: 'invalid_type' },
    ]);
    expect(issues(requestSchemas.refresh, { token: 5 })).toEqual([{ path: 'token', message: 'must be a string', code: 'invalid_type' }]);
    expect(issues(requestSchemas.refresh, { token: '' })[0]?.message).toBe('is required');
    expect(issues(requestSchemas.uploadUrl, { recording_session_public_id: 'x', file_name: 'a.txt', content_type: 'text/plain' }).map((i) => i.message)).toEqual([
      'must be a UUID',
      'must be an audio/* content type',
    ]);
    expect(issues(requestSchemas.webhookStatus, { event_type: 'scribe', is_active: 'yes', organization_public_id: UUID })).toEqual([
      { path: 'is_active', message: 'must be true or false', code: 'invalid_type' },
    ]);
    expect(issues(requestSchemas.scribeRequest, { recording_session_public_id: UUID, template_public_id: 'soap', file_key: 'k'.repeat(1001) })[0]?.message).toBe(
      'must be at most 1000 characters',
    );
    expect(issues(requestSchemas.agent, {})[0]?.message).toBe('is required');
  });
});
