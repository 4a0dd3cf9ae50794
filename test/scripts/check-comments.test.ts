// scripts/check-comments.ts: a name quoted in a comment must still exist. Shown on a small tree
// with names that were removed or renamed, and on the real tree, which must have none.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { staleNames } from '../../scripts/check-comments.ts';
import { tempDir } from '../support/core.ts';

describe('scripts/check-comments.ts', () => {
  it('names each quoted name that no longer exists, and leaves plain words, paths and channels alone', () => {
    const root = tempDir('vet-scribe-comments-');
    mkdirSync(join(root, 'src', 'core'), { recursive: true });
    writeFileSync(
      join(root, 'src', 'core', 'app.ts'),
      [
        '// `AppCore` builds `Pipeline`; a claim is `AppCore.claim`, once `AppCore.start()` ran.',
        '// `OldStore` kept this; see `old-store.ts` and `app.ts`, `recordingNamed()` and `#secret`.',
        '/** `full`, `claim`, `POST /chat`, `consults:submit`, `{ ok: true }`, `<data>/drafts` are no names. */',
        'export class AppCore {',
        '  start(): void {}',
        '  recordingNamed(): void {}',
        '}',
        'export class Pipeline {}',
        'const text = `a template with // no comment in it`;',
        'const pattern = /`NotAComment`/;',
        'void text;',
        'void pattern;',
      ].join('\n'),
    );
    expect(staleNames(root).map((s) => `${s.line}: ${s.name}: ${s.why}`)).toEqual([
      '1: AppCore.claim: `AppCore` has no member `claim`',
      '2: OldStore: no code names `OldStore`',
      '2: old-store.ts: no file of that name in the repository',
    ]);
  });

  it('finds none in the tree', () => {
    expect(staleNames(resolve(import.meta.dirname, '../..'))).toEqual([]);
  });
});
