// The window loads only what it runs: from src/shared it takes the zod-free modules (the
// schemas are main's, which parses every argument), and it never reaches Node or electron.
// zod alone was a fifth of the window's first script and as much start-up time as the
// window's own code (bench/RESULTS.md, startup).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const ENTRY = join(ROOT, 'src/renderer/src/main.tsx');

/** Specifiers a module loads at run time: `import type` and `export type` are left out. */
function runtimeImports(text: string): string[] {
  const specs: string[] = [];
  const re = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm;
  for (const m of text.matchAll(re)) {
    if (m[5]) specs.push(m[5]);
    else if (!m[2] && m[4]) specs.push(m[4]);
  }
  return specs;
}

/** Every module reachable from the window's entry, and the packages it reaches. */
function graph(): { files: Set<string>; packages: Map<string, string> } {
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of runtimeImports(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) {
        const target = resolve(dirname(file), spec);
        if (/\.(css|svg|png)$/.test(target)) continue;
        if (!existsSync(target)) throw new Error(`${file} imports ${spec}, which does not exist`);
        visit(target);
      } else if (!packages.has(spec)) {
        packages.set(spec, file);
      }
    }
  };
  visit(ENTRY);
  return { files, packages };
}

describe('the window’s imports', () => {
  it('reach no zod, no Node built-in and no electron', () => {
    const { files, packages } = graph();
    expect(files.size).toBeGreaterThan(20);
    const bad = [...packages]
      .filter(([p]) => p === 'zod' || p.startsWith('zod/') || p.startsWith('node:') || p === 'electron')
      .map(([p, f]) => `${p} (from ${f.slice(ROOT.length + 1)})`);
    expect(bad).toEqual([]);
    expect([...packages.keys()].sort()).toEqual(expect.arrayContaining(['react', 'react-dom/client', 'zustand']));
  });

  it('take from src/shared only modules that do not build schemas', () => {
    const shared = [...graph().files].filter((f) => f.includes('/src/shared/')).map((f) => f.slice(ROOT.length + 1));
    expect(shared.length).toBeGreaterThan(0);
    for (const f of shared) expect(readFileSync(join(ROOT, f), 'utf8'), f).not.toMatch(/from ['"]zod['"]/);
  });
});
