// "More": the note's less used actions behind one button, so the note itself is on the first
// screen. A disclosure (a button with aria-expanded and a list of buttons): Tab reaches each
// item, Escape closes and gives the cursor back to the button, a click outside closes.
// The items come from the note reader and from the views around it (the consult's, the
// documents'), through a context, so each adds its own without the reader knowing them.
import { createContext, useContext, useEffect, useId, useRef, useState } from 'react';

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

export function MoreMenu({ items }: { items: MenuItem[] }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

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
      <ul id={listId} className="more-list panel" hidden={!open}>
        {items.map((item) => (
          <li key={item.label}>
            <button
              type="button"
              className={item.danger ? 'quiet-danger' : undefined}
              onClick={() => {
                setOpen(false);
                item.onSelect();
              }}
            >
              {item.label}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
