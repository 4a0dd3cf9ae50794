// Provet's lists: the address of a filtered list, and every page of it read. Filters are
// `field__op=value`; a date is written `YYYY-MM-DD hh:mm+hh:mm` and its `+` must reach Provet
// as %2B (URLSearchParams writes it so; a '+' left bare would be read as a space). A page is
// `{count, num_pages, next, previous, results}` with `next` a full address; up to 1,000 results a
// page, each counted against the endpoint's rate limit in proportion to its size. Over the
// limit Provet answers 429 with Retry-After, which is honoured here, within bounds.
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { PimsError } from '../port.ts';

export type FilterOp =
  'is' | 'eq' | 'is_not' | 'lt' | 'lte' | 'gt' | 'gte' | 'range' | 'in' | 'contains' | 'icontains' | 'is_null';

export interface Filter {
  field: string;
  op: FilterOp;
  /** A list for `in` and `range`, written comma-separated. */
  value: string | number | boolean | readonly (string | number)[];
}

export const MAX_PAGE_SIZE = 1000;
const FIELD = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;

/** The address of a list of `resource` under the API root, filtered, one page of `pageSize`. */
export function listUrl(
  api: string,
  resource: string,
  query: { filters?: readonly Filter[]; pageSize?: number; expose?: readonly string[] } = {},
): string {
  if (!/^[a-z_]+$/.test(resource)) throw new Error(`"${resource}" is not a Provet resource name.`);
  const url = new URL(`${resource}/`, api);
  for (const f of query.filters ?? []) {
    if (!FIELD.test(f.field)) throw new Error(`"${f.field}" is not a Provet field name.`);
    const value = Array.isArray(f.value) ? f.value.join(',') : String(f.value);
    url.searchParams.append(`${f.field}__${f.op}`, value);
  }
  for (const field of query.expose ?? []) {
    if (!FIELD.test(field)) throw new Error(`"${field}" is not a Provet field name.`);
    // Provet's pages show `expose_<field>` with no value; an empty one is the same query.
    url.searchParams.append(`expose_${field}`, '');
  }
  if (query.pageSize !== undefined)
    url.searchParams.set('page_size', String(Math.max(1, Math.min(MAX_PAGE_SIZE, Math.floor(query.pageSize)))));
  return url.toString();
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as Provet reads it in a filter, at a given offset from UTC (minutes east). */
export function provetDateTime(instant: Date, offsetMinutes: number): string {
  const local = new Date(instant.getTime() + offsetMinutes * 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return (
    `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ` +
    `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/**
 * A day of this computer's calendar (the clinic's, as the app runs in it) as the instants it
 * starts and ends at, each written with its own offset: a day a clock change falls on is 23 or
 * 25 hours long, and both ends stay right.
 */
export function localDay(day: string): { from: string; to: string; start: Date; end: Date } {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const start = m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : null;
  if (!m || !start || start.getDate() !== Number(m[3]))
    throw new PimsError('bad_input', `"${day}" is not a day written as YYYY-MM-DD.`);
  const end = new Date(start.getFullYear(), start.getMonth(), start.getDate() + 1);
  return {
    from: provetDateTime(start, -start.getTimezoneOffset()),
    to: provetDateTime(end, -end.getTimezoneOffset()),
    start,
    end,
  };
}

const page = z.object({
  count: z.number().int().nonnegative(),
  num_pages: z.number().int().nonnegative().optional(),
  next: z.string().nullable(),
  previous: z.string().nullable().optional(),
  results: z.array(z.unknown()),
});

export interface PageBounds {
  /** Pages read at most before the list is said to be too long. */
  maxPages?: number;
  /** 429s waited out at most in one reading. */
  maxWaits?: number;
  /** The longest single wait, in ms: a Retry-After beyond it ends the reading as rate-limited. */
  maxWaitMs?: number;
}

export interface ReadPages<T> {
  items: T[];
  /** Provet's count on the last page read. */
  count: number;
}

/**
 * Every page of a list from its first address. `next` must stay on the same origin and path (the
 * vet's token goes with each request, so never to another address); each item is read by
 * `parse`, which throws on one the app cannot use; an item met twice (the list shifted while it
 * was read) is kept once, by `id`.
 */
export async function readAllPages<T extends { id: string }>(
  firstUrl: string,
  get: (url: string) => Promise<unknown>,
  parse: (item: unknown, index: number) => T,
  bounds: PageBounds = {},
): Promise<ReadPages<T>> {
  const maxPages = bounds.maxPages ?? 50;
  const maxWaits = bounds.maxWaits ?? 5;
  const maxWaitMs = bounds.maxWaitMs ?? 60_000;
  const first = new URL(firstUrl);
  const seen = new Map<string, T>();
  const visited = new Set<string>();
  let url: string | null = firstUrl;
  let waits = 0;
  let count = 0;
  let pages = 0;
  let index = 0;
  while (url !== null) {
    if (visited.has(url)) break;
    if (pages >= maxPages)
      throw new PimsError(
        'invalid_answer',
        `Provet's list went on beyond ${maxPages} pages; the app stopped reading it.`,
      );
    let body: unknown;
    try {
      body = await get(url);
    } catch (e) {
      if (!(e instanceof PimsError) || e.code !== 'rate_limited') throw e;
      const wait = e.retryAfterMs ?? 1000;
      if (waits >= maxWaits || wait > maxWaitMs) throw e;
      waits++;
      await sleep(wait);
      continue;
    }
    visited.add(url);
    pages++;
    const parsed = page.safeParse(body);
    if (!parsed.success)
      throw new PimsError('invalid_answer', 'Provet answered a list with a page the app cannot read.', {
        cause: parsed.error,
      });
    count = parsed.data.count;
    for (const raw of parsed.data.results) {
      const item = parse(raw, index++);
      if (!seen.has(item.id)) seen.set(item.id, item);
    }
    url = parsed.data.next;
    if (url !== null) {
      let next: URL;
      try {
        next = new URL(url, first);
      } catch {
        throw new PimsError('invalid_answer', "Provet's list named a next page the app cannot read.");
      }
      if (next.origin !== first.origin || next.pathname !== first.pathname)
        throw new PimsError(
          'invalid_answer',
          "Provet's list named a next page at another address; the app did not follow it.",
        );
      url = next.toString();
    }
  }
  return { items: [...seen.values()], count };
}
