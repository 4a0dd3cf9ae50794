// The consults found, under a heading per day, newest first. A clinic keeps thousands, and a
// row is some twenty elements with their own subscriptions: with every row in the page,
// opening the list took seconds and so did each key typed in the search. So only the rows on
// and near the screen are in the page (@tanstack/react-virtual, on the window's own scroll):
// each is measured once laid out and placed below the one before it, and the list keeps the
// height of all of them, so the scroll bar and the page's scrolling stay what they were.
//
// What the page no longer shows by itself is said instead: every row carries its place in its
// day (aria-posinset / aria-setsize), so a screen reader still hears "3 of 41"; the row that
// holds the focus stays in the page however far the list is scrolled, so Tab and Shift+Tab go
// on from it; and Tab moving the focus down scrolls the page, which brings the next rows in.
import {
  defaultRangeExtractor,
  measureElement,
  useWindowVirtualizer,
  type Range,
  type Virtualizer,
  type VirtualItem,
} from '@tanstack/react-virtual';
import { memo, useCallback, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useConsults } from '../../stores/consults.ts';
import { ConsultRow } from './consult-row.tsx';
import type { DayGroup } from '../../lib/days.ts';
import { listItems, type ListItem as Item } from './list-layout.ts';

/** Sizes in px until an item is laid out: a heading, and a row with its actions (most rows are about this tall). */
const ESTIMATE = { day: 44, consult: 185 } as const;
/** Rows kept in the page above and below the screen: about a screenful each way. */
const OVERSCAN = 6;
/** Space between items, in rem (the list's gap before it was windowed). */
const GAP_REM = 0.75;

interface Section {
  key: string;
  group: DayGroup;
  heading: VirtualItem | null;
  rows: { virtual: VirtualItem; id: string }[];
}

/** The items in the page, in order, as one section per day (two if the focused row is far from the rest of its day). */
function sectionsOf(virtualItems: readonly VirtualItem[], items: readonly Item[]): Section[] {
  const sections: Section[] = [];
  const seen = new Set<string>();
  let last: (Section & { end: number }) | null = null;
  for (const virtual of virtualItems) {
    const item = items[virtual.index]!;
    if (!last || last.group !== item.group || last.end !== virtual.index - 1) {
      const key = seen.has(item.group.key) ? `${item.group.key}@${virtual.index}` : item.group.key;
      seen.add(item.group.key);
      last = { key, group: item.group, heading: null, rows: [], end: virtual.index };
      sections.push(last);
    }
    last.end = virtual.index;
    if (item.kind === 'day') last.heading = virtual;
    else last.rows.push({ virtual, id: item.key });
  }
  return sections;
}

// A row re-renders when its consult does, not whenever the rows in the page change or another
// consult does: the list is laid out from the ids alone, and each row in the page reads its own.
const Row = memo(function Row({ id }: { id: string }) {
  const consult = useConsults((s) => s.byId[id]);
  return consult ? <ConsultRow consult={consult} /> : null;
});

/** Where the list started in the page when it was last laid out. */
let lastScrollMargin = 0;

function remPx(rem: number): number {
  const root = parseFloat(getComputedStyle(document.documentElement).fontSize);
  return rem * (Number.isFinite(root) && root > 0 ? root : 16);
}

/**
 * The consults of `ids` (newest first) under their days, from `starts` (when each started, a
 * thing that never changes): laid out again only when `ids` is another array.
 */
export const ConsultList = memo(function ConsultList({
  ids: shown,
  starts,
}: {
  ids: readonly string[];
  starts: readonly string[];
}) {
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `starts` goes with `ids`
  const items = useMemo(() => listItems(shown, starts), [shown]);
  // Where each item is, worked out the first time a row has the focus (rarely, and not at opening).
  const indexOf = useMemo(() => {
    let map: Map<string, number> | null = null;
    return (key: string) => (map ??= new Map(items.map((item, i) => [item.key, i]))).get(key);
  }, [items]);
  const ids = useId();
  const box = useRef<HTMLDivElement | null>(null);
  // Where the list starts in the page: the search and its count line above it change height.
  // It starts where it was last time: a change lays every item out again, which at 10,000
  // consults is worth saving when the view opens as it was.
  const [scrollMargin, setScrollMargin] = useState(lastScrollMargin);
  const [gap] = useState(() => remPx(GAP_REM));

  // The row holding the focus is kept in the page wherever the list is scrolled: were it taken
  // out, the focus would fall back to the page and Tab would start again from the top.
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      const focused = document.activeElement?.closest('.consult-window [data-key]')?.getAttribute('data-key');
      const index = focused ? indexOf(focused) : undefined;
      return index === undefined || indexes.includes(index) ? indexes : [...indexes, index].sort((a, b) => a - b);
    },
    [indexOf],
  );

  // The same functions while the items are: the virtualizer works its offsets out again when they change.
  const getItemKey = useCallback((i: number) => items[i]!.key, [items]);
  const estimateSize = useCallback((i: number) => ESTIMATE[items[i]!.kind], [items]);
  // The sizes this list gave the virtualizer, by item key.
  const given = useRef(new Map<string, number>());
  // An item is measured by the virtualizer's ResizeObserver, which reports every item laid out
  // in a frame at once, before that frame is painted; asked for a size otherwise (as each row
  // comes into the page), the size it has already is given: the estimate, until the observer
  // has reported. Each size given to the virtualizer one at a time lays out all its items
  // again, which at 10,000 consults made opening the list wait as many times over as rows came
  // in. Nothing laid out measures 0 (a hidden window, or a test's DOM without layout): the
  // estimate stands until the item has a size.
  const measure = useCallback(
    (el: HTMLElement, entry: ResizeObserverEntry | undefined, instance: Virtualizer<Window, HTMLElement>) => {
      const item = items[instance.indexFromElement(el)];
      const estimate = ESTIMATE[item?.kind ?? 'consult'];
      if (!item) return estimate;
      const known = given.current.get(item.key);
      if (entry === undefined) return known ?? estimate;
      const size = measureElement(el, entry, instance);
      const kept = size > 0 ? size : (known ?? estimate);
      given.current.set(item.key, kept);
      return kept;
    },
    [items],
  );

  const virtualizer = useWindowVirtualizer<HTMLElement>({
    count: items.length,
    getItemKey,
    estimateSize,
    measureElement: measure,
    initialRect: { width: window.innerWidth, height: window.innerHeight },
    overscan: OVERSCAN,
    gap,
    scrollMargin,
    rangeExtractor,
    // Scrolling moves the page, not the rows: React renders again only when rows come or go.
    directDomUpdates: true,
    directDomUpdatesMode: 'position',
  });
  const virtualItems = virtualizer.getVirtualItems();
  const sections = sectionsOf(virtualItems, items);

  // Measured again when the consults found change, which is when the count line above comes or
  // goes. Anything else above that changes height (a notice) only shifts which rows count as
  // near the screen by as much, and a screenful of rows each way is kept in the page anyway.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    lastScrollMargin = el.getBoundingClientRect().top + window.scrollY;
    setScrollMargin(lastScrollMargin);
  }, [items]);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    // The rows are ConsultRow's own <li>, in the order rendered: each is told its item, its
    // place in its day, and is measured (and watched for a change of size) by the virtualizer.
    const lis = el.querySelectorAll<HTMLLIElement>(':scope > section > ul > li');
    const rows = sections.flatMap((s) => s.rows);
    if (lis.length !== rows.length) return;
    rows.forEach(({ virtual, id }, i) => {
      const li = lis[i]!;
      const item = items[virtual.index] as Extract<Item, { kind: 'consult' }>;
      li.setAttribute('data-index', String(virtual.index));
      li.setAttribute('data-key', id);
      li.setAttribute('aria-posinset', String(item.position));
      li.setAttribute('aria-setsize', String(item.group.ids.length));
      virtualizer.measureElement(li);
    });
  });

  return (
    <div
      ref={(el) => {
        box.current = el;
        virtualizer.containerRef(el);
      }}
      className="consult-window"
    >
      {sections.map((s) => (
        <section key={s.key} className="consult-day" aria-labelledby={`${ids}-${s.key}`}>
          {s.heading ? (
            <h2
              key="placed"
              id={`${ids}-${s.key}`}
              className="consult-day-heading"
              data-index={s.heading.index}
              ref={virtualizer.measureElement}
            >
              {s.group.heading}
            </h2>
          ) : (
            // The day's heading is off screen: the section still says which day it is.
            <h2 key="hidden" id={`${ids}-${s.key}`} className="visually-hidden">
              {s.group.heading}
            </h2>
          )}
          <ul className="consult-list">
            {s.rows.map(({ id }) => (
              <Row key={id} id={id} />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
});
