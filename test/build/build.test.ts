// The built app (electron-vite build): main, preload and window exist, the main bundle imports
// only Node built-ins, electron and keytar (everything else is bundled, so nothing is loaded
// from inside app.asar but the native addon, from app.asar.unpacked), and the preload stays
// one small CommonJS file.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const out = join(root, 'out');
const built = existsSync(join(out, 'main/index.js'));

describe('built app', () => {
  it('is built (npm run build runs before the tests in CI)', () => {
    expect(built, 'out/main/index.js is missing: run "npm run build" first').toBe(true);
  });

  it('main imports only built-ins, electron and keytar (the native addon); every other package is bundled', () => {
    const code = readFileSync(join(out, 'main/index.js'), 'utf8');
    const specifiers = new Set(
      [
        ...code.matchAll(/^import\s[^'"]*['"]([^'"]+)['"]/gm),
        ...code.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g),
      ].map((m) => m[1]!),
    );
    const required = new Set([...code.matchAll(/__require\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!));
    const packages = [...specifiers, ...required].filter(
      (s) => !s.startsWith('.') && !builtinModules.includes(s.replace(/^node:/, '')) && !s.startsWith('node:'),
    );
    expect(new Set(packages)).toEqual(new Set(['electron', 'keytar']));
    const require = createRequire(join(root, 'package.json'));
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    for (const spec of specifiers) {
      if (spec.startsWith('.') || builtins.has(spec) || spec === 'electron') continue;
      const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
      expect(() => require.resolve(`${pkg}/package.json`), `${spec} does not resolve`).not.toThrow();
      const deps = (
        JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
      ).dependencies;
      expect(
        Object.keys(deps),
        `${pkg} is imported at run time, so it must be a dependency, not a devDependency`,
      ).toContain(pkg);
    }
  });

  it('preload is one CommonJS file that requires only electron', () => {
    const code = readFileSync(join(out, 'preload/index.cjs'), 'utf8');
    const required = [...code.matchAll(/require\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]);
    expect(new Set(required)).toEqual(new Set(['electron']));
    expect(code).not.toMatch(/^import\s/m);
    expect(code.length).toBeLessThan(20_000);
  });

  it('the window page loads its script from its own files, under the CSP', () => {
    const html = readFileSync(join(out, 'renderer/index.html'), 'utf8');
    expect(html).toContain('Content-Security-Policy');
    const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) expect(src).toMatch(/^\.\/assets\//);
    expect(html).not.toMatch(/<script(?![^>]*src=)[^>]*>\s*\S/);
    expect(readdirSync(join(out, 'renderer/assets')).some((f) => f.endsWith('.js'))).toBe(true);
  });
});
