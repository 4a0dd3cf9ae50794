// A conversation about a consult: the note goes as the context of the first message, the
// conversation's id with the next ones; the turns are kept with the consult, shown again by a
// new core on the same data folder, refused to another clinic's vet and deleted with the consult.
// Each fault (a long note, an error body, an empty, huge or unreadable answer, a forgotten
// conversation) is one sentence and loses nothing. The real core, the sandbox over real HTTP
// (through a recording proxy, and a front that can answer /chat itself), real files.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import {
  ANSWER_CUT,
  CONTEXT_CUT,
  EMPTY_ANSWER,
  STARTED_AGAIN,
  UNREADABLE_ANSWER,
} from '../../../../src/main/core/consults/conversation.ts';
import { createHandlers, type HandlerTable } from '../../../../src/main/core/ipc-handlers.ts';
import { MemorySecretStore } from '../../../../src/main/core/sign-in/secret-store.ts';
import { MAX_CHAT_ANSWER, MAX_CHAT_CONTEXT, MAX_CHAT_MESSAGE } from '../../../../src/shared/limits.ts';
import type { JobInfo } from '../../../../src/shared/jobs.ts';
import { startSandbox } from '../../../../src/sandbox/index.ts';
import { OTHER_ACCOUNT } from '../../../../src/sandbox/state.ts';
import { TEMPLATES } from '../../../../src/sandbox/templates.ts';
import { makeRecording, startCoreAgainst, tempDir, waitForJob } from '../../../support/core.ts';
import { startRecordingProxy, type RecordingProxy } from '../../../support/recording-proxy.ts';
import { listening, passOn } from '../support.ts';

const SOAP = TEMPLATES.find((t) => t.name === 'SOAP')!.public_id;

const cores: AppCore[] = [];
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cores.length) await cores.pop()?.stop();
  while (closers.length) await closers.pop()?.();
});

/** What the front answers to POST /chat instead of the sandbox: a status and a raw body. */
type Fault = { status: number; body: string; type?: string } | null;

/** In front of the proxy: forwards everything, except /chat while a fault is set. */
async function startFront(proxy: RecordingProxy) {
  const state: { fault: Fault } = { fault: null };
  const server: Server = createServer((req, res) => {
    if (state.fault && req.method === 'POST' && (req.url ?? '').endsWith('/chat')) {
      const { status, body, type = 'application/json' } = state.fault;
      req.resume();
      req.on('end', () => res.writeHead(status, { 'content-type': type }).end(body));
      return;
    }
    passOn(req, res, `${proxy.origin}${req.url ?? '/'}`);
  });
  const origin = await listening(server);
  const path = (url: string) => `${origin}${new URL(url).pathname}`;
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return {
    state,
    urls: {
      agentsUrl: path(proxy.urls.agentsUrl),
      scribeUrl: path(proxy.urls.scribeUrl),
      agentsApiUrl: path(proxy.urls.agentsApiUrl),
    },
  };
}

async function world() {
  const s = await startSandbox({ rateLimitPerMinute: 0, scribeSeconds: 0.3 });
  closers.push(() => s.close());
  const proxy = await startRecordingProxy(s);
  closers.push(() => proxy.close());
  const front = await startFront(proxy);
  const secretStore = new MemorySecretStore();
  const dataDir = tempDir();
  const start = async () => {
    const c = await startCoreAgainst(s, { urls: front.urls, dataDir, secretStore, pipeline: { pollDelay: () => 100 } });
    cores.push(c);
    return { c, h: createHandlers(c) };
  };
  const { c, h } = await start();
  await c.session.signIn(s.demo.email, s.demo.password);
  return { s, proxy, front, c, h, start, dataDir };
}

const noteDone = (j: JobInfo) => j.state === 'completed' || j.state === 'failed';

/** A consult with the sandbox's note, and the vet's edit of it when `note` is given. */
async function consultWithNote(c: AppCore, h: HandlerTable, patientName: string, note?: string): Promise<string> {
  const id = await makeRecording(c, null, null, { patientName });
  await c.pipeline.submit(id, SOAP);
  expect((await waitForJob(c, id, noteDone)).state).toBe('completed');
  if (note !== undefined)
    expect(await h['consults:saveNote']({ id, text: note })).toEqual({ ok: true, data: { saved: true } });
  return id;
}

const NOTE = [
  '## Subjective',
  'Bella, 6 year old Labrador, vomiting twice since yesterday, ate from the bin.',
  '## Objective',
  'Weight 28.4 kg. Temperature 39.4 °C. Heart rate 110 bpm. Mild cranial abdominal pain.',
  '## Plan',
  'Maropitant 1 mg/kg SC once. Bland diet for 3 days.',
].join('\n');

async function ask(h: HandlerTable, id: string, message: string) {
  const r = await h['consults:chat']({ id, message });
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.data;
}

const chatRequests = (proxy: RecordingProxy) => proxy.find('POST', '/chat');

describe('a conversation about a consult', () => {
  it('sends the note first and the conversation id after; the turns are kept, shown again after a restart, refused to another clinic and deleted with the consult', async () => {
    const { s, proxy, c, h, start, dataDir } = await world();
    const id = await consultWithNote(c, h, 'Bella', NOTE);

    const first = await ask(h, id, '  What should the pet owner watch for?\n');
    expect(first.message).toBe('What should the pet owner watch for?');
    expect(first.answer).toContain('39.4 °C');
    expect(first.notice).toBeUndefined();
    const second = await ask(h, id, 'Check the doses in this plan');
    expect(second.answer).toContain('1 mg/kg');
    expect(second.answer).toContain('28.4 kg');
    // Worked out for the note's weight, and answered without quoting the question before.
    expect(second.answer).toContain('maropitant 1 mg/kg × 28.4 kg = 28.4 mg');
    expect(second.answer).not.toContain('What should the pet owner watch for?');
    const third = await ask(h, id, 'Is meloxicam safe with her kidney values?');
    expect(third.answer).toMatch(/does not say anything about meloxicam and kidney/);

    // On the wire: the note once, as plain text, with the version of /chat; then the id it gave.
    const sent = chatRequests(proxy);
    expect(sent).toHaveLength(3);
    expect(sent.map((r) => r.headers['x-api-version'])).toEqual(['0.2.0', '0.2.0', '0.2.0']);
    expect(sent.map((r) => r.path)).toEqual(Array(3).fill('/agents/chat'));
    const [one, two, three] = sent.map((r) => r.json as Record<string, string>);
    expect(one).toEqual({ message: 'What should the pet owner watch for?', target_context: expect.any(String) });
    expect(one!.target_context).toContain('Objective\nWeight 28.4 kg');
    expect(one!.target_context).not.toContain('##');
    const conversationId = (sent[0]!.answer as { conversation_id: string }).conversation_id;
    expect(conversationId).toMatch(/^conv_/);
    expect(two).toEqual({ message: 'Check the doses in this plan', conversation_id: conversationId });
    expect(three).toEqual({ message: 'Is meloxicam safe with her kidney values?', conversation_id: conversationId });

    // Kept on disk with the consult, and one trail entry for the conversation started.
    const file = join(dataDir, 'conversations', `${id}.json`);
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { conversationId: string; turns: unknown[] };
    expect(kept.conversationId).toBe(conversationId);
    expect(kept.turns).toEqual([first, second, third]);
    const trail = await h['consults:trail']({ id });
    if (!trail.ok) throw new Error(trail.error.message);
    expect(trail.data.entries.filter((e) => e.action === 'conversation')).toHaveLength(1);

    // A new core on the same data folder shows them, and goes on with the same conversation.
    await c.stop();
    cores.splice(cores.indexOf(c), 1);
    const again = await start();
    await again.c.session.signIn(s.demo.email, s.demo.password);
    expect(await again.h['consults:chatTurns']({ id })).toEqual({ ok: true, data: [first, second, third] });
    const fourth = await ask(again.h, id, 'And the differentials?');
    expect(fourth.answer).toContain('Following on from your question “Is meloxicam safe');
    expect((chatRequests(proxy)[3]!.json as Record<string, string>)['conversation_id']).toBe(conversationId);

    // Bad input: one sentence, nothing sent.
    const before = chatRequests(proxy).length;
    expect(await again.h['consults:chat']({ id, message: '   ' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/message is required/) },
    });
    expect(await again.h['consults:chat']({ id, message: 'x'.repeat(MAX_CHAT_MESSAGE + 1) })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(chatRequests(proxy)).toHaveLength(before);

    // Another clinic's vet can neither read nor add to them.
    await again.c.session.signOut('user');
    await again.c.session.signIn(OTHER_ACCOUNT.email, OTHER_ACCOUNT.password);
    expect(await again.h['consults:chatTurns']({ id })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await again.h['consults:chat']({ id, message: 'What is her weight?' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(chatRequests(proxy)).toHaveLength(before);

    // Deleting the consult deletes its conversation.
    await again.c.session.signOut('user');
    await again.c.session.signIn(s.demo.email, s.demo.password);
    expect(await again.h['consults:delete']({ id })).toEqual({ ok: true, data: { deleted: true } });
    expect(existsSync(file)).toBe(false);
    expect(await again.h['consults:chatTurns']({ id })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('meets each fault with one sentence and loses nothing: a long note, an error body, an empty, huge or unreadable answer, a forgotten conversation', async () => {
    const { s, proxy, front, c, h } = await world();
    // A note longer than the service takes is cut to its start, and the turn says so.
    const long = `${NOTE}\n## History\n${'Previous visit: vaccinations up to date, no findings.\n'.repeat(600)}`;
    expect(long.length).toBeGreaterThan(MAX_CHAT_CONTEXT);
    const id = await consultWithNote(c, h, 'Bella', long);
    const cut = await ask(h, id, 'What is her temperature?');
    expect(cut.notice).toBe(CONTEXT_CUT);
    const context = (chatRequests(proxy)[0]!.json as Record<string, string>)['target_context']!;
    expect(context.length).toBeLessThanOrEqual(MAX_CHAT_CONTEXT);
    expect(context).toContain('Temperature 39.4 °C');
    expect(cut.answer).toContain('39.4 °C');

    const turns = async () => {
      const r = await h['consults:chatTurns']({ id });
      if (!r.ok) throw new Error(r.error.message);
      return r.data;
    };
    const failed = async (fault: Fault, message = 'And her weight?') => {
      front.state.fault = fault;
      try {
        const r = await h['consults:chat']({ id, message });
        if (r.ok) throw new Error('expected a failure');
        return r.error;
      } finally {
        front.state.fault = null;
      }
    };
    // Errors in { error, message } and FastAPI's { detail }: the service's words, in one sentence.
    expect(
      await failed({ status: 400, body: JSON.stringify({ error: 400, message: 'Missing required field: message' }) }),
    ).toMatchObject({ message: 'The assistant could not answer: Missing required field: message.', retryable: false });
    expect(await failed({ status: 503, body: JSON.stringify({ detail: 'Busy, try again' }) })).toMatchObject({
      message: 'The assistant could not answer: Busy, try again.',
      retryable: true,
    });
    // An empty answer, one that is not JSON, one with no output: one sentence each.
    expect(await failed({ status: 200, body: JSON.stringify({ output: '  ', conversation_id: 'x' }) })).toMatchObject({
      message: EMPTY_ANSWER,
    });
    expect(await failed({ status: 200, body: '<html>Gateway</html>', type: 'text/html' })).toMatchObject({
      message: UNREADABLE_ANSWER,
    });
    expect(await failed({ status: 200, body: JSON.stringify({ answer: 'hi' }) })).toMatchObject({
      message: UNREADABLE_ANSWER,
    });
    // Nothing was kept of the failures, and the conversation is as it was.
    expect(await turns()).toEqual([cut]);

    // A huge answer is cut to what the app keeps, and says so; the conversation goes on.
    const huge = await (async () => {
      front.state.fault = { status: 200, body: JSON.stringify({ output: 'Long. '.repeat(MAX_CHAT_ANSWER) }) };
      try {
        return await ask(h, id, 'Tell me everything');
      } finally {
        front.state.fault = null;
      }
    })();
    expect(huge.notice).toBe(ANSWER_CUT);
    expect(huge.answer.length).toBe(MAX_CHAT_ANSWER);

    // The answer named no conversation: the last one is kept, and the next message sends it.
    const sentBefore = chatRequests(proxy).length;
    await ask(h, id, 'Her heart rate?');
    const conversationId = (chatRequests(proxy)[0]!.answer as { conversation_id: string }).conversation_id;
    expect((chatRequests(proxy)[sentBefore]!.json as Record<string, string>)['conversation_id']).toBe(conversationId);

    // The service forgot the conversation: it starts again with the note, saying so in one line.
    expect(s.forgetConversations()).toBe(1);
    const restarted = await ask(h, id, 'What should the pet owner watch for?');
    expect(restarted.notice).toBe(`${STARTED_AGAIN} ${CONTEXT_CUT}`);
    const [refused, resent] = chatRequests(proxy)
      .slice(-2)
      .map((r) => r);
    expect(refused!.status).toBe(404);
    expect(refused!.answer).toEqual({ error: 404, message: 'Conversation not found' });
    expect(resent!.json).toEqual({ message: 'What should the pet owner watch for?', target_context: context });
    expect((await turns()).map((t) => t.message)).toEqual([
      'What is her temperature?',
      'Tell me everything',
      'Her heart rate?',
      'What should the pet owner watch for?',
    ]);
    // The next message goes on with the new conversation.
    await ask(h, id, 'Thanks');
    const newId = (resent!.answer as { conversation_id: string }).conversation_id;
    expect(newId).not.toBe(conversationId);
    expect((chatRequests(proxy).at(-1)!.json as Record<string, string>)['conversation_id']).toBe(newId);
  });
});
