// The IPC handler table, as bound to any transport: every channel given wrong types, missing
// fields or huge strings answers { ok: false } with a message naming the field, and the core
// goes on answering.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../src/main/core/app-core.ts';
import type { Call } from '../../../src/main/core/platform/ipc-call.ts';
import { createHandlers, declaredCalls, type HandlerTable } from '../../../src/main/core/ipc-handlers.ts';
import { PATIENT_NAME_REQUIRED } from '../../../src/main/core/jobs/pipeline.ts';
import { localDate } from '../../../src/main/core/recordings/index.ts';
import { INVOKE_CHANNELS, invokeContract, type InvokeChannel } from '../../../src/shared/ipc.ts';
import { formatNoteDate } from '../../../src/shared/note/index.ts';
import { startCore, waitForJob, recorderChunks } from '../../support/core.ts';

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
const BAD_INPUTS: unknown[] = [
  null,
  42,
  'text',
  [],
  { unexpected: true },
  { id: HUGE },
  { id: '../../etc/passwd' },
  { input: HUGE },
  { email: HUGE, password: HUGE },
];

describe('IPC handler table', () => {
  it('has a handler for every channel of the contract, each declared once by a part of the engine', () => {
    expect(Object.keys(handlers).sort()).toEqual([...INVOKE_CHANNELS].sort());
    expect(Object.keys(declaredCalls(core)).sort()).toEqual(Object.keys(invokeContract).sort());
  });

  it('a call that names a consult cannot be declared without what it needs of the gate', () => {
    const calls = declaredCalls(core);
    // The compiler refuses it: consults:delete names a consult (`id`), so `access` is required.
    // @ts-expect-error access is missing
    const ungated: Call<'consults:delete'> = { run: () => ({ deleted: true as const }) };
    expect(() => createHandlers(core, { ...calls, 'consults:delete': ungated })).toThrow(
      'ipc consults:delete names a consult but asks nothing of the gate',
    );
    // Every channel whose input has an id is declared with its access, and the owner's rules are there.
    for (const channel of INVOKE_CHANNELS) {
      const shape = (invokeContract[channel].input as { shape?: Record<string, unknown> }).shape;
      if (shape && 'id' in shape) expect(calls[channel].access, channel).toBeDefined();
    }
    expect(calls['consults:delete'].ownerOnly).toBe('delete');
    expect(calls['recording:chunk'].access).toBe('recording');
  });

  it.each(INVOKE_CHANNELS.filter((c) => !invokeContract[c].input.safeParse(undefined).success))(
    '%s refuses bad input clearly',
    async (channel) => {
      for (const input of BAD_INPUTS) {
        const answer = await handlers[channel as InvokeChannel](input);
        expect(answer.ok, `${channel} ${JSON.stringify(input)?.slice(0, 40)}`).toBe(false);
        if (!answer.ok) {
          expect(answer.error.code).toBe('invalid_input');
          expect(answer.error.message).toMatch(new RegExp(`^Invalid input for ${channel}: .+`));
          expect(answer.error.message.length).toBeLessThan(2000);
        }
      }
    },
  );

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
    const big = await handlers['recording:chunk']({
      id: 'x',
      seq: 0,
      data: new Uint8Array(2 * 1024 * 1024),
      elapsedMs: 0,
    });
    expect(big).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/at most 1048576 bytes/) },
    });
  });

  it('a call that needs the service while signed out says so, without reaching it', async () => {
    const a = await handlers['templates:list']({ page: 1 });
    expect(a).toMatchObject({ ok: false, error: { code: 'signed_out' } });
    const t = await handlers['agents:ddx']({ input: 'Dog, vomiting for two days' });
    expect(t).toMatchObject({ ok: false, error: { code: 'signed_out' } });
  });

  it('wrong credentials come back as invalid_credentials with the service message', async () => {
    const a = await handlers['session:signIn']({ email: 'demo@vetscribe.test', password: 'nope' });
    expect(a).toMatchObject({
      ok: false,
      error: { code: 'invalid_credentials', message: expect.stringMatching(/^Invalid credentials$/) },
    });
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
    const started = await handlers['recording:start']({
      mimeType: 'audio/webm;codecs=opus',
      label: 'Rex — limping',
      patientName: 'Rex',
      templateId,
    });
    expect(started.ok).toBe(true);
    const id = started.ok ? started.data.id : '';
    for (const [seq, data] of recorderChunks().entries()) {
      const c = await handlers['recording:chunk']({ id, seq, data: new Uint8Array(data), elapsedMs: (seq + 1) * 1000 });
      expect(c.ok).toBe(true);
    }
    const stopped = await handlers['recording:stop']({ id, durationMs: 5000 });
    expect(stopped).toMatchObject({
      ok: true,
      data: { recording: { id, state: 'finished', label: 'Rex — limping' }, job: { templateId } },
    });
    await waitForJob(core, id, (j) => j.state === 'completed');
    const note = await handlers['consults:note']({ id });
    expect(note).toMatchObject({ ok: true, data: { note: expect.stringMatching(/\S/) } });
    const settings = await handlers['settings:get'](undefined);
    expect(settings).toMatchObject({ ok: true, data: { lastTemplateId: templateId } });
    const ddx = await handlers['agents:ddx']({
      input: 'Cat, 14 years, weight loss, polyphagia, hyperactivity, thyroid slip palpable',
    });
    expect(ddx).toMatchObject({ ok: true, data: { status: true } });
    const noSpecies = await handlers['agents:treatmentPlan']({ input: 'How to treat otitis externa?' });
    expect(noSpecies).toMatchObject({ ok: true, data: { kind: 'needs_species' } });
    const anyway = await handlers['agents:treatmentPlan']({
      input: 'How to treat otitis externa?',
      allowWithoutSpecies: true,
    });
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

describe('the consult and its note through the handlers', () => {
  const own: AppCore[] = [];
  afterEach(async () => {
    while (own.length) await own.pop()?.stop();
  });
  async function signedInCore(options: Parameters<typeof startCore>[0] = {}) {
    const c = await startCore(options);
    own.push(c);
    const h = createHandlers(c);
    const demo = c.appInfo().sandbox!.demo;
    expect(await h['session:signIn'](demo)).toMatchObject({ ok: true });
    const templates = await h['templates:list']({ page: 1 });
    return { c, h, templateId: templates.ok ? templates.data.items[0]!.id : '' };
  }
  async function record(h: HandlerTable, input: { patientName?: string; description?: string; templateId?: string }) {
    const started = await h['recording:start']({ mimeType: 'audio/webm;codecs=opus', ...input });
    if (!started.ok) throw new Error(started.error.message);
    const id = started.data.id;
    for (const [seq, data] of recorderChunks().entries())
      await h['recording:chunk']({ id, seq, data: new Uint8Array(data), elapsedMs: (seq + 1) * 1000 });
    return { id, started: started.data, stopped: await h['recording:stop']({ id, durationMs: 5000 }) };
  }

  it("refuses to send a consult without the patient's name, sends it once the name is given, and then locks the name", async () => {
    const { c, h, templateId } = await signedInCore();
    const { id, started, stopped } = await record(h, { templateId });
    expect(started).toMatchObject({ patientName: null, description: null });
    // Stopped with a template but no name: it waits, nothing is sent.
    expect(stopped).toMatchObject({ ok: true, data: { job: null } });
    expect(await h['consults:submit']({ id, templateId })).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: PATIENT_NAME_REQUIRED },
    });
    expect(await h['consults:update']({ id, patientName: '   ' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(c.pipeline.info(id)).toBeNull();
    // The name (and a description) given: the consult goes, with them, and every window hears of it.
    const announced: (string | null)[] = [];
    c.on('consult:changed', (e) => {
      if (e.recording.id === id) announced.push(e.recording.description);
    });
    // A change that sends nothing is announced too (no job moves to carry it).
    await h['consults:update']({ id, description: 'Vomiting' });
    expect(announced).toEqual(['Vomiting']);
    const named = await h['consults:update']({ id, patientName: ' Bella ', description: 'Vomiting since Tuesday' });
    expect(named).toMatchObject({
      ok: true,
      data: { recording: { patientName: 'Bella', description: 'Vomiting since Tuesday' }, job: { templateId } },
    });
    await waitForJob(c, id, (j) => j.state !== 'recorded');
    const locked = await h['consults:update']({ id, patientName: 'Rex' });
    expect(locked).toEqual({
      ok: false,
      error: { code: 'conflict', message: "The consult has been sent; the patient's name can no longer be changed." },
    });
    expect(await h['consults:update']({ id, description: 'Something else' })).toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    });
    // The same name again, or the label, is no change to what was sent.
    expect(await h['consults:update']({ id, patientName: 'Bella', label: 'Room 2' })).toMatchObject({
      ok: true,
      data: { recording: { patientName: 'Bella', label: 'Room 2' } },
    });
    expect((await waitForJob(c, id, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe('completed');
    const note = await h['consults:note']({ id });
    expect(note).toMatchObject({
      ok: true,
      data: {
        patientName: 'Bella',
        recordingSessionDate: localDate(started.startedAt),
        rtf: expect.stringMatching(/^\{\\rtf1/),
      },
    });
    expect(note.ok && note.data.note).toContain('Bella');
  });

  it('gives the note as text, HTML and RTF, exports .txt, .rtf and .pdf, and copies through the clipboard port', async () => {
    const written: { text: string; html: string; rtf: string }[] = [];
    const { c, h, templateId } = await signedInCore({ clipboard: { write: (f) => void written.push(f) } });
    const { id, started } = await record(h, { templateId, patientName: 'Bella' });
    await waitForJob(c, id, (j) => j.state === 'completed');
    const date = localDate(started.startedAt);
    const formats = await h['consults:noteFormats']({ id });
    if (!formats.ok) throw new Error(formats.error.message);
    const { text, html, rtf, fileBase } = formats.data;
    // Unedited: the service's own RTF, as it came.
    expect(rtf).toBe(c.pipeline.note(id).noteRtf);
    expect(text).toContain('Bella');
    expect(text).toContain(formatNoteDate(date)!);
    expect(html).toMatch(/<h\d[^>]*>/);
    expect(html).not.toMatch(/<script|javascript:/i);
    expect(fileBase).toContain('Bella');
    expect(fileBase).toContain(date);

    const txt = await h['consults:export']({ id, format: 'txt' });
    expect(txt).toMatchObject({
      ok: true,
      data: { fileName: `${fileBase}.txt`, mimeType: expect.stringMatching(/^text\/plain/) },
    });
    if (txt.ok) {
      expect(txt.data.data).toBeInstanceOf(Uint8Array);
      expect(Buffer.isBuffer(txt.data.data)).toBe(false);
      expect(new TextDecoder('utf-8', { fatal: true }).decode(txt.data.data)).toBe(text);
    }
    const rtfFile = await h['consults:export']({ id, format: 'rtf' });
    expect(rtfFile).toMatchObject({ ok: true, data: { fileName: `${fileBase}.rtf`, mimeType: 'application/rtf' } });
    if (rtfFile.ok) {
      expect([...rtfFile.data.data].every((b) => b < 0x80)).toBe(true);
      expect(Buffer.from(rtfFile.data.data).toString('ascii')).toBe(rtf);
    }
    const pdf = await h['consults:export']({ id, format: 'pdf' });
    expect(pdf).toMatchObject({ ok: true, data: { fileName: `${fileBase}.pdf`, mimeType: 'application/pdf' } });
    if (pdf.ok) {
      expect(Buffer.from(pdf.data.data.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
      expect(Buffer.from(pdf.data.data.subarray(-8)).toString('latin1')).toMatch(/%%EOF\s*$/);
    }
    expect(await h['consults:export']({ id, format: 'doc' as 'txt' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });

    // Edited: the formats follow the vet's words, and the RTF is made from them.
    expect(await h['consults:saveNote']({ id, text: 'Assessment\nMild gastritis, improving.' })).toMatchObject({
      ok: true,
    });
    const edited = await h['consults:noteFormats']({ id });
    expect(edited).toMatchObject({
      ok: true,
      data: {
        text: expect.stringContaining('Mild gastritis, improving.'),
        rtf: expect.stringMatching(/^\{\\rtf1[\s\S]*Mild gastritis, improving\./),
      },
    });
    expect(edited.ok && edited.data.rtf).not.toBe(c.pipeline.note(id).noteRtf);
    expect(await h['consults:note']({ id })).toMatchObject({
      ok: true,
      data: { editedNote: 'Assessment\nMild gastritis, improving.', rtf: null },
    });

    const flavours = edited.ok
      ? { text: edited.data.text, html: edited.data.html, rtf: edited.data.rtf }
      : { text: '', html: '', rtf: '' };
    expect(await h['clipboard:write'](flavours)).toEqual({ ok: true, data: { written: true } });
    expect(written).toEqual([flavours]);
    expect(await h['clipboard:write']({ text: 'only text' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(written).toHaveLength(1);
    // A note that does not exist yet says so.
    const { id: fresh } = await record(h, {});
    expect(await h['consults:export']({ id: fresh, format: 'txt' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('without a clipboard port (the browser host), clipboard:write answers written: false', async () => {
    const c = await startCore();
    own.push(c);
    expect(await createHandlers(c)['clipboard:write']({ text: 'a', html: '<p>a</p>', rtf: '{\\rtf1 a}' })).toEqual({
      ok: true,
      data: { written: false },
    });
  });

  it('Ask again is refused for a consult that is not late, with a sentence saying why', async () => {
    const { c, h, templateId } = await signedInCore();
    expect(await h['consults:askAgain']({ id: '2026-01-01T00-00-00Z-abcdef' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    const { id } = await record(h, { templateId, patientName: 'Bella' });
    await waitForJob(c, id, (j) => j.state === 'completed');
    expect(await h['consults:askAgain']({ id })).toEqual({
      ok: false,
      error: { code: 'conflict', message: 'This consult already has its note.' },
    });
  });

  it('agents:medication refuses empty input in main, and answers real input', async () => {
    const { c, h } = await signedInCore();
    const before = c.embeddedSandbox!.stats().requests;
    for (const input of ['', '  ', '\n\t']) {
      expect(await h['agents:medication']({ input })).toEqual({
        ok: false,
        error: { code: 'invalid_input', message: 'Type the drug and the species first (for example: meloxicam, dog).' },
      });
    }
    expect(c.embeddedSandbox!.stats().requests).toBe(before);
    const answer = await h['agents:medication']({ input: 'Meloxicam dosing for a 20 kg dog' });
    expect(answer).toMatchObject({ ok: true, data: { status: true } });
  });

  it('org:get reads the organization, and org:registerWebhook registers the endpoint', async () => {
    const { c, h } = await signedInCore();
    expect(await h['org:setNotificationEmail']({ email: 'alerts@clinic.test' })).toMatchObject({ ok: true });
    expect(await h['org:get'](undefined)).toMatchObject({
      ok: true,
      data: { emailNotification: 'alerts@clinic.test' },
    });
    const hook = await h['org:registerWebhook']({
      url: 'https://clinic.example/hooks/scribe',
      secret: 'a-secret-of-at-least-16',
    });
    expect(hook).toMatchObject({ ok: true, data: { eventType: 'scribe', isActive: true } });
    expect(JSON.stringify(hook)).not.toContain('a-secret-of-at-least-16');
    // The secret went to the service (PUT /webhook/update) and into the secret store, not into settings.
    expect(c.embeddedSandbox!.stats().byRoute['PUT /scribe/webhook/update']).toBe(1);
    expect(await c.options.secretStore.loadSecret('webhook-secret')).toBe('a-secret-of-at-least-16');
    // No file of the app's own holds it (the embedded sandbox's folder is the service's side).
    const files = readdirSync(c.options.dataDir, { recursive: true, encoding: 'utf8' }).filter(
      (f) => !f.startsWith('sandbox'),
    );
    for (const f of files) {
      const path = join(c.options.dataDir, f);
      if (statSync(path).isFile()) expect(readFileSync(path, 'utf8'), f).not.toContain('a-secret-of-at-least-16');
    }
    expect(
      await h['org:registerWebhook']({ url: 'http://clinic.example/hooks', secret: 'a-secret-of-at-least-16' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/https/) },
    });
    expect(await h['org:registerWebhook']({ url: 'https://clinic.example/hooks', secret: 'short' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(c.embeddedSandbox!.stats().byRoute['PUT /scribe/webhook/update']).toBe(1);
  });
});
