// POST /ddx_agent_v2, POST /treatment_plan_agent_v2, PATCH /organizations/update-email-for-notification and PATCH /webhook/status against a real sandbox over loopback: the two agents with relevance
// filtering, the notification e-mail and the webhook switch.
import { describe, expect, it } from 'vitest';
import { startSandbox, OTHER_ACCOUNT } from '../../src/sandbox/index.ts';
import { DDX_MEMBERS, MEDICATION_MEMBERS, TREATMENT_PLAN_MEMBERS } from '../support/agent-members.ts';
import { call, signIn } from '../support/http.ts';
import { signedInSandbox } from './support.ts';

const world = signedInSandbox();

type AgentAnswer = { status: boolean; reason: string; response: Record<string, unknown> };
const ddx = (input: unknown) =>
  call<AgentAnswer>('POST', `${world.sandbox.urls.agents_api_url}/ddx_agent_v2`, {
    token: world.me.access,
    body: { input },
  });
const plan = (input: unknown) =>
  call<AgentAnswer>('POST', `${world.sandbox.urls.agents_api_url}/treatment_plan_agent_v2`, {
    token: world.me.access,
    body: { input },
  });

describe('POST /ddx_agent_v2: differential diagnosis', () => {
  it('answers a clinical history with the map form, every field filled, and plain-English summaries', async () => {
    const a = await ddx(
      '12 year old male neutered domestic shorthair cat with weight loss despite a good appetite, vomiting, tachycardia and a palpable thyroid nodule.',
    );
    expect(a.status).toBe(200);
    expect(a.json.status).toBe(true);
    expect(a.json.reason).toEqual(expect.any(String));
    const details = a.json.response['Differential Diagnosis Details'] as Record<string, Record<string, string>>;
    const labels = Object.keys(details);
    expect(labels.length).toBeGreaterThanOrEqual(2);
    expect(labels[0]?.toLowerCase()).toContain('hyperthyroid');
    for (const set of Object.values(details)) {
      for (const field of DDX_MEMBERS) expect(set[field], field).toMatch(/\S/);
    }
    expect(a.json.response['Plain English Concise']).toMatch(/\S/);
    expect(a.json.response['Plain English Summary']).toMatch(/sandbox/i);
  });

  it('answers input that is not veterinary with status false and a reason', async () => {
    const a = await ddx('What is the best recipe for a chocolate cake with raspberries?');
    expect(a.status).toBe(200);
    expect(a.json.status).toBe(false);
    expect(a.json.reason.length).toBeGreaterThan(10);
  });

  it.each([
    ['empty', ''],
    ['blank', '   \n '],
    ['a number', 42],
    ['too long', 'dog '.repeat(6000)],
  ])('refuses %s input with a FastAPI 422 list naming input', async (_name, input) => {
    const a = await ddx(input);
    const detail = a.json['detail' as keyof AgentAnswer] as unknown as { loc: unknown[]; msg: string; type: string }[];
    expect([a.status, detail.map((d) => d.loc)]).toEqual([422, [['body', 'input']]]);
    expect(detail[0]?.msg).toMatch(
      /^(String should have at (least|most) \d+ characters?|Input should be a valid string)$/,
    );
  });
});

describe('POST /treatment_plan_agent_v2: treatment plan', () => {
  it('plans for the disease named, for the species named', async () => {
    const a = await plan('How should I treat hyperthyroidism in my 13 year old cat?');
    expect(a.json.status).toBe(true);
    const details = a.json.response['Treatment Plan Details'] as Record<string, Record<string, string>>;
    const sets = Object.values(details);
    expect(sets.length).toBeGreaterThanOrEqual(1);
    expect(sets[0]?.['diagnosis_name']?.toLowerCase()).toContain('hyperthyroid');
    for (const set of sets) for (const field of TREATMENT_PLAN_MEMBERS) expect(set[field], field).toMatch(/\S/);
    expect(a.json.response['Plain English Concise']).toMatch(/\S/);
    expect(a.json.response['Plain English Summary']).toMatch(/\S/);
  });

  it('derives the plan from the likely differentials when no disease is named', async () => {
    const a = await plan(
      'Dog, 7 years, German Shepherd, drinking and urinating a lot, pot-bellied, thin coat, panting.',
    );
    expect(a.json.status).toBe(true);
    expect(Object.keys(a.json.response['Treatment Plan Details'] as object).length).toBeGreaterThanOrEqual(1);
  });

  it('refuses input that names no species, and input unrelated to treatment plans', async () => {
    const none = await plan('How do I treat otitis externa?');
    expect(none.json.status).toBe(false);
    expect(none.json.reason).toMatch(/species/i);
    const unrelated = await plan('Which football team won the league in 1998?');
    expect(unrelated.json.status).toBe(false);
  });
});

describe('PATCH /organizations/update-email-for-notification: notification e-mail', () => {
  it('sets the address and answers the organization', async () => {
    const a = await call<{ message: string; data: Record<string, unknown> }>(
      'PATCH',
      `${world.sandbox.urls.scribe_url}/organizations/update-email-for-notification`,
      {
        token: world.me.access,
        body: { email: 'alerts@clinic.test' },
      },
    );
    expect(a.status).toBe(200);
    expect(a.json.message).toEqual(expect.any(String));
    expect(a.json.data).toMatchObject({
      public_id: world.me.user.organization_id,
      email_notification: 'alerts@clinic.test',
      is_active: true,
      has_slack_bot_token: false,
      slack_channel: null,
    });
    expect(Object.keys(a.json.data).sort()).toEqual([
      'description',
      'email_notification',
      'has_slack_bot_token',
      'is_active',
      'name',
      'public_id',
      'slack_channel',
    ]);
  });

  it('refuses an invalid e-mail with 422', async () => {
    const a = await call('PATCH', `${world.sandbox.urls.scribe_url}/organizations/update-email-for-notification`, {
      token: world.me.access,
      body: { email: 'not-an-address' },
    });
    expect([a.status, a.json['code']]).toEqual([422, 'validation_error']);
    expect(JSON.stringify(a.json['detail'])).toContain('"email"');
  });
});

describe('PATCH /webhook/status: webhook status', () => {
  const patch = (token: string, body: unknown) =>
    call<{ message: string; data: Record<string, unknown> }>(
      'PATCH',
      `${world.sandbox.urls.scribe_url}/webhook/status`,
      {
        token,
        body,
      },
    );

  it('turns the scribe webhook off and on, answering the webhook', async () => {
    const off = await patch(world.me.access, {
      event_type: 'scribe',
      is_active: false,
      organization_public_id: world.me.user.organization_id,
    });
    expect(off.status).toBe(200);
    expect(off.json.data).toMatchObject({
      event_type: 'scribe',
      is_active: false,
      organization_public_id: world.me.user.organization_id,
    });
    const on = await patch(world.me.access, {
      event_type: 'scribe',
      is_active: true,
      organization_public_id: world.me.user.organization_id,
    });
    expect(on.json.data['is_active']).toBe(true);
    expect(on.json.data['public_id']).toBe(off.json.data['public_id']);
  });

  it('403 for another organization, 404 for an unknown event type, 422 for bad fields', async () => {
    const other = await signIn(world.sandbox, OTHER_ACCOUNT);
    const forbidden = await patch(world.me.access, {
      event_type: 'scribe',
      is_active: true,
      organization_public_id: other.user.organization_id,
    });
    expect([forbidden.status, forbidden.json['code' as 'message']]).toEqual([403, 'forbidden']);
    const unknown = await patch(world.me.access, {
      event_type: 'invoice',
      is_active: true,
      organization_public_id: world.me.user.organization_id,
    });
    expect([unknown.status, unknown.json['code' as 'message']]).toEqual([404, 'not_found']);
    const bad = await patch(world.me.access, {
      event_type: 'scribe',
      is_active: 'yes',
      organization_public_id: 'not-a-uuid',
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.json['detail' as 'message'])).toMatch(/"is_active"/);
    expect(JSON.stringify(bad.json['detail' as 'message'])).toMatch(/"organization_public_id"/);
  });
});

describe('the published extras', () => {
  it('GET /users/me names the user in the public_id form', async () => {
    const a = await call<Record<string, unknown>>('GET', `${world.sandbox.urls.scribe_url}/users/me`, {
      token: world.me.access,
    });
    expect(a.status).toBe(200);
    expect(a.json).toEqual({
      public_id: world.me.user.id,
      email: world.me.user.email,
      name: expect.any(String),
      organization_public_id: world.me.user.organization_id,
    });
    expect((await call('GET', `${world.sandbox.urls.scribe_url}/users/me`)).status).toBe(401);
  });

  it('GET /organizations/get gives the organization with the notification address in force', async () => {
    await call('PATCH', `${world.sandbox.urls.scribe_url}/organizations/update-email-for-notification`, {
      token: world.me.access,
      body: { email: 'front-desk@clinic.test' },
    });
    const a = await call<Record<string, unknown>>('GET', `${world.sandbox.urls.scribe_url}/organizations/get`, {
      token: world.me.access,
    });
    expect(a.status).toBe(200);
    expect(Object.keys(a.json).sort()).toEqual([
      'description',
      'email_notification',
      'has_slack_bot_token',
      'name',
      'public_id',
      'slack_channel',
    ]);
    expect(a.json).toMatchObject({
      public_id: world.me.user.organization_id,
      email_notification: 'front-desk@clinic.test',
    });
  });

  it('PUT /webhook/update registers the endpoint, answering { message, data: webhook } without the secret; a bad URL is a 422 list', async () => {
    const other = await signIn(world.sandbox, OTHER_ACCOUNT);
    const a = await call<{ message: string; data: Record<string, unknown> }>(
      'PUT',
      `${world.sandbox.urls.scribe_url}/webhook/update`,
      {
        token: other.access,
        body: {
          event_type: 'scribe',
          webhook_url: 'https://hooks.clinic.test/scribe',
          auth_token: 'a-secret-of-some-length',
        },
      },
    );
    expect(a.status).toBe(200);
    expect(a.json.data).toMatchObject({
      event_type: 'scribe',
      is_active: true,
      organization_public_id: other.user.organization_id,
    });
    expect(a.text).not.toContain('a-secret-of-some-length');
    const bad = await call<{ detail: { loc: string[] }[] }>('PUT', `${world.sandbox.urls.scribe_url}/webhook/update`, {
      token: other.access,
      body: { event_type: 'scribe', webhook_url: 'not a url' },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.detail.map((d) => d.loc.join('.')).sort()).toEqual(['body.auth_token', 'body.webhook_url']);
  });

  it('POST /medication_agent_v2 answers a drug card with dosing by species; refuses a question without drug or species', async () => {
    const med = (input: string) =>
      call<{ status: boolean; reason: string; response: Record<string, unknown> }>(
        'POST',
        `${world.sandbox.urls.agents_api_url}/medication_agent_v2`,
        {
          token: world.me.access,
          body: { input },
        },
      );
    const a = await med('Meloxicam for a 30 kg dog with osteoarthritis');
    expect(a.status).toBe(200);
    expect(a.json.status).toBe(true);
    const details = a.json.response['Medication Details'] as Record<string, Record<string, string>>;
    expect(Object.keys(details)).toEqual(['Meloxicam']);
    expect(Object.keys(details['Meloxicam']!).sort()).toEqual([...MEDICATION_MEMBERS].sort());
    expect(details['Meloxicam']!['dosing_by_species']).toMatch(/Dog: 0\.2 mg\/kg/);
    expect(a.json.response['Plain English Concise']).toMatch(/dogs/i);
    const noSpecies = await med('meloxicam dose please');
    expect(noSpecies.json).toEqual({ status: false, reason: expect.stringMatching(/species/), response: null });
    const noDrug = await med('what can I give my cat for pain');
    expect(noDrug.json).toMatchObject({ status: false, reason: expect.stringMatching(/formulary/) });
    const rabbit = await med('meloxicam for a rabbit');
    expect(rabbit.json).toMatchObject({ status: false, reason: expect.stringMatching(/dogs and cats only/) });
  });

  it('the fast agents answer text/plain; the chat agent answers { status, reason: { concise, summary } }', async () => {
    const fast = await call('POST', `${world.sandbox.urls.agents_api_url}/fast_ddx_agent`, {
      token: world.me.access,
      body: { message: '12 year old cat with weight loss, polyphagia, vomiting and a thyroid nodule' },
    });
    expect(fast.status).toBe(200);
    expect(fast.headers['content-type']).toMatch(/^text\/plain/);
    expect(fast.text).toMatch(/hyperthyroidism/i);
    const plan = await call('POST', `${world.sandbox.urls.agents_api_url}/fast_treatment_plan_agent`, {
      token: world.me.access,
      body: { message: 'Treatment plan for a 7 year old dog with atopic dermatitis' },
    });
    expect(plan.status).toBe(200);
    expect(plan.headers['content-type']).toMatch(/^text\/plain/);
    expect(() => JSON.parse(plan.text) as unknown).toThrow();
    expect(plan.text).toMatch(/atopic dermatitis/i);
    const empty = await call<{ detail: unknown }>(
      'POST',
      `${world.sandbox.urls.agents_api_url}/fast_treatment_plan_agent`,
      {
        token: world.me.access,
        body: { message: ' ' },
      },
    );
    expect([empty.status, empty.json.detail]).toEqual([
      422,
      [{ loc: ['body', 'message'], msg: 'String should have at least 1 character', type: 'string_too_short' }],
    ]);
    const wrongMember = await call<{ detail: { loc: string[] }[] }>(
      'POST',
      `${world.sandbox.urls.agents_api_url}/fast_ddx_agent`,
      {
        token: world.me.access,
        body: { input: 'a dog' },
      },
    );
    expect(wrongMember.json.detail.map((d) => d.loc.join('.')).sort()).toEqual(['body.input', 'body.message']);
    // The chat agent is served with the other agents (agents_api_url), as the OpenAPI document places it.
    const chat = await call<{ status: boolean; reason: Record<string, string> }>(
      'POST',
      `${world.sandbox.urls.agents_api_url}/chat_agent`,
      {
        token: world.me.access,
        body: { input: 'Gabapentin for a nervous cat before a visit?', model: 'default' },
      },
    );
    expect(chat.json.status).toBe(true);
    expect(Object.keys(chat.json.reason).sort()).toEqual(['Plain English Concise', 'Plain English Summary']);
    expect(
      (
        await call('POST', `${world.sandbox.urls.agents_url}/chat_agent`, {
          token: world.me.access,
          body: { input: 'x' },
        })
      ).status,
    ).toBe(404);
  });

  it('with loginTokensOnly, /auth/login answers only the three OpenAPI token fields', async () => {
    const strict = await startSandbox({ loginTokensOnly: true });
    try {
      const a = await call<Record<string, unknown>>('POST', `${strict.urls.scribe_url}/auth/login`, {
        body: strict.demo,
      });
      expect(Object.keys(a.json).sort()).toEqual(['access_token', 'refresh_token', 'token_type']);
    } finally {
      await strict.close();
    }
  });
});
