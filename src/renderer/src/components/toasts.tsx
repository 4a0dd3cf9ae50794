import { useEffect, type FocusEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useNav } from '../stores/nav.ts';
import { openReady, useNoteReady } from '../stores/note-ready.ts';
import { holdToasts, useNotifications } from '../stores/notifications.ts';

// From this many ready notes on, one toast says how many and opens Consults: a column of
// toasts would cover the window the vet is working in.
const GROUP_FROM = 3;
// At most this many toasts at once, the newest first, so the stack stays clear of the Record
// view's fields; the rest are counted, and an older one comes back when a newer one goes.
export const MAX_TOASTS = 3;

// The toasts that close by themselves wait while the pointer is on them or the keyboard focus is
// in them (a toast being read, or reached for, does not go): WCAG's "timing adjustable".
const hold = {
  onMouseEnter: () => holdToasts(true),
  onMouseLeave: () => holdToasts(false),
  onFocus: () => holdToasts(true),
  onBlur: (e: FocusEvent<HTMLElement>) => {
    // Moving between the toasts' own buttons is still being on them.
    if (!(e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget))) holdToasts(false);
  },
};

export function Toasts() {
  const { toasts, dismiss } = useNotifications();
  // The sign-in screen and the signed-in shell each have their own: one going away with the
  // pointer on it must not hold the next one's toasts for good.
  useEffect(() => () => holdToasts(false), []);
  const ready = useNoteReady((s) => s.toasts);
  const onEscape = (close: () => void) => (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      close();
    }
  };
  const shown: { order: number; toast: ReactNode }[] = [];
  if (ready.length >= GROUP_FROM)
    shown.push({
      order: Math.max(...ready.map((t) => t.order)),
      toast: (
        <div
          key="ready"
          className="toast toast-success"
          role="status"
          onKeyDown={onEscape(useNoteReady.getState().dismissAll)}
        >
          <button type="button" className="link" onClick={() => useNav.getState().go({ name: 'consults' })}>
            {ready.length} notes ready — Open Consults
          </button>
          <button
            type="button"
            className="link"
            onClick={useNoteReady.getState().dismissAll}
            aria-label="Dismiss message"
          >
            ×
          </button>
        </div>
      ),
    });
  else
    for (const t of ready)
      shown.push({
        order: t.order,
        toast: (
          <div
            key={`ready:${t.id}`}
            className="toast toast-success"
            role="status"
            onKeyDown={onEscape(() => useNoteReady.getState().dismiss(t.id))}
          >
            <button type="button" className="link" onClick={() => openReady(t.id)}>
              {t.what} ready: {t.name} — Open note
            </button>
            <button
              type="button"
              className="link"
              onClick={() => useNoteReady.getState().dismiss(t.id)}
              aria-label="Dismiss message"
            >
              ×
            </button>
          </div>
        ),
      });
  for (const t of toasts)
    shown.push({
      order: t.id,
      toast: (
        <div
          key={t.id}
          className={`toast toast-${t.level}`}
          role={t.level === 'error' ? 'alert' : 'status'}
          onKeyDown={onEscape(() => dismiss(t.id))}
        >
          <span>{t.message}</span>
          <button type="button" className="link" onClick={() => dismiss(t.id)} aria-label="Dismiss message">
            ×
          </button>
        </div>
      ),
    });
  const more = shown.length - MAX_TOASTS;
  return (
    <section className="toasts" aria-label="Messages" aria-live="polite" {...hold}>
      {shown
        .sort((a, b) => b.order - a.order)
        .slice(0, MAX_TOASTS)
        .map((s) => s.toast)}
      {more > 0 && (
        <p className="toast-more">
          {more} more {more === 1 ? 'message' : 'messages'}
        </p>
      )}
    </section>
  );
}
