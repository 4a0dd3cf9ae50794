// scripts/check-comments.ts: a name quoted in a comment, or in a folder's README or a page of
// docs/, must still exist. Shown on small trees with names that were removed or renamed, and
// on the real tree, which must have none.
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

  it('reads a folder’s README and docs/ too, outside their code blocks, where a data file or a variable of the environment is no name', () => {
    const root = tempDir('vet-scribe-pages-');
    mkdirSync(join(root, 'src', 'core'), { recursive: true });
    mkdirSync(join(root, 'docs'), { recursive: true });
    writeFileSync(
      join(root, 'src', 'core', 'store.ts'),
      'export class Store {}\nconst key = process.env[`STORE_DIR`];\n',
    );
    writeFileSync(
      join(root, 'src', 'core', 'README.md'),
      [
        '`Store` writes `job.json` under `$STORE_DIR` for `provetcloud.com`’s `partner_id`; `store.ts` and `OldQueue`.',
        '```sh',
        '`NotChecked`',
        '```',
      ].join('\n'),
    );
    writeFileSync(join(root, 'docs', 'architecture.md'), 'See `core/old-queue.ts` and `Store.save()`.\n');
    expect(staleNames(root).map((s) => `${s.file}:${s.line}: ${s.name}`)).toEqual([
      'src/core/README.md:1: OldQueue',
      'docs/architecture.md:1: core/old-queue.ts',
      'docs/architecture.md:1: Store.save()',
    ]);
  });

  it('finds none in the tree', () => {
    expect(staleNames(resolve(import.meta.dirname, '../..'))).toEqual([]);
  });
});
