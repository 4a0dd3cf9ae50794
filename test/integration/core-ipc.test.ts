// The IPC handler table, as bound to any transport: every channel given wrong types, missing
// fields or huge strings answers { ok: false } with a message naming the field, and the core
// goes on answering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src/main/core/app-core.ts';
import { createHandlers, type HandlerTable } from '../../src/main/core/ipc-handlers.ts';
import { INVOKE_CHANNELS, invokeContract, type InvokeChannel } from '../../src/shared/ipc.ts';
import { INVOKE_CHANNEL_NAMES } from '../../src/shared/ipc-channels.ts';
import { startCore, waitForJob, recorderChunks } from './support/core.ts';

let core: AppCore;
let handlers: HandlerTable;
beforeAll(async () => {
  core = await startCore();
  handlers = createHandlers(core);
});
afterAll(async () => {
  await core.stop();
});

const HUGE = 'x'.repeat(2_000_000);
const BAD_INPUTS: unknown[] = [null, 42, 'text', [], { unexpected: true }, { id: HUGE }, { id: '../../etc/passwd' }, { input: HUGE }, { email: HUGE, password: HUGE }];

describe('IPC handler table', () => {
  it('has a handler for every channel of the contract, and the preload names the same channels', () => {
    expect(Object.keys(handlers).sort()).toEqual([...INVOKE_CHANNELS].sort());
    expect([...INVOKE_CHANNEL_NAMES].sort()).toEqual(Object.keys(invokeContract).sort());
  });

  it.each(INVOKE_CHANNELS.filter((c) => !(invokeContract[c].input.safeParse(undefined).success)))('%s refuses bad input clearly', async (channel) => {
    for (const input of BAD_INPUTS) {
      const answer = await handlers[channel as InvokeChannel](input);
      expect(answer.ok, `${channel} ${JSON.stringify(input)?.slice(0, 40)}`).toBe(false);
      if (!answer.ok) {
        expect(answer.error.code).toBe('invalid_input');
        expect(answer.error.message).toMatch(new RegExp(`^Invalid input for ${channel}: .+`));
        expect(answer.error.message.length).toBeLessThan(2000);
      }
    }
  });

  it('channels without input refuse an argument', async () => {
    const a = await handlers['session:get']({ sneaky: true });
    expect(a).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('names the wrong fields', async () => {
    const a = await handlers['session:signIn']({ email: '', password: 5 });
    expect(a.ok).toBe(false);
    if (!a.ok) expect(a.error.message).toMatch(/email is required.*password/);
    const chunk = await handlers['recording:chunk']({ id: 'x', seq: -1, data: 'not bytes', elapsedMs: 0 });
    if (!chunk.ok) expect(chunk.error.message).toMatch(/seq.*data must be bytes/);
    const big = await handlers['recording:chunk']({ id: 'x', seq: 0, data: new Uint8Array(2 * 1024 * 1024), elapsedMs: 0 });
    expect(big).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/at most 1048576 bytes/) } });
  });

  it('a call that needs the service while signed out says so, without reaching it', async () => {
    const a = await handlers['templates:list']({ page: 1 });
    expect(a).toMatchObject({ ok: false, error: { code: 'signed_out' } });
    const t = await handlers['agents:ddx']({ input: 'Dog, vomiting for two days' });
    expect(t).toMatchObject({ ok: false, error: { code: 'signed_out' } });
  });

  it('wrong credentials come back as invalid_credentials with the service message', async () => {
    const a = await handlers['session:signIn']({ email: 'demo@vetscribe.test', password: 'nope' });
    expect(a).toMatchObject({ ok: false, error: { code: 'invalid_credentials', message: expect.stringMatching(/Incorrect/) } });
  });

  it('runs a consult through the handlers: record, stop with a template, note, agents, settings', async () => {
    const info = await handlers['app:info'](undefined);
    expect(info.ok).toBe(true);
    const demo = info.ok ? info.data.sandbox?.demo : undefined;
    expect(demo).toBeDefined();
    const signed = await handlers['session:signIn'](demo);
    expect(signed).toMatchObject({ ok: true, data: { signedIn: true } });
    const templates = await handlers['templates:list']({ page: 1 });
    expect(templates.ok).toBe(true);
    const templateId = templates.ok ? templates.data.items[0]!.id : '';
    const started = await handlers['recording:start']({ mimeType: 'audio/webm;codecs=opus', label: 'Rex — limping', templateId });
    expect(started.ok).toBe(true);
    const id = started.ok ? started.data.id : '';
    for (const [seq, data] of recorderChunks().entries()) {
      const c = await handlers['recording:chunk']({ id, seq, data: new Uint8Array(data), elapsedMs: (seq + 1) * 1000 });
      expect(c.ok).toBe(true);
    }
    const stopped = await handlers['recording:stop']({ id, durationMs: 5000 });
    expect(stopped).toMatchObject({ ok: true, data: { recording: { id, state: 'finished', label: 'Rex — limping' }, job: { templateId } } });
    await waitForJob(core, id, (j) => j.state === 'completed');
    const note = await handlers['consults:note']({ id });
    expect(note).toMatchObject({ ok: true, data: { note: expect.stringMatching(/\S/) } });
    const settings = await handlers['settings:get'](undefined);
    expect(settings).toMatchObject({ ok: true, data: { lastTemplateId: templateId } });
    const ddx = await handlers['agents:ddx']({ input: 'Cat, 14 years, weight loss, polyphagia, hyperactivity, thyroid slip palpable' });
    expect(ddx).toMatchObject({ ok: true, data: { status: true } });
    const noSpecies = await handlers['agents:treatmentPlan']({ input: 'How to treat otitis externa?' });
    expect(noSpecies).toMatchObject({ ok: true, data: { kind: 'needs_species' } });
    const anyway = await handlers['agents:treatmentPlan']({ input: 'How to treat otitis externa?', allowWithoutSpecies: true });
    expect(anyway).toMatchObject({ ok: true, data: { kind: 'result', result: { status: false } } });
    const email = await handlers['org:setNotificationEmail']({ email: 'alerts@clinic.test' });
    expect(email).toMatchObject({ ok: true, data: { emailNotification: 'alerts@clinic.test' } });
    const hook = await handlers['org:setScribeWebhook']({ active: true });
    expect(hook).toMatchObject({ ok: true, data: { eventType: 'scribe', isActive: true } });
    const list = await handlers['consults:list'](undefined);
    expect(list.ok && list.data.map((c) => c.recording.id)).toContain(id);
    const deleted = await handlers['consults:delete']({ id });
    expect(deleted).toMatchObject({ ok: true, data: { deleted: true } });
    const gone = await handlers['consults:note']({ id });
    expect(gone).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('refuses settings that do not hold, and keeps the ones it had', async () => {
    const before = await handlers['settings:get'](undefined);
    const bad = await handlers['settings:update']({ useSandbox: false, serviceUrls: { agentsUrl: 'ftp://x' } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    if (!bad.ok) expect(bad.error.message).toMatch(/agentsUrl.*https/);
    const plainHttp = await handlers['settings:update']({ serviceUrls: { scribeUrl: 'http://service.example.com' } });
    expect(plainHttp.ok).toBe(false);
    const after = await handlers['settings:get'](undefined);
    expect(after).toEqual(before);
    const retention = await handlers['settings:update']({ retentionDays: 30 });
    expect(retention).toMatchObject({ ok: true, data: { retentionDays: 30 } });
  });
});
