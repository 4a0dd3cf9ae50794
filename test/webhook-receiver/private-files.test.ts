// The receiver's store names every scribe the clinic was sent: readable by its owner only.
import { chmodSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deliver, published, receiver } from './support.ts';

describe('webhook receiver: file modes', () => {
  it('keeps its store readable by its owner only: the file, -wal and -shm 0600, a folder it creates 0700', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'vet-scribe-webhooks-')), 'nested', 'store');
    const r = await receiver({ dataDir: dir });
    expect((await deliver(r.url, published('sc-modes'))).status).toBe(200);
    const mode = (path: string) => statSync(path).mode & 0o777;
    const file = join(dir, 'webhook-seen.sqlite');
    expect({ file: mode(file), wal: mode(`${file}-wal`), shm: mode(`${file}-shm`) }).toEqual({
      file: 0o600,
      wal: 0o600,
      shm: 0o600,
    });
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, '..'))).toBe(0o700);

    // A store an older receiver left world-readable is narrowed when opened.
    const old = mkdtempSync(join(tmpdir(), 'vet-scribe-webhooks-'));
    mkdirSync(old, { recursive: true });
    const oldFile = join(old, 'webhook-seen.sqlite');
    writeFileSync(oldFile, '');
    chmodSync(oldFile, 0o644);
    const reopened = await receiver({ dataDir: old });
    expect((await deliver(reopened.url, published('sc-modes'))).status).toBe(200);
    expect([mode(oldFile), mode(`${oldFile}-wal`), mode(`${oldFile}-shm`)]).toEqual([0o600, 0o600, 0o600]);
  });
});
