// The canonical form of a webhook payload (docs/service.md, "Webhooks"): the text that
// Python's `json.dumps(json.loads(raw), sort_keys=True, separators=(",", ":"))` writes.
//
// The parser is written by hand because JSON.parse turns every number into a double and so
// forgets how it was written (`2.0` comes back as `2`, `1e-7` as `1e-7` but `1E-7` too); the
// canonical text must keep each number's text as the sender wrote it. Python itself would
// re-print floats in its own repr (`1e-7` -> `1e-07`, `1E5` -> `100000.0`, `-0` -> `0`); this
// project's rule is to keep the sender's text, which equals Python's output whenever the sender
// is Python (its numbers are already in repr form) and never rewrites what the sender signed.
//
// Other choices, each matching CPython's json module unless said otherwise:
// - a leading byte-order mark is rejected, as `json.loads` rejects a BOM-prefixed str;
// - control characters (U+0000-U+001F) inside strings are rejected (json.loads strict=True);
// - duplicate keys: the last one wins;
// - keys are sorted by code point, as Python sorts str; JavaScript's default sort compares
//   UTF-16 code units, which puts astral characters (surrogate pairs) before U+E000-U+FFFF;
// - `NaN`, `Infinity` and `-Infinity`, which Python accepts as an extension, are rejected: they
//   are not JSON, and Python senders refuse to write them (`requests` uses allow_nan=False).

/** A body that is not JSON, or a value that has no JSON form. */
export class WebhookPayloadError extends Error {
  /** Offset in the text (UTF-16 code units) where parsing stopped, when known. */
  readonly offset: number | null;

  constructor(message: string, offset: number | null = null) {
    super(offset === null ? message : `${message} at offset ${offset}`);
    this.name = 'WebhookPayloadError';
    this.offset = offset;
  }
}

/** Ordinary payloads nest a few levels; the cap keeps hostile input from exhausting the stack. */
export const MAX_DEPTH = 512;

/** Canonical text of a JSON body (the wire text), keeping every number as written. */
export function canonicalJson(rawBody: string): string {
  return new Parser(rawBody).document();
}

/**
 * Canonical text of a value a sender builds in JavaScript. A JS number has no int/float
 * distinction: integers are written in full decimal, other numbers as String(n) writes them.
 */
export function canonicalJsonFromValue(value: unknown): string {
  return fromValue(value, 0, new Set<object>(), '$');
}

/** Python's string escaping with ensure_ascii=True: only printable ASCII stays as it is. */
export function quoteString(value: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    // Printable ASCII other than `"` and `\` is copied in runs; note 0x7F (DEL) is escaped.
    if (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c) continue;
    out += value.slice(start, i) + escapeUnit(c);
    start = i + 1;
  }
  return out + value.slice(start) + '"';
}

function escapeUnit(c: number): string {
  switch (c) {
    case 0x22:
      return '\\"';
    case 0x5c:
      return '\\\\';
    case 0x0a:
      return '\\n';
    case 0x0d:
      return '\\r';
    case 0x09:
      return '\\t';
    case 0x08:
      return '\\b';
    case 0x0c:
      return '\\f';
    default:
      // Astral characters are two UTF-16 units here, so they come out as a surrogate pair.
      return '\\u' + c.toString(16).padStart(4, '0');
  }
}

/** Orders strings by code point, as Python compares str. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length - b.length;
  // Step back onto a shared high surrogate, so that a pair is read as one code point.
  if (i > 0 && isHighSurrogate(a.charCodeAt(i - 1))) i--;
  return (a.codePointAt(i) ?? 0) - (b.codePointAt(i) ?? 0);
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function joinObject(members: Map<string, string>): string {
  const keys = [...members.keys()].sort(compareCodePoints);
  return '{' + keys.map((k) => quoteString(k) + ':' + (members.get(k) ?? '')).join(',') + '}';
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;

class Parser {
  private pos = 0;
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  document(): string {
    if (this.text.charCodeAt(0) === 0xfeff) throw this.fail('unexpected byte-order mark (U+FEFF)');
    this.skipSpace();
    if (this.pos >= this.text.length) throw this.fail('expected a JSON value, found the end of the text');
    const canonical = this.value(0);
    this.skipSpace();
    if (this.pos < this.text.length) throw this.fail(`unexpected ${this.describe()} after the JSON value`);
    return canonical;
  }

  // Recursion depth is bounded by MAX_DEPTH, far below what the JS stack can take.
  private value(depth: number): string {
    const c = this.text[this.pos];
    switch (c) {
      case '{':
        return this.object(depth + 1);
      case '[':
        return this.array(depth + 1);
      case '"':
        return quoteString(this.string());
      case 't':
        return this.literal('true');
      case 'f':
        return this.literal('false');
      case 'n':
        return this.literal('null');
      default:
        if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
        throw this.fail(
          c === undefined
            ? 'expected a JSON value, found the end of the text'
            : `expected a JSON value, found ${this.describe()}`,
        );
    }
  }

  private object(depth: number): string {
    const members = new Map<string, string>();
    this.members(depth, '}', () => {
      if (this.text[this.pos] !== '"') throw this.fail(`expected a string key, found ${this.describe()}`);
      const key = this.string();
      this.skipSpace();
      this.expect(':');
      this.skipSpace();
      members.set(key, this.value(depth));
    });
    return joinObject(members);
  }

  private array(depth: number): string {
    const items: string[] = [];
    this.members(depth, ']', () => items.push(this.value(depth)));
    return '[' + items.join(',') + ']';
  }

  /** From an object's or an array's opening character to its `close`: each member read by `read`, commas between. */
  private members(depth: number, close: '}' | ']', read: () => void): void {
    this.checkDepth(depth);
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === close) {
      this.pos++;
      return;
    }
    for (;;) {
      read();
      this.skipSpace();
      if (this.text[this.pos] === ',') {
        this.pos++;
        this.skipSpace();
        continue;
      }
      this.expect(close);
      return;
    }
  }

  private string(): string {
    const text = this.text;
    const open = this.pos;
    this.pos++;
    let out = '';
    let start = this.pos;
    for (;;) {
      if (this.pos >= text.length) throw new WebhookPayloadError('unterminated string', open);
      const c = text.charCodeAt(this.pos);
      if (c === 0x22) {
        out += text.slice(start, this.pos);
        this.pos++;
        return out;
      }
      if (c < 0x20) throw this.fail(`control character U+${hex4(c)} inside a string`);
      if (c !== 0x5c) {
        this.pos++;
        continue;
      }
      out += text.slice(start, this.pos);
      out += this.escape();
      start = this.pos;
    }
  }

  private escape(): string {
    const at = this.pos;
    const e = this.text[this.pos + 1];
    this.pos += 2;
    switch (e) {
      case '"':
        return '"';
      case '\\':
        return '\\';
      case '/':
        return '/';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 'u': {
        const digits = this.text.slice(this.pos, this.pos + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(digits)) throw new WebhookPayloadError('invalid \\uXXXX escape', at);
        this.pos += 4;
        // An escaped pair becomes one astral character, and a lone surrogate stays itself,
        // as in Python; both come out of String.fromCharCode the same way.
        return String.fromCharCode(parseInt(digits, 16));
      }
      default:
        throw new WebhookPayloadError('invalid escape in a string', at);
    }
  }

  private number(): string {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (!match) throw this.fail(`expected a JSON value, found ${this.describe()}`);
    this.pos += match[0].length;
    return match[0];
  }

  private literal(word: string): string {
    if (!this.text.startsWith(word, this.pos)) throw this.fail(`expected a JSON value, found ${this.describe()}`);
    this.pos += word.length;
    return word;
  }

  private expect(char: string): void {
    if (this.text[this.pos] !== char) throw this.fail(`expected '${char}', found ${this.describe()}`);
    this.pos++;
  }

  private skipSpace(): void {
    const text = this.text;
    for (;;) {
      const c = text.charCodeAt(this.pos);
      // JSON whitespace is exactly these four; anything else (U+00A0, U+FEFF...) is an error.
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.pos++;
      else return;
    }
  }

  private checkDepth(depth: number): void {
    if (depth > MAX_DEPTH) throw this.fail(`nesting deeper than ${MAX_DEPTH} levels`);
  }

  private describe(): string {
    const c = this.text.codePointAt(this.pos);
    if (c === undefined) return 'the end of the text';
    if (c >= 0x21 && c <= 0x7e) return `'${String.fromCodePoint(c)}'`;
    return `U+${hex4(c).toUpperCase()}`;
  }

  private fail(message: string): WebhookPayloadError {
    return new WebhookPayloadError(message, this.pos);
  }
}

function hex4(c: number): string {
  return c.toString(16).toUpperCase().padStart(4, '0');
}

function fromValue(value: unknown, depth: number, seen: Set<object>, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return quoteString(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new WebhookPayloadError(`${path}: ${String(value)} has no JSON form`);
      // BigInt writes every digit (String(1e21) would say "1e+21"); -0 is written as 0.
      return Number.isInteger(value) ? BigInt(value).toString() : String(value);
    case 'object':
      break;
    default:
      throw new WebhookPayloadError(`${path}: a ${typeof value} has no JSON form`);
  }
  if (depth >= MAX_DEPTH) throw new WebhookPayloadError(`${path}: nesting deeper than ${MAX_DEPTH} levels`);
  if (seen.has(value)) throw new WebhookPayloadError(`${path}: circular reference`);
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  // Date and friends: the same answer JSON.stringify would give.
  if (typeof toJSON === 'function') return fromValue(toJSON.call(value), depth, seen, path);
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      return '[' + value.map((item: unknown, i) => fromValue(item, depth + 1, seen, `${path}[${i}]`)).join(',') + ']';
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw new WebhookPayloadError(`${path}: only plain objects and arrays have a JSON form`);
    }
    const members = new Map<string, string>();
    for (const [key, item] of Object.entries(value))
      members.set(key, fromValue(item, depth + 1, seen, `${path}.${key}`));
    return joinObject(members);
  } finally {
    seen.delete(value);
  }
}
