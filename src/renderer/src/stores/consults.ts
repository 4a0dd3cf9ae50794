// Every consult with its live pipeline state, mirrored from main: loaded once (at sign-in, when
// the engine comes back), then changed only by main's events. User actions call the API and wait
// for the event. Opening the Consults view asks main only whether anything was missed.
import { create } from 'zustand';
import type { ConsultInfo, ConsultsRevision } from '../../../shared/ipc.ts';
import { api } from '../api.ts';

interface ConsultsState {
  loaded: boolean;
  byId: Record<string, ConsultInfo>;
  /**
   * Main's count of changes this copy holds: its answer at the last load, plus one for each
   * consult event heard since. Null when unknown (an event heard while loading): read again.
   */
  revision: ConsultsRevision | null;
  /** The whole list from main. */
  load(): Promise<void>;
  /** The whole list again only if this copy missed a change (a cheap question otherwise). */
  refresh(): Promise<void>;
  /**
   * Main's answer to a call that changed a consult without an event of its own (the patient
   * details, `recording:update`): the consult as main now has it.
   */
  answered(consult: ConsultInfo): void;
}

/** Consult events heard while a load is under way: its list may be older than them. */
let heardWhileLoading = 0;
let loading = 0;

export const useConsults = create<ConsultsState>((set, get) => ({
  loaded: false,
  byId: {},
  revision: null,
  async load() {
    loading++;
    if (loading === 1) heardWhileLoading = 0;
    try {
      const revision = await api.consults.revision();
      const list = await api.consults.list();
      set({
        loaded: true,
        byId: Object.fromEntries(list.map((c) => [c.recording.id, c])),
        // An event heard meanwhile may be older or newer than the list: the next check reads again.
        revision: heardWhileLoading === 0 ? revision : null,
      });
    } finally {
      loading--;
    }
  },
  async refresh() {
    const mine = get().revision;
    if (!get().loaded || mine === null) return get().load();
    const main = await api.consults.revision();
    const now = get().revision;
    if (now === null || main.engine !== now.engine || main.revision !== now.revision) return get().load();
  },
  answered(consult) {
    set((s) => (s.byId[consult.recording.id] ? { byId: { ...s.byId, [consult.recording.id]: consult } } : s));
  },
}));

/** One consult event heard: this copy now holds one more of main's changes. */
function heard(s: ConsultsState): Pick<ConsultsState, 'revision'> {
  if (loading > 0) heardWhileLoading++;
  return { revision: s.revision && { ...s.revision, revision: s.revision.revision + 1 } };
}

/** The last list sorted, kept while the consults are the same (the view opened again). */
let sorted: { byId: Record<string, ConsultInfo>; list: ConsultInfo[] } | null = null;

/** Newest first (ISO times, so compared as text). The same array for the same `byId`. */
export function sortedConsults(byId: Record<string, ConsultInfo>): ConsultInfo[] {
  if (sorted?.byId !== byId)
    sorted = {
      byId,
      list: Object.values(byId).sort((a, b) =>
        a.recording.startedAt < b.recording.startedAt ? 1 : a.recording.startedAt > b.recording.startedAt ? -1 : 0,
      ),
    };
  return sorted.list;
}

api.on('consult:changed', (consult) =>
  useConsults.setState((s) => ({ ...heard(s), byId: { ...s.byId, [consult.recording.id]: consult } })),
);
api.on('consult:removed', ({ id }) =>
  useConsults.setState((s) => {
    const { [id]: _gone, ...rest } = s.byId;
    return { ...heard(s), byId: rest };
  }),
);
