// The canonical form against Python's own json module: the committed vectors, a batch of
// random documents canonicalised by python3 in one call, and the edges where the project's
// rule (keep each number's text) knowingly differs from Python's float repr.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  canonicalJsonFromValue,
  compareCodePoints,
  MAX_DEPTH,
  WebhookPayloadError,
} from '../../../src/shared/webhook/index.ts';
import { seededRandom } from '../../../src/shared/seeded-random.ts';
import { vectors, VECTORS_FILE, VECTORS_SCRIPT } from '../../support/webhook-vectors.ts';

/** Python's canonical text of each body, or null where json.loads refuses it. */
function pythonCanonical(raws: string[]): (string | null)[] {
  const run = spawnSync('python3', [VECTORS_SCRIPT, '--canonical'], {
    input: JSON.stringify(raws),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`python3 failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as (string | null)[];
}

function payloadError(fn: () => unknown): WebhookPayloadError {
  try {
    fn();
  } catch (error) {
    if (error instanceof WebhookPayloadError) return error;
    throw error;
  }
  throw new Error('no WebhookPayloadError was thrown');
}

describe('canonicalJson against the Python vectors', () => {
  it('the committed fixture is what the script writes today', () => {
    const run = spawnSync('python3', [VECTORS_SCRIPT, '--stdout'], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(readFileSync(VECTORS_FILE, 'utf8'));
    expect(vectors.length).toBeGreaterThanOrEqual(25);
  });

  it.each(vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    expect(canonicalJson(v.raw)).toBe(v.canonical);
  });
});

describe('canonicalJson details', () => {
  it('keeps each number as the sender wrote it, where Python would re-print floats', () => {
    const raw = '{"b": 1e-7, "a": 2.0, "c": -0, "d": 1E+5, "e": 0.10, "f": 1e400}';
    expect(canonicalJson(raw)).toBe('{"a":2.0,"b":1e-7,"c":-0,"d":1E+5,"e":0.10,"f":1e400}');
    // The difference is deliberate (src/shared/webhook/canonical-json.ts): Python's repr is not what the sender signed.
    expect(pythonCanonical([raw])).toEqual(['{"a":2.0,"b":1e-07,"c":0,"d":100000.0,"e":0.1,"f":Infinity}']);
  });

  it('sorts keys by code point, not by UTF-16 unit', () => {
    const raw = JSON.stringify({ '\uffff': 1, '\u{1F600}': 2, '\ue000': 3, z: 4, '\ud800': 5 });
    expect(canonicalJson(raw)).toBe('{"z":4,"\\ud800":5,"\\ue000":3,"\\uffff":1,"\\ud83d\\ude00":2}');
    expect(pythonCanonical([raw])).toEqual([canonicalJson(raw)]);
    expect(['\u{1F600}', '\uffff', 'a'].sort(compareCodePoints)).toEqual(['a', '\uffff', '\u{1F600}']);
    expect(compareCodePoints('ab', 'ab')).toBe(0);
    expect(compareCodePoints('a', 'ab')).toBeLessThan(0);
  });

  it('escapes as Python does: lowercase hex, DEL escaped, slash left alone', () => {
    expect(canonicalJson('"\\u00C9\\/\u007f\u2028\\b\\f\\n\\r\\t\\"\\\\\\u0001"')).toBe(
      '"\\u00c9/\\u007f\\u2028\\b\\f\\n\\r\\t\\"\\\\\\u0001"',
    );
  });

  it('lets the last of duplicate keys win', () => {
    expect(canonicalJson('{"a": 1, "a": [2], "__proto__": {"x": 1}}')).toBe('{"__proto__":{"x":1},"a":[2]}');
  });

  const invalid = [
    '',
    ' \n ',
    '{',
    '{"a":}',
    '[1,]',
    '{"a":1,}',
    "{'a':1}",
    '{a:1}',
    '01',
    '1.',
    '.5',
    '+1',
    '-',
    '1e',
    '"\u0001"',
    '"\\x"',
    '"\\u12G4"',
    '"abc',
    '\ufeff{}',
    '\u00a0{}',
    '{} x',
    '[] []',
    'tru',
    'nul',
    '[1 2]',
  ];
  it.each(invalid.map((raw) => [JSON.stringify(raw), raw] as const))('rejects %s, as Python does', (_label, raw) => {
    const error = payloadError(() => canonicalJson(raw));
    expect(error.offset).toEqual(expect.any(Number));
    expect(error.message).toMatch(/at offset \d+$/);
  });

  it('Python refuses the same texts', () => {
    expect(pythonCanonical(invalid)).toEqual(invalid.map(() => null));
  });

  it('rejects NaN and Infinity, which Python alone accepts', () => {
    for (const raw of ['NaN', 'Infinity', '-Infinity', '[1, NaN]'])
      expect(() => canonicalJson(raw)).toThrow(WebhookPayloadError);
  });

  it('says what went wrong and where', () => {
    const error = payloadError(() => canonicalJson('{"a": tru}'));
    expect(error.offset).toBe(6);
    expect(error.message).toBe("expected a JSON value, found 't' at offset 6");
    expect(payloadError(() => canonicalJson('{"a": 1 "b": 2}')).message).toBe("expected '}', found '\"' at offset 8");
    expect(payloadError(() => canonicalJson('["a\tb"]')).message).toBe(
      'control character U+0009 inside a string at offset 3',
    );
    expect(payloadError(() => canonicalJson('\ufeff[]')).message).toMatch(/byte-order mark/);
  });

  it(`accepts ${MAX_DEPTH} levels of nesting and refuses more with a clear error`, () => {
    expect(canonicalJson('['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH))).toBe(
      '['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH),
    );
    expect(payloadError(() => canonicalJson('['.repeat(MAX_DEPTH + 1) + ']'.repeat(MAX_DEPTH + 1))).message).toMatch(
      /nesting deeper than 512/,
    );
    expect(payloadError(() => canonicalJson('{"a":'.repeat(200_000))).message).toMatch(/nesting deeper than 512/);
  });
});

describe('canonicalJsonFromValue', () => {
  it('writes what canonicalJson writes for the same document', () => {
    const value = { z: [1, -2, 'Müller', { b: null, a: true }], é: '🐶\n', a: {}, big: 12345678901 };
    expect(canonicalJsonFromValue(value)).toBe(canonicalJson(JSON.stringify(value)));
    expect(canonicalJsonFromValue(value)).toBe(
      '{"a":{},"big":12345678901,"z":[1,-2,"M\\u00fcller",{"a":true,"b":null}],"\\u00e9":"\\ud83d\\udc36\\n"}',
    );
  });

  it('writes integers in full and other numbers as String() does', () => {
    expect(canonicalJsonFromValue([1e21, 0.5, 1e-7, -0, 2.0, -1.25])).toBe(
      '[1000000000000000000000,0.5,1e-7,0,2,-1.25]',
    );
  });

  it('uses toJSON as JSON.stringify does', () => {
    expect(canonicalJsonFromValue({ at: new Date(Date.UTC(2025, 0, 2, 3, 4, 5)) })).toBe(
      '{"at":"2025-01-02T03:04:05.000Z"}',
    );
  });

  it('refuses what has no JSON form, naming where it is', () => {
    const cases: [unknown, RegExp][] = [
      [NaN, /NaN has no JSON form/],
      [{ a: [Infinity] }, /\$\.a\[0\]: Infinity/],
      [{ a: undefined }, /\$\.a: a undefined has no JSON form/],
      [() => 1, /a function/],
      [{ n: 10n }, /\$\.n: a bigint/],
      [Symbol('s'), /a symbol/],
      [new Map(), /only plain objects and arrays/],
    ];
    for (const [value, message] of cases)
      expect(payloadError(() => canonicalJsonFromValue(value)).message).toMatch(message);
    const loop: Record<string, unknown> = {};
    loop['self'] = loop;
    expect(payloadError(() => canonicalJsonFromValue(loop)).message).toMatch(/circular/);
    // The same object twice, but not inside itself, is fine.
    const shared = { x: 1 };
    expect(canonicalJsonFromValue([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });
});

// Random documents with hostile strings and keys, written with random spacing, escapes and
// key order, compared with what python3 makes of the same text.
describe('random documents agree with Python', () => {
  interface Generated {
    raw: string;
    value: unknown;
    exact: boolean;
  }

  function generator(random: () => number): () => Generated {
    const int = (n: number): number => Math.floor(random() * n);
    const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
    const space = (): string =>
      random() < 0.6 ? '' : Array.from({ length: int(3) + 1 }, () => pick([' ', '\t', '\n', '\r'])).join('');

    function codePoint(): number {
      const range = pick([
        [0x00, 0x20],
        [0x20, 0x7f],
        [0x20, 0x7f],
        [0x7f, 0x100],
        [0x100, 0xd800],
        [0xd800, 0xe000],
        [0xe000, 0x10000],
        [0x10000, 0x110000],
        [0x1f300, 0x1fa00],
      ] as const);
      return range[0] + int(range[1] - range[0]);
    }

    function str(): { raw: string; value: string } {
      let raw = '"';
      let value = '';
      const length = int(8);
      for (let i = 0; i < length; i++) {
        const cp = codePoint();
        const ch = String.fromCodePoint(cp);
        value += ch;
        const lone = cp >= 0xd800 && cp < 0xe000;
        const mustEscape = cp < 0x20 || cp === 0x22 || cp === 0x5c || lone;
        if (mustEscape || random() < 0.3) {
          // Lone surrogates cannot travel as UTF-8, so they are always escaped.
          for (let j = 0; j < ch.length; j++) {
            const hex = ch.charCodeAt(j).toString(16).padStart(4, '0');
            raw += '\\u' + (random() < 0.5 ? hex : hex.toUpperCase());
          }
        } else {
          raw += ch;
        }
      }
      return { raw: raw + '"', value };
    }

    function num(): Generated {
      if (random() < 0.2) {
        const digits = String(1 + int(9)) + Array.from({ length: 20 + int(30) }, () => String(int(10))).join('');
        return { raw: (random() < 0.5 ? '-' : '') + digits, value: 0, exact: false };
      }
      const n = int(2_000_001) - 1_000_000;
      return { raw: String(n), value: n, exact: true };
    }

    function node(depth: number): Generated {
      const kind = depth > 3 ? int(3) : int(5);
      if (kind === 0) {
        const s = str();
        return { raw: s.raw, value: s.value, exact: true };
      }
      if (kind === 1) return num();
      if (kind === 2) {
        const literal = pick([true, false, null]);
        return { raw: String(literal), value: literal, exact: true };
      }
      if (kind === 3) {
        const items = Array.from({ length: int(4) }, () => node(depth + 1));
        const raw = '[' + space() + items.map((i) => i.raw).join(space() + ',' + space()) + space() + ']';
        return { raw, value: items.map((i) => i.value), exact: items.every((i) => i.exact) };
      }
      const value: Record<string, unknown> = {};
      const parts: string[] = [];
      let exact = true;
      for (let i = int(5); i > 0; i--) {
        const key = random() < 0.2 && parts.length > 0 ? pick(Object.keys(value)) : str().value;
        const item = node(depth + 1);
        // Duplicate keys: the last one wins, and its position in the value is the first one's.
        value[key] = item.value;
        exact &&= item.exact;
        parts.push(JSON.stringify(key) + space() + ':' + space() + item.raw);
      }
      return { raw: '{' + space() + parts.join(space() + ',' + space()) + space() + '}', value, exact };
    }

    return () => {
      const doc = node(0);
      return { ...doc, raw: space() + doc.raw + space() };
    };
  }

  it('canonicalJson and canonicalJsonFromValue match json.dumps(sort_keys=True) on 400 documents', () => {
    const seed = Number(process.env['WEBHOOK_PROPERTY_SEED'] ?? Date.now() % 1_000_000);
    const next = generator(seededRandom(seed));
    const docs = Array.from({ length: 400 }, next);
    const python = pythonCanonical(docs.map((d) => d.raw));
    let exactCount = 0;
    docs.forEach((doc, i) => {
      const context = `seed ${seed}, document ${i}: ${JSON.stringify(doc.raw)}`;
      expect(canonicalJson(doc.raw), context).toBe(python[i]);
      if (doc.exact) {
        exactCount++;
        expect(canonicalJsonFromValue(doc.value), context).toBe(python[i]);
      }
    });
    expect(exactCount).toBeGreaterThan(100);
  });
});
