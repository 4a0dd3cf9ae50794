import { useNotifications } from '../stores/notifications.ts';

export function Toasts() {
  const { toasts, dismiss } = useNotifications();
  return (
    <section className="toasts" aria-label="Messages" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.level}`} role={t.level === 'error' ? 'alert' : 'status'}>
          <span>{t.message}</span>
          <button type="button" className="link" onClick={() => dismiss(t.id)} aria-label="Dismiss message">
            ×
          </button>
        </div>
      ))}
    </section>
  );
}
