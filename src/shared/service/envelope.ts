// The tolerant reader shared by every parser: an answer may come bare or inside
// `{ "data": ... }`, unknown members are dropped without complaint, and the first thing that
// does not fit becomes one ServiceResponseError naming the operation and the field.
import { z } from 'zod';
import { ServiceResponseError, type Operation } from './errors.ts';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `user.email`, `items[2].name`, `response["Plain English Summary"]`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else {
      const name = String(segment);
      if (/^[A-Za-z_$][\w$]*$/.test(name)) out += out === '' ? name : `.${name}`;
      else out += `[${JSON.stringify(name)}]`;
    }
  }
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const segment of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isNaN(value)) return 'NaN';
  return typeof value;
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'an array',
};

/** The wording of one zod issue about `input`: "is missing", "must be a string, got number". */
function problemOf(issue: z.core.$ZodIssue, input: unknown): string {
  const actual = valueAt(input, issue.path);
  if (issue.code === 'invalid_type') {
    return actual === undefined
      ? 'is missing'
      : `must be ${EXPECTED[issue.expected] ?? issue.expected}, got ${describe(actual)}`;
  }
  // Every refinement and union in this folder words its message as a predicate ("is
  // missing", "must be text or ..."); a union's also names what came instead.
  return issue.code === 'invalid_union' && actual !== undefined
    ? `${issue.message}, got ${describe(actual)}`
    : issue.message;
}

function alternativesOf(issue: z.core.$ZodIssue): string[] {
  const named: unknown = issue.code === 'custom' ? issue.params?.['alternatives'] : undefined;
  return Array.isArray(named) ? named.map(String) : [];
}

function toError(
  operation: Operation,
  issue: z.core.$ZodIssue,
  input: unknown,
  prefix: readonly PropertyKey[],
): ServiceResponseError {
  const field = fieldPath([...prefix, ...issue.path]);
  return new ServiceResponseError(operation, field, problemOf(issue, input), alternativesOf(issue));
}

/**
 * Parses a member with its own schema inside a transform, and on failure reports the first
 * issue under `prefix` (relative to the transform's value), worded as the readers word it.
 */
export function parseInside<T>(
  ctx: z.core.$RefinementCtx,
  schema: z.ZodType<T>,
  value: unknown,
  prefix: readonly PropertyKey[],
): T | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = firstIssue(result.error);
  ctx.issues.push({
    code: 'custom',
    path: [...prefix, ...issue.path].filter((p): p is string | number => typeof p !== 'symbol'),
    message: problemOf(issue, value),
    input: valueAt(value, issue.path),
    params: { alternatives: alternativesOf(issue) },
  });
  return undefined;
}

/**
 * Parses an answer with `schema`, first as it came and then, when that fails and the answer
 * has an object or array under `data`, once more on `data`. When both fail, the error of the
 * enveloped attempt is reported (its path starting with `data`), since an answer that has a
 * `data` member almost always meant it as the envelope.
 */
export function parseAnswer<T>(operation: Operation, schema: z.ZodType<T>, body: unknown): T {
  const bare = schema.safeParse(body);
  if (bare.success) return bare.data;
  if (isRecord(body) && typeof body['data'] === 'object' && body['data'] !== null) {
    const inner = schema.safeParse(body['data']);
    if (inner.success) return inner.data;
    throw toError(operation, firstIssue(inner.error), body['data'], ['data']);
  }
  throw toError(operation, firstIssue(bare.error), body, []);
}

function firstIssue(error: z.ZodError): z.core.$ZodIssue {
  // A failed parse always has at least one issue.
  return error.issues[0] as z.core.$ZodIssue;
}

/** Parses a value that has no envelope (a member already found), reporting paths under `prefix`. */
export function parseAt<T>(
  operation: Operation,
  schema: z.ZodType<T>,
  value: unknown,
  prefix: readonly PropertyKey[],
): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw toError(operation, firstIssue(result.error), value, prefix);
}

/** Adds the "is missing" issue for a member that may go by several names, and aborts the parse. */
export function missing(ctx: z.core.$RefinementCtx, name: string, alternatives: readonly string[] = []): never {
  ctx.issues.push({
    code: 'custom',
    path: [name],
    message: 'is missing',
    input: undefined,
    params: { alternatives: [...alternatives] },
  });
  return z.NEVER;
}

/** An identifier: a non-empty string; a number is taken as its decimal text. */
const id = z.preprocess(
  (v) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v),
  z.string().trim().min(1, 'must not be empty'),
);

/** An identifier that may be absent (one of several names for it): null counts as absent. */
export const optionalId = z.preprocess((v) => (v === null ? undefined : v), id.optional());

/** How a resource of the service names itself: `public_id`, or the older `id`. */
export const publicId = { public_id: optionalId, id: optionalId };

/** A resource's identifier, `public_id` first; with neither, the answer lacks `public_id`. */
export function publicIdOf(w: { public_id?: string; id?: string }, ctx: z.core.$RefinementCtx): string {
  return w.public_id ?? w.id ?? missing(ctx, 'public_id', ['id']);
}

/**
 * A text member the UI may hide: null, absent or blank become undefined, and a list of
 * strings (some services send medications as a list) becomes one line per item.
 */
export const text = z.preprocess((v) => {
  if (v === null) return undefined;
  if (Array.isArray(v) && v.every((item) => typeof item === 'string')) v = v.join('\n');
  if (typeof v === 'string' && v.trim() === '') return undefined;
  return v;
}, z.string().optional());

/**
 * A Unix time in seconds. Numeric strings are accepted, as are ISO 8601 dates; a number too
 * large to be seconds (after the year 5000) is taken as milliseconds, which some services send.
 */
export const unixSeconds = z.preprocess((v) => {
  if (typeof v === 'string') {
    const s = v.trim();
    if (/^\d+(\.\d+)?$/.test(s)) v = Number(s);
    else if (/^\d{4}-\d\d-\d\d/.test(s) && !Number.isNaN(Date.parse(s))) return Math.floor(Date.parse(s) / 1000);
  }
  if (typeof v === 'number' && Number.isFinite(v)) return Math.floor(v > 1e11 ? v / 1000 : v);
  return v;
}, z.number());

/** An optional Unix time: null counts as absent. */
export const optionalUnixSeconds = z.preprocess((v) => (v === null ? undefined : v), unixSeconds.optional());

/** A count or page number: whole, not negative; numeric strings accepted; null counts as absent. */
export const optionalCount = z.preprocess(
  (v) => (v === null ? undefined : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z.number().int('must be a whole number').nonnegative('must not be negative').optional(),
);
