// The setting "Sign in at the scribe address": sign-in with POST /auth/login on the scribing API
// instead of POST /auth/sign-in, against a real sandbox over loopback HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import type { JobInfo } from '../../../../src/shared/jobs.ts';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.ts';
import { makeRecording, startCoreAgainst, waitForJob } from '../../../support/core.ts';

const cores: AppCore[] = [];
const sandboxes: Sandbox[] = [];
afterEach(async () => {
  while (cores.length) await cores.pop()?.stop();
  while (sandboxes.length) await sandboxes.pop()?.close();
});

async function sandbox(options: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const s = await startSandbox(options);
  sandboxes.push(s);
  return s;
}

const done = (j: JobInfo) => j.state === 'completed' || j.state === 'failed';

describe('the /auth/login option (POST /auth/login)', () => {
  it('with signInAtScribe on, sign-in goes to /scribe/auth/login and the session works; off again, back to /agents/auth/sign-in', async () => {
    const s = await sandbox({ scribeSeconds: 0.2 });
    const c = await startCoreAgainst(s);
    cores.push(c);
    const handlers = createHandlers(c);
    const on = await handlers['settings:update']({ signInAtScribe: true });
    expect(on).toMatchObject({ ok: true, data: { signInAtScribe: true } });

    const signed = await handlers['session:signIn'](s.demo);
    expect(signed).toMatchObject({ ok: true, data: { signedIn: true, user: { email: s.demo.email } } });
    expect(s.stats().byRoute['POST /scribe/auth/login']).toBe(1);
    expect(s.stats().byRoute['POST /agents/auth/sign-in']).toBeUndefined();
    // The tokens from POST /auth/login are good for the rest of the workflow: templates, a whole job.
    const templates = await handlers['templates:list']({ page: 1 });
    expect(templates.ok).toBe(true);
    const id = await makeRecording(c);
    await c.pipeline.submit(id, templates.ok ? templates.data.items[0]!.id : '');
    expect((await waitForJob(c, id, done)).state).toBe('completed');
    // Wrong credentials through POST /auth/login read like those of POST /auth/sign-in.
    await handlers['session:signOut'](undefined);
    const wrong = await handlers['session:signIn']({ email: s.demo.email, password: 'nope' });
    expect(wrong).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^Invalid credentials$/) } });
    expect(s.stats().byRoute['POST /scribe/auth/login']).toBe(2);

    await handlers['settings:update']({ signInAtScribe: false });
    expect(await handlers['session:signIn'](s.demo)).toMatchObject({ ok: true });
    expect(s.stats().byRoute['POST /agents/auth/sign-in']).toBe(1);
    expect(s.stats().byRoute['POST /scribe/auth/login']).toBe(2);
  });
});
