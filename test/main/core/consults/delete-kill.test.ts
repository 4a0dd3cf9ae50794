// A delete cut short by a kill: the consult's line in the deletions file is written first, then
// its folder goes, then its drafts, kept answers and conversation. A kill between the two leaves
// a patient's conversation and an unsaved edit with no consult; the next start finishes the
// delete. The engine runs in a child process (support/delete-kill-child.ts) so it can be killed.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../../../src/main/core/sign-in/secret-store.ts';
import { startSandbox } from '../../../../src/sandbox/index.ts';
import { startCoreAgainst, tempDir } from '../../../support/core.ts';

const CHILD = join(import.meta.dirname, '../../../support/delete-kill-child.ts');

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** What is kept of consult `id` outside its folder: its kept answers, conversation and drafts. */
const leftovers = (dataDir: string, id: string) =>
  ['answers', 'conversations', 'drafts'].flatMap((dir) =>
    (existsSync(join(dataDir, dir)) ? readdirSync(join(dataDir, dir)) : [])
      .filter((name) => name.startsWith(id))
      .map((name) => `${dir}/${name}`),
  );

describe('a delete cut short by a kill', () => {
  it('the next start removes the drafts, answers and conversation of a consult whose folder is gone', async () => {
    const sandbox = await startSandbox({ scribeSeconds: 0.2, rateLimitPerMinute: 0 });
    cleanups.push(() => sandbox.close());
    const dataDir = tempDir('vet-scribe-delete-kill-');
    const urls = JSON.stringify({
      agentsUrl: sandbox.urls.agents_url,
      scribeUrl: sandbox.urls.scribe_url,
      agentsApiUrl: sandbox.urls.agents_api_url,
      ...sandbox.demo,
    });
    const child = spawn(process.execPath, [CHILD, dataDir, urls], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, sig) => resolve(sig)),
    );
    expect(signal, `${out}\n${err}`).toBe('SIGKILL');
    const lines = out.split('\n').filter((l) => l.startsWith('{'));
    expect(lines).toHaveLength(1);
    const { id } = JSON.parse(lines[0]!) as { id: string };

    // The folder is gone, the deletion noted; what was kept beside the consult is still there.
    expect(existsSync(join(dataDir, 'recordings', id))).toBe(false);
    expect(readFileSync(join(dataDir, 'deleted-consults.jsonl'), 'utf8')).toContain(`"id":"${id}"`);
    expect(
      leftovers(dataDir, id)
        .map((f) => f.split('/')[0])
        .sort(),
    ).toEqual(['answers', 'conversations', 'drafts']);

    const again = await startCoreAgainst(sandbox, { secretStore: new MemorySecretStore(), dataDir });
    cleanups.push(() => again.stop());
    expect(leftovers(dataDir, id)).toEqual([]);
    expect(again.cache.all().map((c) => c.recording.id)).not.toContain(id);
  });
});
