// The service's note templates, a page at a time (50 a page, as the workflow asks for them).
// Forgotten when the vet in front changes: another account may see other templates. They are
// each vet's, so no one signed in (a recording kept going through Switch user) asks for none:
// the service's "You are signed out" is not a failure to show, and the next vet's sign-in reads
// theirs at once, whichever view is open.
import { create } from 'zustand';
import type { Template } from '../../../shared/service/index.ts';
import { api } from '../api.ts';
import { useSession } from './session.ts';

interface TemplatesState {
  items: Template[];
  /** Pages loaded so far; 0 before the first answer. */
  page: number;
  pageSize: number;
  hasMore: boolean;
  total: number | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  /** (Re)loads from page 1. */
  load(): Promise<void>;
  loadMore(): Promise<void>;
  /** Tries again whatever failed last: the first page, or the next one. */
  retry(): Promise<void>;
}

/** No one is signed in, as main last said (not yet known counts as signed in: main has the last word). */
function signedOut(): boolean {
  const { loaded, session } = useSession.getState();
  return loaded && !session.signedIn;
}

// Bumped on every reset, so an answer that arrives after the session ended is dropped.
let generation = 0;

export const useTemplates = create<TemplatesState>((set, get) => {
  const fetchPage = async (page: number) => {
    if (signedOut()) return;
    const mine = generation;
    set({ status: 'loading', error: null });
    try {
      const answer = await api.templates.list({ page, limit: get().pageSize });
      if (mine !== generation) return;
      set((s) => {
        const earlier = page === 1 ? [] : s.items;
        const known = new Set(earlier.map((t) => t.id));
        return {
          items: [...earlier, ...answer.items.filter((t) => !known.has(t.id))],
          page,
          hasMore: answer.hasMore,
          total: answer.total,
          status: 'ready',
        };
      });
    } catch (e) {
      if (mine === generation) set({ status: 'error', error: (e as Error).message });
    }
  };
  return {
    items: [],
    page: 0,
    pageSize: 50,
    hasMore: false,
    total: null,
    status: 'idle',
    error: null,
    load: () => fetchPage(1),
    async loadMore() {
      if (get().status === 'loading' || !get().hasMore) return;
      await fetchPage(get().page + 1);
    },
    retry: () => fetchPage(get().page + 1),
  };
});

// Read again for each vet: signed out, the list and a failure to read it go, and the next vet's
// sign-in reads theirs (the rows of the Consults list are named from it, open or not).
export function forgetTemplates(): void {
  generation++;
  useTemplates.setState({ items: [], page: 0, hasMore: false, total: null, status: 'idle', error: null });
  if (!signedOut()) void useTemplates.getState().load();
}
