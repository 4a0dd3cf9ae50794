// Whether the window is wide enough for the consults list and an open note side by side.
import { useSyncExternalStore } from 'react';

const WIDE = '(min-width: 1500px)';

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const query = window.matchMedia(WIDE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

export function useWide(): boolean {
  return useSyncExternalStore(
    subscribe,
    // jsdom has no matchMedia: a narrow window there.
    () => (typeof window.matchMedia === 'function' ? window.matchMedia(WIDE).matches : false),
    () => false,
  );
}
