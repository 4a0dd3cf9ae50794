// The Consults list's items, laid out: a heading for each day, then that day's consults, each
// with its place in its day. At 10,000 consults this takes longer than the rest of opening the
// view, so it is kept per order (the index keeps one order while no consult comes, goes or
// moves), and worked out ahead, in the window's idle time, when the list is loaded or changes
// order: opening Consults then finds it done.
import { consultsIndex, useConsults } from '../../stores/consults.ts';
import { dayKey, groupByDay, type DayGroup } from '../../lib/days.ts';

export type ListItem =
  { kind: 'day'; key: string; group: DayGroup } | { kind: 'consult'; key: string; group: DayGroup; position: number };

/** By order; a layout of another day is worked out again, its "Today" being yesterday. */
const laidOut = new WeakMap<readonly string[], { today: string; items: ListItem[] }>();

/** The items of the consults `ids` (newest first), which started at `starts`: the same array for the same `ids` on the same day. */
export function listItems(ids: readonly string[], starts: readonly string[], now: Date = new Date()): ListItem[] {
  const today = dayKey(now);
  const kept = laidOut.get(ids);
  if (kept?.today === today) return kept.items;
  const items: ListItem[] = [];
  for (const group of groupByDay(ids, (_, i) => starts[i] ?? '', now)) {
    items.push({ kind: 'day', key: `day:${group.key}`, group });
    let position = 0;
    for (const id of group.ids) items.push({ kind: 'consult', key: id, group, position: ++position });
  }
  laidOut.set(ids, { today, items });
  return items;
}

type Idle = (run: () => void) => () => void;

const whenIdle: Idle = (run) => {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(run, { timeout: 2000 });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(run, 200);
  return () => clearTimeout(timer);
};

/** From now on, the whole list is laid out ahead each time its order changes. Answers how to stop. */
export function layOutAhead(idle: Idle = whenIdle): () => void {
  let ahead: readonly string[] | null = null;
  let cancel = () => {};
  const look = () => {
    const s = useConsults.getState();
    if (!s.loaded) return;
    const { order, starts } = consultsIndex(s.byId);
    if (order === ahead) return;
    ahead = order;
    cancel();
    cancel = idle(() => listItems(order, starts));
  };
  const unsubscribe = useConsults.subscribe(look);
  look();
  return () => {
    unsubscribe();
    cancel();
  };
}
