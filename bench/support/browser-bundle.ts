// What the window's JavaScript is made of: a second build of the window with source maps, and
// each byte of the minified output charged to the package or source folder it came from.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

const ROOT = resolve(import.meta.dirname, '../..');

/** The window built as scripts/build-renderer.ts builds it, plus source maps. */
export async function buildWithSourceMaps(outDir: string): Promise<void> {
  await build({
    root: resolve(ROOT, 'src/renderer'),
    base: './',
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, minify: true, sourcemap: true },
  });
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** One segment of a source map's `mappings`: relative values, base64 VLQ. */
function decodeSegment(text: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const ch of text) {
    const digit = BASE64.indexOf(ch);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

/** `react-dom`, `zod`, `src/renderer`, ...: where a source of the map belongs. */
function owner(source: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1];
  if (pkg) return pkg;
  const own = /(?:^|\/)src\/([^/]+)\//.exec(source)?.[1];
  return own ? `src/${own}` : '(other)';
}

/** Minified bytes of `jsFile` by owner, from its source map; unmapped bytes count as "(unmapped)". */
export function bytesByOwner(jsFile: string): Map<string, number> {
  const code = readFileSync(jsFile, 'utf8').split('\n');
  const map = JSON.parse(readFileSync(`${jsFile}.map`, 'utf8')) as { sources: string[]; mappings: string };
  const totals = new Map<string, number>();
  const add = (key: string, n: number) => totals.set(key, (totals.get(key) ?? 0) + n);
  let source = 0;
  map.mappings.split(';').forEach((line, lineNo) => {
    const starts: { col: number; source: number | null }[] = [];
    let col = 0;
    for (const seg of line.split(',')) {
      if (!seg) continue;
      const v = decodeSegment(seg);
      col += v[0] ?? 0;
      if (v.length > 1) source += v[1] ?? 0;
      starts.push({ col, source: v.length > 1 ? source : null });
    }
    const length = code[lineNo]?.length ?? 0;
    if (starts.length === 0) add('(unmapped)', length);
    else add('(unmapped)', starts[0]!.col);
    starts.forEach((s, i) => {
      const end = starts[i + 1]?.col ?? length;
      add(s.source === null ? '(unmapped)' : owner(map.sources[s.source] ?? ''), end - s.col);
    });
  });
  return totals;
}

/** The .js files of a build's assets folder. */
export function scriptsIn(dir: string): string[] {
  return readdirSync(join(dir, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => join(dir, 'assets', f));
}
