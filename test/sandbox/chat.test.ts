// The sandbox's POST {agents_url}/chat over real HTTP, as published: its own X-API-Version, a
// bearer token, { message, target_context?, conversation_id? }, errors as { error, message }; a
// memory per conversation that is its organization's own; answers from the note alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CHAT_CONTEXT } from '../../src/shared/limits.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { COLLEAGUE_ACCOUNT, OTHER_ACCOUNT } from '../../src/sandbox/state.ts';
import { call, signIn } from '../support/http.ts';

let s: Sandbox;
beforeAll(async () => {
  s = await startSandbox({ rateLimitPerMinute: 0 });
});
afterAll(async () => {
  await s.close();
});

const NOTE =
  'Milo, 4 year old cat. Weight 4.2 kg. Temperature 38.9 °C. Heart rate 180 bpm.\nPlan: buprenorphine 0.02 mg/kg IV q8h.';

type Turn = { output: string; conversation_id: string };
type Refusal = { error: number; message: string };

function chat<T>(body: unknown, options: { token?: string; version?: string | null; raw?: string } = {}) {
  return call<T>('POST', `${s.urls.agents_url}/chat`, {
    ...(options.token ? { token: options.token } : {}),
    apiVersion: options.version === undefined ? '0.2.0' : options.version,
    ...(options.raw !== undefined
      ? { rawBody: options.raw, headers: { 'content-type': 'application/json' } }
      : { body }),
  });
}

describe('POST /chat', () => {
  it('remembers a conversation, quotes the note, says what it does not know, and knows the earlier turns', async () => {
    const { access } = await signIn(s);
    const first = await chat<Turn>(
      { message: 'What should the pet owner watch for?', target_context: NOTE },
      { token: access },
    );
    expect(first.status).toBe(200);
    expect(first.json.conversation_id).toMatch(/^conv_/);
    expect(first.json.output).toContain('temperature 38.9 °C');
    expect(first.json.output).toContain('heart rate 180 bpm');
    const second = await chat<Turn>(
      { message: 'Check the doses in this plan', conversation_id: first.json.conversation_id },
      { token: access },
    );
    expect(second.json).toEqual({ output: expect.any(String), conversation_id: first.json.conversation_id });
    expect(second.json.output).toContain('buprenorphine 0.02 mg/kg');
    expect(second.json.output).toContain('weight 4.2 kg');
    expect(second.json.output).toContain('buprenorphine 0.02 mg/kg × 4.2 kg = 0.08 mg');
    expect(second.json.output).not.toContain('What should the pet owner watch for?');
    const third = await chat<Turn>(
      { message: 'What were her thyroid results?', conversation_id: first.json.conversation_id },
      { token: access },
    );
    expect(third.json.output).toMatch(/does not say anything about thyroid and results, so I do not know/);

    // A colleague of the same clinic may go on with it; another clinic's vet does not find it.
    const colleague = await signIn(s, COLLEAGUE_ACCOUNT);
    const followUp = await chat<Turn>(
      { message: 'Her weight?', conversation_id: first.json.conversation_id },
      { token: colleague.access },
    );
    expect(followUp.status).toBe(200);
    // The conversation is remembered: a follow-up is read with the question before it.
    expect(followUp.json.output).toContain('Following on from your question “What were her thyroid results?”.');
    const other = await signIn(s, OTHER_ACCOUNT);
    const stranger = await chat<Refusal>(
      { message: 'Her weight?', conversation_id: first.json.conversation_id },
      { token: other.access },
    );
    expect(stranger.status).toBe(404);
    expect(stranger.json).toEqual({ error: 404, message: 'Conversation not found' });

    // Forgotten (a restarted service): the id is not found any more.
    expect(s.forgetConversations()).toBeGreaterThanOrEqual(1);
    const gone = await chat<Refusal>({ message: 'Hi', conversation_id: first.json.conversation_id }, { token: access });
    expect(gone.json).toEqual({ error: 404, message: 'Conversation not found' });
  });

  it('refuses in the published { error, message } shape', async () => {
    const { access } = await signIn(s);
    const expectRefusal = async (
      answer: Promise<{ status: number; json: Refusal }>,
      status: number,
      message: RegExp,
    ) => {
      const a = await answer;
      expect(a.status).toBe(status);
      expect(a.json).toEqual({ error: status, message: expect.stringMatching(message) });
    };
    await expectRefusal(chat({ target_context: NOTE }, { token: access }), 400, /^Missing required field: message$/);
    await expectRefusal(chat(undefined, { token: access, raw: '{"message": ' }), 400, /Malformed JSON/);
    await expectRefusal(chat({ message: 'Hi', extra: 1 }, { token: access }), 400, /Unknown field: extra/);
    await expectRefusal(chat({ message: 42 }, { token: access }), 400, /message must be a string/);
    await expectRefusal(
      chat({ message: 'Hi', target_context: 'x'.repeat(MAX_CHAT_CONTEXT + 1) }, { token: access }),
      400,
      new RegExp(`target_context is longer than ${MAX_CHAT_CONTEXT} characters`),
    );
    // Exactly the limit is taken.
    expect(
      (await chat({ message: 'Hi', target_context: 'x'.repeat(MAX_CHAT_CONTEXT) }, { token: access })).status,
    ).toBe(200);
    await expectRefusal(
      chat({ message: 'Hi' }, { token: access, version: null }),
      400,
      /X-API-Version 0\.2\.0 is required/,
    );
    await expectRefusal(
      chat({ message: 'Hi' }, { token: access, version: 'v1' }),
      400,
      /X-API-Version 0\.2\.0 is required/,
    );
    await expectRefusal(chat({ message: 'Hi' }), 401, /^Authentication token is invalid or expired\.$/);
    await expectRefusal(
      chat({ message: 'Hi' }, { token: `${access}x` }),
      401,
      /^Authentication token is invalid or expired\.$/,
    );
    // The scribing API's operations still refuse the chat's version.
    const templates = await call('GET', `${s.urls.scribe_url}/templates/all`, { token: access, apiVersion: '0.2.0' });
    expect(templates.status).toBe(400);
  });
});
