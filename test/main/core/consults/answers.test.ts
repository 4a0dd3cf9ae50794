// Differentials asked from a consult's note are kept with the consult: listed for its clinic,
// refused to another clinic's account, and deleted with it. The real core, the sandbox over
// real HTTP, real files.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { MAX_AGENT_INPUT } from '../../../../src/shared/limits.ts';
import { OTHER_ACCOUNT } from '../../../../src/sandbox/state.ts';
import { recordThrough } from '../../../support/core.ts';
import { builtInCores } from '../support.ts';

const { core } = builtInCores();

const HISTORY = 'Dog, 3 years, vomiting three times since yesterday, ate from the kitchen bin, mild abdominal pain.';

describe('answers kept with a consult', () => {
  it('keeps the differentials asked from a note, shows them only to its clinic, and deletes them with the consult', async () => {
    const c = await core();
    const h = createHandlers(c);
    const demo = c.appInfo().sandbox!.demo;
    await c.session.signIn(demo.email, demo.password);
    const id = await recordThrough(h, 'Bella');

    const asked = await h['consults:askDdx']({ id, input: `  ${HISTORY}\n` });
    if (!asked.ok) throw new Error(asked.error.message);
    expect(asked.data).toMatchObject({ kind: 'ddx', question: HISTORY, result: { status: true } });
    expect(asked.data.result.diagnoses.length).toBeGreaterThan(0);
    const listed = await h['consults:answers']({ id });
    expect(listed).toEqual({ ok: true, data: [asked.data] });
    // The consult's trail says who started the conversation.
    const trail = await h['consults:trail']({ id });
    if (!trail.ok) throw new Error(trail.error.message);
    expect(trail.data.entries.filter((e) => e.action === 'conversation')).toEqual([
      expect.objectContaining({ action: 'conversation', userId: c.session.state().user!.id }),
    ]);
    const file = join(c.options.dataDir, 'answers', `${id}.json`);
    expect(existsSync(file)).toBe(true);

    // Bad input gets one sentence and sends nothing.
    const empty = await h['consults:askDdx']({ id, input: '   ' });
    expect(empty).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/input is required/) },
    });
    const long = await h['consults:askDdx']({ id, input: 'a'.repeat(MAX_AGENT_INPUT + 1) });
    expect(long).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const badId = await h['consults:answers']({ id: '../x' });
    expect(badId).toMatchObject({ ok: false, error: { code: 'invalid_input' } });

    // Another clinic's vet learns nothing of them, and cannot add to them.
    await c.session.signOut('user');
    await c.session.signIn(OTHER_ACCOUNT.email, OTHER_ACCOUNT.password);
    expect(await h['consults:answers']({ id })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await h['consults:askDdx']({ id, input: HISTORY })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });

    // Deleting the consult deletes its kept answers.
    await c.session.signOut('user');
    await c.session.signIn(demo.email, demo.password);
    expect((await h['consults:answers']({ id })).ok).toBe(true);
    expect(await h['consults:delete']({ id })).toEqual({ ok: true, data: { deleted: true } });
    expect(existsSync(file)).toBe(false);
    expect(await h['consults:answers']({ id })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
