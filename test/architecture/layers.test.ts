// The layers of docs/architecture.md ("Layers"), checked by path on every source file under
// src/: what each layer may import, that a renderer feature is entered only through its
// index.ts, that what features share imports no feature, and that the import graph has no cycle. ESLint bans packages; this test bans paths.
// Every static `import … from`, `export … from`, side-effect `import '…'` and `import('…')`
// counts, type-only ones too (a type import is still a dependency a reader has to follow).
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

/** Every TypeScript source file under src/, relative to the repository ("src/…"). */
function sourceFiles(dir = SRC): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|tsx|mts)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(relative(ROOT, p));
  }
  return out.sort();
}

/** The specifiers a file imports. The clause before `from` holds only names, braces and `*`. */
function importSpecifiers(text: string): { spec: string; typeOnly: boolean }[] {
  const re =
    /^\s*(?:import|export)\s+(type\s+)?[\w$\s{},*]*?\s*from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;
  return [...text.matchAll(re)].map((m) => ({ spec: (m[2] ?? m[3] ?? m[4]) as string, typeOnly: Boolean(m[1]) }));
}

interface Edge {
  from: string;
  spec: string;
  /** `import type` / `export type`: erased by the compiler, still a dependency. */
  typeOnly: boolean;
  /** The source file a relative specifier names ("src/…"), or null for a package or an asset. */
  to: string | null;
}

/** A relative specifier as a source file: as written, or with .ts/.tsx or /index.ts added. */
function resolveRelative(from: string, spec: string): string | null {
  const base = resolve(ROOT, dirname(from), spec.replace(/\?.*$/, ''));
  if (/\.(css|svg|png|html|json)$/.test(base)) return null;
  for (const c of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(c) && statSync(c).isFile()) return relative(ROOT, c);
  }
  throw new Error(`${from} imports ${spec}, which does not exist`);
}

function edges(): Edge[] {
  return sourceFiles().flatMap((from) =>
    importSpecifiers(readFileSync(join(ROOT, from), 'utf8')).map(({ spec, typeOnly }) => ({
      from,
      spec,
      typeOnly,
      to: spec.startsWith('.') ? resolveRelative(from, spec) : null,
    })),
  );
}

const NODE_BUILTINS = new Set(builtinModules);
const isNodeBuiltin = (spec: string) => spec.startsWith('node:') || NODE_BUILTINS.has(spec.split('/')[0] as string);
const isElectron = (spec: string) => spec === 'electron' || spec.startsWith('electron/');
const under = (file: string | null, dir: string) => file !== null && file.startsWith(`${dir}/`);
const show = (e: Edge) => `${e.from} imports '${e.spec}'`;

/** A renderer feature's folder name, or null when the file is not in a feature. */
const feature = (file: string | null) =>
  file ? (/^src\/renderer\/src\/features\/([^/]+)\//.exec(file)?.[1] ?? null) : null;
/** Whether the file is a feature's front door, `features/<name>/index.ts`. */
const isFrontDoor = (file: string) => /^src\/renderer\/src\/features\/[^/]+\/index\.ts$/.test(file);

describe('the layers (docs/architecture.md)', () => {
  const all = edges();

  it('reads the whole source tree', () => {
    expect(new Set(all.map((e) => e.from)).size).toBeGreaterThan(100);
    expect(all.filter((e) => e.to !== null).length).toBeGreaterThan(300);
  });

  it('src/shared imports nothing of the other layers, no Node built-in and no electron', () => {
    const others = ['src/main', 'src/renderer', 'src/preload', 'src/sandbox', 'src/webhook-receiver'];
    const bad = all
      .filter((e) => under(e.from, 'src/shared'))
      .filter(
        (e) => others.some((d) => under(e.to, d)) || (e.to === null && (isNodeBuiltin(e.spec) || isElectron(e.spec))),
      )
      .map(show);
    expect(bad).toEqual([]);
  });

  it('src/main/core imports only core and shared, never electron or the sandbox', () => {
    // What the core needs of its platform comes in as ports (the secret store, notifications,
    // the embedded sandbox: src/main/embedded-sandbox.ts), so it runs under plain Node.
    const bad = all
      .filter((e) => under(e.from, 'src/main/core'))
      .filter((e) =>
        e.to === null ? isElectron(e.spec) : !(under(e.to, 'src/main/core') || under(e.to, 'src/shared')),
      )
      .map(show);
    expect(bad).toEqual([]);
  });

  it('each subsystem of the engine is entered through its index.ts from outside its folder', () => {
    // VS Code's rule, not only its layers: a subsystem's insides can change without a caller
    // elsewhere noticing, because no caller reaches them. The wiring (app-core.ts, ipc-handlers.ts,
    // core-options.ts) and Electron's main are outside every subsystem too.
    const subsystem = (file: string | null) => (file ? (/^src\/main\/core\/([^/]+)\//.exec(file)?.[1] ?? null) : null);
    const subsystems = new Set(
      readdirSync(join(SRC, 'main', 'core'), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name),
    );
    for (const name of subsystems) expect(existsSync(join(SRC, 'main', 'core', name, 'index.ts')), name).toBe(true);
    const bad = all.filter((e) => {
      const into = subsystem(e.to);
      return (
        into !== null && subsystems.has(into) && subsystem(e.from) !== into && e.to !== `src/main/core/${into}/index.ts`
      );
    });
    expect(bad.map(show)).toEqual([]);
  });

  it('src/renderer imports only the renderer and shared, no Node built-in and no electron', () => {
    const bad = all
      .filter((e) => under(e.from, 'src/renderer'))
      .filter((e) =>
        e.to === null
          ? isNodeBuiltin(e.spec) || isElectron(e.spec)
          : !(under(e.to, 'src/renderer') || under(e.to, 'src/shared')),
      )
      .map(show);
    expect(bad).toEqual([]);
  });

  it('every renderer feature has a front door, its index.ts', () => {
    const folders = readdirSync(join(SRC, 'renderer/src/features'), { withFileTypes: true }).filter((e) =>
      e.isDirectory(),
    );
    expect(folders.length).toBeGreaterThan(5);
    const without = folders.filter((e) => !existsSync(join(SRC, 'renderer/src/features', e.name, 'index.ts')));
    expect(without.map((e) => e.name)).toEqual([]);
  });

  it('a renderer feature is entered from outside only through its index.ts', () => {
    // Another feature, or the shell (app.tsx), may import `features/<name>/index.ts` and nothing
    // else of it: what lies behind the front door can be moved without looking outside.
    const crossing = all.filter(
      (e) =>
        under(e.from, 'src/renderer') &&
        feature(e.to) !== null &&
        feature(e.from) !== feature(e.to) &&
        !isFrontDoor(e.to as string),
    );
    expect(crossing.map(show)).toEqual([]);
  });

  it('what features share (components/, hooks/, lib/, stores/) imports no feature', () => {
    const shared = ['components', 'hooks', 'lib', 'stores'].map((d) => `src/renderer/src/${d}`);
    const bad = all.filter((e) => shared.some((d) => under(e.from, d)) && feature(e.to) !== null);
    expect(bad.map(show)).toEqual([]);
  });

  it('has no import cycle, type-only imports included', () => {
    const next = new Map<string, string[]>();
    for (const e of all) if (e.to !== null) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const stack: string[] = [];
    const visit = (file: string) => {
      state.set(file, 'open');
      stack.push(file);
      for (const to of next.get(file) ?? []) {
        if (state.get(to) === 'open') cycles.push([...stack.slice(stack.indexOf(to)), to].join(' -> '));
        else if (!state.has(to)) visit(to);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of sourceFiles()) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });
});
