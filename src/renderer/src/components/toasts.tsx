import type { KeyboardEvent, ReactNode } from 'react';
import { useNav } from '../stores/nav.ts';
import { openReady, useNoteReady } from '../stores/note-ready.ts';
import { useNotifications } from '../stores/notifications.ts';

// From this many ready notes on, one toast says how many and opens Consults: a column of
// toasts would cover the window the vet is working in.
const GROUP_FROM = 3;
// At most this many toasts at once, the newest first, so the stack stays clear of the Record
// view's fields; an older one comes back when a newer one goes.
export const MAX_TOASTS = 3;

export function Toasts() {
  const { toasts, dismiss } = useNotifications();
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
  return (
    <section className="toasts" aria-label="Messages" aria-live="polite">
      {shown
        .sort((a, b) => b.order - a.order)
        .slice(0, MAX_TOASTS)
        .map((s) => s.toast)}
    </section>
  );
}
