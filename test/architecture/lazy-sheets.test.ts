// The window's first script holds what the sign-in screen and the recorder show, and the views
// shown later (the Consults list, the clinic's consults, the note) come in chunks of their own
// (src/renderer/src/lazy-views.tsx). Their sheets stay in the first stylesheet all the same: a
// sheet that came with its chunk would land after the base sheets (print.css last) and win over
// them where both set the same thing, on screen and on the printed note.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src/renderer/src');
const LAZY = ['consult-list', 'clinic', 'note'].map((f) => join(SRC, 'features', f, 'index.ts'));

/** Relative specifiers a module loads before it runs (static imports; `import type` left out). */
function staticImports(text: string): string[] {
  const specs: string[] = [];
  const re = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm;
  for (const m of text.matchAll(re)) {
    const spec = m[5] ?? (m[2] ? undefined : m[4]);
    if (spec?.startsWith('.')) specs.push(spec);
  }
  return specs;
}

/** Every file (scripts and sheets) the static imports from `entry` reach, never following `import()`. */
function reach(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (file.endsWith('.css')) return;
    for (const spec of staticImports(readFileSync(file, 'utf8'))) {
      const target = resolve(dirname(file), spec);
      if (!existsSync(target)) throw new Error(`${relative(ROOT, file)} imports ${spec}, which is not there`);
      visit(target);
    }
  };
  visit(entry);
  return seen;
}

const show = (files: Iterable<string>) => [...files].map((f) => relative(ROOT, f)).sort();

describe('the views loaded later', () => {
  const first = reach(join(SRC, 'main.tsx'));

  it('are not in the first script', () => {
    expect(show(LAZY.filter((f) => first.has(f)))).toEqual([]);
  });

  it('have every sheet of theirs in the first stylesheet', () => {
    const sheets = new Set(LAZY.flatMap((f) => [...reach(f)]).filter((f) => f.endsWith('.css')));
    expect(sheets.size).toBeGreaterThan(3);
    expect(show([...sheets].filter((f) => !first.has(f)))).toEqual([]);
  });
});
