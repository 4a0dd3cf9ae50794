// Consults grouped under a heading per day, the way a vet thinks of a clinic's list.

export interface DayGroup {
  key: string;
  heading: string;
  /** The consults' ids, in the order given. */
  ids: string[];
}

export function dayKey(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

// One formatter for every heading: `toLocaleDateString` makes one per call, which for the
// hundreds of days of a clinic's list was most of the time the list took to open.
const HEADING = new Intl.DateTimeFormat([], { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });

export function dayHeading(iso: string, now: Date = new Date()): string {
  const day = new Date(iso);
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  if (dayKey(day) === dayKey(now)) return 'Today';
  if (dayKey(day) === dayKey(yesterday)) return 'Yesterday';
  return HEADING.format(day);
}

/** The local day a moment falls on, as the times it starts and ends (ms since the epoch). */
export function dayBounds(ms: number): { key: string; start: number; end: number } {
  const d = new Date(ms);
  const start = new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  return { key: dayKey(d), start, end: new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime() };
}

/** The start and end of a day given as YYYY-MM-DD, local time; null for anything else. */
export function dayRange(key: string): { start: number; end: number } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(key);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  return { start: new Date(y, mo, d).getTime(), end: new Date(y, mo, d + 1).getTime() };
}

/** A time as the engine writes it (`toISOString`): such times compare as text in time order. */
const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Keeps the order it is given (newest first) and starts a group at each new day. A clinic's
 * list has thousands of consults on a few hundred days: each start is compared, as text, with
 * its day's bounds written the same way, and a date is made only once per day.
 */
export function groupByDay(
  ids: readonly string[],
  startedAt: (id: string, index: number) => string,
  now: Date = new Date(),
): DayGroup[] {
  const groups: DayGroup[] = [];
  let day: { start: string; end: string; group: DayGroup } | null = null;
  for (const [i, id] of ids.entries()) {
    const at = startedAt(id, i);
    if (day && at >= day.start && at < day.end && CANONICAL.test(at)) {
      day.group.ids.push(id);
      continue;
    }
    const ms = Date.parse(at);
    const bounds = Number.isNaN(ms) ? null : dayBounds(ms);
    const key = bounds?.key ?? '';
    const last = groups.at(-1);
    const group = last && last.key === key ? last : { key, heading: dayHeading(at, now), ids: [] as string[] };
    // The same day again: the order given is not by day (never so for the list's own order).
    if (group !== last) groups.push(group);
    group.ids.push(id);
    day = bounds && {
      start: new Date(bounds.start).toISOString(),
      end: new Date(bounds.end).toISOString(),
      group,
    };
  }
  return groups;
}
