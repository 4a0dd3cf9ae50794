// "More": the note's less used actions behind one button, so the note itself is on the first
// screen. A disclosure (a button with aria-expanded and a list of buttons): Tab reaches each
// item, Escape closes and gives the cursor back to the button, a click outside closes.
// The items come from the note reader and from the views around it (the consult's, the
// documents'), through a context, so each adds its own without the reader knowing them.
// Whoever adds them, a dangerous item (Delete) comes last, apart from the rest under a line, so
// it is never the next one down from an everyday item. The list opens where the window has room
// for it (upward from a button low in the window), and is always seen whole.
import { createContext, useContext, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';

export interface MenuItem {
  label: string;
  onSelect(): void;
  danger?: boolean;
}

/** Items the views around a note reader add to its "More" menu. */
export const MoreItemsContext = createContext<MenuItem[]>([]);

export function useMoreItems(): MenuItem[] {
  return useContext(MoreItemsContext);
}

/** Room kept between the open list and the window's edge, in CSS pixels. */
const MARGIN = 8;
/** A list is never squeezed below about three items, however low the window. */
const MIN_HEIGHT = 140;

function ItemButton({ item, close }: { item: MenuItem; close(): void }) {
  return (
    <li>
      <button
        type="button"
        className={item.danger ? 'quiet-danger' : undefined}
        onClick={() => {
          close();
          item.onSelect();
        }}
      >
        {item.label}
      </button>
    </li>
  );
}

export function MoreMenu({ items }: { items: MenuItem[] }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<{ up: boolean; maxHeight: number } | null>(null);

  // Measured before the list is painted, so it never shows cut off first: below the button
  // when it fits there, else above; when neither side has room, below, with the window scrolled
  // just enough to show it whole (and scrolled inside itself only when taller than the window).
  useLayoutEffect(() => {
    if (!open || !list.current || !button.current) {
      setPlace(null);
      return;
    }
    const at = button.current.getBoundingClientRect();
    const below = window.innerHeight - at.bottom - MARGIN;
    const above = at.top - MARGIN;
    const needed = list.current.scrollHeight;
    const up = needed > below && needed <= above;
    setPlace({ up, maxHeight: Math.max(MIN_HEIGHT, window.innerHeight - 2 * MARGIN) });
    if (!up && needed > below) list.current.scrollIntoView?.({ block: 'nearest' });
  }, [open]);

  useEffect(() => {
    if (!open) return;
    // The first item takes the cursor, so the keyboard goes on from where the vet is.
    root.current?.querySelector<HTMLButtonElement>('.more-list button')?.focus();
    const outside = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open]);

  if (items.length === 0) return null;
  const everyday = items.filter((i) => !i.danger);
  const dangerous = items.filter((i) => i.danger);
  return (
    <div
      className="more-menu"
      ref={root}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          setOpen(false);
          button.current?.focus();
        }
      }}
    >
      <button type="button" ref={button} aria-expanded={open} aria-controls={listId} onClick={() => setOpen((o) => !o)}>
        More <span aria-hidden="true">▾</span>
      </button>
      <div
        id={listId}
        ref={list}
        className={`more-list panel${place?.up ? ' more-list-up' : ''}`}
        style={place ? { maxHeight: place.maxHeight } : undefined}
        hidden={!open}
      >
        <ul>
          {everyday.map((item) => (
            <ItemButton key={item.label} item={item} close={() => setOpen(false)} />
          ))}
        </ul>
        {dangerous.length > 0 && (
          <>
            {everyday.length > 0 && <hr />}
            <ul>
              {dangerous.map((item) => (
                <ItemButton key={item.label} item={item} close={() => setOpen(false)} />
              ))}
            </ul>
          </>
        )}
      </div>
    </div>
  );
}
