// Files an earlier version wrote under names since changed are read under today's names, and
// written again under today's only: a job on its way (its recording session and its state), the
// settings, what this computer recorded, the clinic's consults as last read, and the sandbox's
// own state.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClinicCopyFiles } from '../../src/main/core/clinic/copy-file.ts';
import { RecordedHere } from '../../src/main/core/clinic/recorded-here.ts';
import { jobRecordSchema, unsent } from '../../src/main/core/jobs/record.ts';
import { writeJsonAtomic } from '../../src/main/core/platform/atomic-file.ts';
import { SettingsStore } from '../../src/main/core/settings/settings.ts';
import { DEFAULT_SETTINGS } from '../../src/shared/settings.ts';
import { withNamesNow } from '../../src/shared/renamed.ts';
import { newSandboxSecret, startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { firstTemplateId, makeRecording, startCoreAgainst, tempDir, waitForJob } from '../support/core.ts';
import { call, fakeWebm, signIn, uploadRecording } from '../support/http.ts';

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

describe('withNamesNow', () => {
  it('moves a member to its name now, keeps the newer one when both were saved, and leaves what is not an object', () => {
    const renames = { sessionId: 'recordingSessionId' };
    expect(withNamesNow({ sessionId: 's1', x: 1 }, renames)).toEqual({ recordingSessionId: 's1', x: 1 });
    expect(withNamesNow({ sessionId: 'old', recordingSessionId: 'new' }, renames)).toEqual({
      recordingSessionId: 'new',
    });
    expect(withNamesNow(null, renames)).toBeNull();
    expect(withNamesNow(['sessionId'], renames)).toEqual(['sessionId']);
  });
});

describe('a job file written before the recording session was named so', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ scribeSeconds: 0.2 });
  });
  afterAll(() => sandbox.close());

  it('resumes from its `sessionId` at the old state `session_created`, asks for no other recording session, and is saved under the names now', async () => {
    const dataDir = tempDir();
    const first = await startCoreAgainst(sandbox, { dataDir });
    await first.session.signIn(sandbox.demo.email, sandbox.demo.password);
    const template = await firstTemplateId(first);
    const id = await makeRecording(first);
    const jobFile = join(dirname(first.recordings.audioPath(id)), 'job.json');
    await first.stop();
    // The recording session the earlier version had made before it stopped.
    const made = await call<{ public_id: string }>('POST', `${sandbox.urls.scribe_url}/recording-sessions/create`, {
      token: (await signIn(sandbox)).access,
      body: { patient_name: 'Bella', description: '', session_date: '2026-11-20' },
    });
    const { recordingSessionId: _now, ...fields } = unsent(new Date().toISOString());
    await writeJsonAtomic(jobFile, {
      version: 1,
      recordingId: id,
      templateId: template,
      ...fields,
      state: 'session_created',
      sessionId: made.json.public_id,
      bytesTotal: 1,
    });
    const creates = () => sandbox.stats().byRoute['POST /scribe/recording-sessions/create'] ?? 0;
    const before = creates();

    const again = await startCoreAgainst(sandbox, { dataDir, secretStore: first.options.secretStore });
    try {
      const job = await waitForJob(again, id, (j) => j.state === 'completed' || j.state === 'failed');
      expect(job.error).toBeNull();
      expect(job.state).toBe('completed');
      expect(creates()).toBe(before);
      expect([...again.pipeline.serviceIds(id).recordingSessionIds]).toEqual([made.json.public_id]);
      const saved = json(jobFile);
      expect(saved['recordingSessionId']).toBe(made.json.public_id);
      expect(saved).not.toHaveProperty('sessionId');
    } finally {
      await again.stop();
    }
  });

  it('a failed step saved as `session_created` is read as `recording_session_created`', () => {
    const { recordingSessionId: _now, ...fields } = unsent('2026-11-20T10:00:00.000Z');
    const parsed = jobRecordSchema.parse({
      version: 1,
      recordingId: 'r1',
      templateId: 't1',
      ...fields,
      sessionId: 's1',
      state: 'failed',
      failedAt: 'session_created',
      bytesTotal: 1,
    });
    expect(parsed).toMatchObject({ state: 'failed', failedAt: 'recording_session_created', recordingSessionId: 's1' });
  });
});

describe('settings saved under earlier names', () => {
  it('“Ask for the pet owner’s consent” saved as askOwnerConsent, and the sign-in row as useLoginRow, are kept and saved again under their names now', async () => {
    const dataDir = tempDir();
    const { askPetOwnerConsent: _a, signInAtScribe: _s, ...rest } = DEFAULT_SETTINGS;
    await writeJsonAtomic(join(dataDir, 'settings.json'), { ...rest, askOwnerConsent: true, useLoginRow: true });
    const store = new SettingsStore(dataDir);
    expect(await store.load()).toMatchObject({ askPetOwnerConsent: true, signInAtScribe: true });
    expect(store.notice).toBeNull();
    await store.update({ scribeOverdueMinutes: 45 });
    const saved = json(join(dataDir, 'settings.json'));
    expect(saved).toMatchObject({ askPetOwnerConsent: true, signInAtScribe: true, scribeOverdueMinutes: 45 });
    expect(saved).not.toHaveProperty('askOwnerConsent');
    expect(saved).not.toHaveProperty('useLoginRow');
  });
});

describe('the clinic’s files written under the earlier names', () => {
  it('recorded-here.json: its recording sessions and its asks are read, and written again under the names now', async () => {
    const dataDir = tempDir();
    const ask = {
      id: 'a1',
      recordingId: 'r1',
      patientName: 'Bella',
      description: '',
      sessionDate: '2026-11-20',
      askedAt: Date.now(),
      userId: 'u1',
      organizationId: 'o1',
      service: 'https://scribe.example',
    };
    const file = join(dataDir, 'clinic', 'recorded-here.json');
    mkdirSync(dirname(file), { recursive: true });
    await writeJsonAtomic(file, { sessionIds: ['s1'], scribeIds: ['c1'], asks: [{ ...ask, sessionId: 's1' }] });
    const here = new RecordedHere(dataDir);
    const known = await here.known();
    expect([...known.recordingSessionIds]).toEqual(['s1']);
    expect(known.asks).toEqual([
      expect.objectContaining({ id: 'a1', recordingSessionId: 's1', recordingSessionDate: '2026-11-20' }),
    ]);
    await here.add({ recordingSessionIds: new Set(['s2']), scribeIds: new Set() });
    const saved = json(file);
    expect(saved).toMatchObject({ recordingSessionIds: ['s1', 's2'], scribeIds: ['c1'] });
    expect(saved).not.toHaveProperty('sessionIds');
    expect(saved['asks']).toEqual([
      expect.objectContaining({ recordingSessionId: 's1', recordingSessionDate: '2026-11-20' }),
    ]);
    expect(JSON.stringify(saved)).not.toMatch(/"session(Id|Date)"/);
  });

  it('the clinic’s consults as last read: the recording sessions and each scribe’s are read back', async () => {
    const dir = tempDir();
    const files = new ClinicCopyFiles(dir);
    const account = { userId: 'u1', organizationId: 'o1', service: 'https://scribe.example' };
    const copy = {
      version: 1 as const,
      account,
      refreshedAt: '2026-11-20T10:00:00.000Z',
      truncated: false,
      scribes: [{ id: 'c1', updatedAt: null, templateId: 't1', status: 'scribed', recordingSessionId: 's1' }],
      recordingSessions: [{ id: 's1', updatedAt: null, patientName: 'Bella', description: null }],
      templateNames: {},
      linked: {},
      notes: {},
    };
    await files.write(copy);
    const [path] = readdirSync(dir).map((n) => join(dir, n));
    if (!path) throw new Error('no copy written');
    const { recordingSessions, scribes, ...rest } = json(path);
    const [scribe] = scribes as Record<string, unknown>[];
    const { recordingSessionId, ...scribeRest } = scribe ?? {};
    writeFileSync(
      path,
      JSON.stringify({
        ...rest,
        sessions: recordingSessions,
        scribes: [{ ...scribeRest, sessionId: recordingSessionId }],
      }),
    );
    expect(await files.read(account)).toEqual(copy);
  });
});

describe('the sandbox’s state saved under the earlier name of its recording sessions', () => {
  it('keeps them: a recording session saved as `sessions` is still the caller’s after a restart', async () => {
    const dataDir = tempDir();
    const secretKey = newSandboxSecret();
    const first = await startSandbox({ dataDir, secretKey, scribeSeconds: 0 });
    const me = await signIn(first);
    const { recordingSessionId } = await uploadRecording(first, me.access, fakeWebm());
    await first.close();
    const file = join(dataDir, 'sandbox-state.json');
    const { recording_sessions, ...rest } = json(file);
    expect(recording_sessions).toHaveProperty(recordingSessionId);
    writeFileSync(file, JSON.stringify({ ...rest, sessions: recording_sessions }));

    const second = await startSandbox({ dataDir, secretKey, scribeSeconds: 0 });
    try {
      const got = await call<{ public_id: string }>(
        'GET',
        `${second.urls.scribe_url}/recording-sessions/get/${recordingSessionId}`,
        { token: me.access },
      );
      expect(got.status).toBe(200);
      expect(got.json.public_id).toBe(recordingSessionId);
    } finally {
      await second.close();
    }
  });
});
