// Provet's list filters: `field__op=value` (or `field.id__op=value`, or a bare `field=value` for
// equality) on the fields each endpoint names filterable, and its date format
// `YYYY-MM-DD hh:mm+hh:mm`. A query's `+` decodes to a space, so a date sent with an unencoded
// `+` does not parse and is refused, as it fails at Provet. Written by hand: the grammar is
// Provet's own, and no library speaks it.

export type FieldKind = 'int' | 'datetime' | 'relation' | 'relations' | 'bool' | 'text';

export interface FilterField<T> {
  kind: FieldKind;
  get: (record: T) => number | string | boolean | null | readonly number[];
}

export type Filterable<T> = Record<string, FilterField<T>>;

/** A known filter with a value that does not read: Provet answers 400 naming the parameter. */
export class FilterError extends Error {
  readonly parameter: string;
  constructor(parameter: string, message: string) {
    super(message);
    this.parameter = parameter;
  }
}

const OPS: Record<string, string> = {
  is: 'is',
  eq: 'is',
  is_not: 'is_not',
  not_eq: 'is_not',
  neq: 'is_not',
  lt: 'lt',
  lte: 'lte',
  gt: 'gt',
  gte: 'gte',
  range: 'range',
  not_in_range: 'not_in_range',
  contains: 'contains',
  contains_not: 'contains_not',
  icontains: 'icontains',
  icontains_not: 'icontains_not',
  in: 'in',
  not_in: 'not_in',
  is_null: 'is_null',
};

/** Query parameters that are not filters. */
const RESERVED = new Set(['page', 'page_size', 'format']);

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(?:(Z)|([+-])(\d{2}):?(\d{2}))?$/;

/**
 * A date in Provet's query format, as epoch ms; null when it does not read. Without an offset
 * it is the instance's wall-clock time (here, the computer's local time zone).
 */
export function parseProvetDate(text: string): number | null {
  const m = DATE.exec(text);
  if (!m) return null;
  const [y, mo, d, h = '0', mi = '0', s = '0'] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((x) => x ?? undefined);
  const parts = [Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)] as const;
  const utc = Date.UTC(...parts);
  const check = new Date(utc);
  if (
    check.getUTCMonth() !== parts[1] ||
    check.getUTCDate() !== parts[2] ||
    parts[3] > 23 ||
    parts[4] > 59 ||
    parts[5] > 59
  )
    return null;
  if (m[7] === 'Z') return utc;
  if (m[8]) {
    const minutes = Number(m[9]) * 60 + Number(m[10]);
    return utc - (m[8] === '+' ? 1 : -1) * minutes * 60_000;
  }
  return new Date(...parts).getTime();
}

type Scalar = number | string | boolean;

function readScalar(kind: FieldKind, raw: string, parameter: string): Scalar {
  switch (kind) {
    case 'int':
    case 'relation':
    case 'relations':
      if (!/^\d+$/.test(raw.trim())) throw new FilterError(parameter, `"${raw}" is not a whole number.`);
      return Number(raw.trim());
    case 'datetime': {
      const at = parseProvetDate(raw.trim());
      if (at === null)
        throw new FilterError(
          parameter,
          `"${raw}" is not a date and time in the form YYYY-MM-DD hh:mm+hh:mm (send "+" as %2B).`,
        );
      return at;
    }
    case 'bool':
      if (/^(true|1)$/i.test(raw)) return true;
      if (/^(false|0)$/i.test(raw)) return false;
      throw new FilterError(parameter, `"${raw}" is not true or false.`);
    case 'text':
      return raw;
  }
}

function readList(kind: FieldKind, raw: string, parameter: string): Scalar[] {
  const inner = raw.trim().replace(/^\[(.*)\]$/s, '$1');
  if (inner === '') return [];
  return inner.split(',').map((part) => readScalar(kind, part, parameter));
}

type Predicate<T> = (record: T) => boolean;

function compare(op: string, value: Scalar | null, wanted: Scalar[]): boolean {
  const [a, b] = wanted;
  if (value === null) return op === 'is_not' || op === 'not_in' || op === 'not_in_range';
  switch (op) {
    case 'is':
      return value === a;
    case 'is_not':
      return value !== a;
    case 'lt':
      return a !== undefined && value < a;
    case 'lte':
      return a !== undefined && value <= a;
    case 'gt':
      return a !== undefined && value > a;
    case 'gte':
      return a !== undefined && value >= a;
    case 'range':
      return a !== undefined && b !== undefined && value >= a && value <= b;
    case 'not_in_range':
      return !(a !== undefined && b !== undefined && value >= a && value <= b);
    case 'in':
      return wanted.includes(value);
    case 'not_in':
      return !wanted.includes(value);
    case 'contains':
      return String(value).includes(String(a));
    case 'contains_not':
      return !String(value).includes(String(a));
    case 'icontains':
      return String(value).toLowerCase().includes(String(a).toLowerCase());
    case 'icontains_not':
      return !String(value).toLowerCase().includes(String(a).toLowerCase());
    default:
      return true;
  }
}

/** Ops whose negation is "none of the list matches" rather than "some item does not". */
const NEGATIVE = new Set(['is_not', 'not_in', 'not_in_range', 'contains_not', 'icontains_not']);

function predicate<T>(field: FilterField<T>, op: string, raw: string, parameter: string): Predicate<T> {
  if (op === 'is_null') {
    const wantNull = readScalar('bool', raw, parameter) as boolean;
    return (record) => {
      const value = field.get(record);
      const isNull = value === null || (Array.isArray(value) && value.length === 0);
      return isNull === wantNull;
    };
  }
  const listOp = op === 'in' || op === 'not_in' || op === 'range' || op === 'not_in_range';
  const wanted = listOp ? readList(field.kind, raw, parameter) : [readScalar(field.kind, raw, parameter)];
  if ((op === 'range' || op === 'not_in_range') && wanted.length !== 2)
    throw new FilterError(parameter, `a range needs two values, [from,to]; got "${raw}".`);
  return (record) => {
    const value = field.get(record);
    if (Array.isArray(value)) {
      // A list relation (an appointment's patients) matches when one of its items does; a
      // negative op holds when none of them matches its positive.
      if (NEGATIVE.has(op)) return value.every((item) => compare(op, item as number, wanted));
      return value.some((item) => compare(op, item as number, wanted));
    }
    return compare(op, value as Scalar | null, wanted);
  };
}

/**
 * The filters a query asks on an endpoint's fields, as one test of a record. Parameters that
 * name no filterable field or no known op are left out, as Provet may silently ignore them; a
 * known filter whose value does not read throws a FilterError.
 */
export function readFilters<T>(query: URLSearchParams, fields: Filterable<T>): Predicate<T> {
  const tests: Predicate<T>[] = [];
  for (const [parameter, raw] of query) {
    if (RESERVED.has(parameter) || parameter.startsWith('expose_')) continue;
    const m = /^([a-z_]+?)(?:\.id)?(?:__([a-z_]+))?$/.exec(parameter);
    if (!m?.[1]) continue;
    const field = fields[m[1]];
    const op = OPS[m[2] ?? 'is'];
    if (!field || !op) continue;
    tests.push(predicate(field, op, raw, parameter));
  }
  return (record) => tests.every((test) => test(record));
}
