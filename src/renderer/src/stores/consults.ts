// Every consult with its live pipeline state, mirrored from main: loaded once (at sign-in, when
// the engine comes back), then changed only by main's events. User actions call the API and wait
// for the event. Opening the Consults view asks main only whether anything was missed. The list
// is the signed-in vet's: forgotten when the vet in front changes, and a list asked for before
// is dropped when it arrives.
import { create } from 'zustand';
import type { ConsultInfo, ConsultsRevision } from '../../../shared/ipc.ts';
import { SENDING_STATES } from '../../../shared/jobs.ts';
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
   * details, `consults:update`): the consult as main now has it.
   */
  answered(consult: ConsultInfo): void;
}

/** Consult events heard while a load is under way: its list may be older than them. */
let heardWhileLoading = 0;
let loading = 0;
// Bumped when the vet in front changes: a load asked for before is not the next vet's.
let vetGeneration = 0;

export const useConsults = create<ConsultsState>((set, get) => ({
  loaded: false,
  byId: {},
  revision: null,
  async load() {
    loading++;
    if (loading === 1) heardWhileLoading = 0;
    const mine = vetGeneration;
    try {
      const revision = await api.consults.revision();
      const list = await api.consults.list();
      if (mine !== vetGeneration) return;
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

/**
 * What the window works out of every consult, kept with the `byId` it was worked out of. A
 * clinic keeps thousands of consults and the store changes at each event (an upload's
 * progress), so it is worked out again from the last one: when no consult came or went and none
 * moved in time (by far the most common change), the order is kept as it was, in one pass and
 * without a sort, and `order` stays the same array.
 */
export interface ConsultsIndex {
  byId: Record<string, ConsultInfo>;
  /** Newest first. */
  sorted: readonly ConsultInfo[];
  /** The ids of `sorted`: the same array as long as the order is the same. */
  order: readonly string[];
  /** When each of `order` started (which never changes), in the same order. */
  starts: readonly string[];
  /** Consults whose audio is being sent now (an update's restart waits for them). */
  sending: number;
  /** Consults still on their way to the service, by the vet who recorded them (null: no one signed in). */
  underWayBy: ReadonlyMap<string | null, number>;
}

const UNDER_WAY = new Set(['recorded', 'recording_session_created', 'upload_url', 'uploaded', 'scribe_requested']);

let lastIndex: ConsultsIndex | null = null;

/** The index of these consults; the same object for the same `byId`. */
export function consultsIndex(byId: Record<string, ConsultInfo>): ConsultsIndex {
  if (lastIndex?.byId === byId) return lastIndex;
  const kept = lastIndex && sameOrder(byId, lastIndex);
  const sorted = kept || Object.values(byId).sort(newestFirst);
  const order = kept && lastIndex ? lastIndex.order : sorted.map((c) => c.recording.id);
  const starts = kept && lastIndex ? lastIndex.starts : sorted.map((c) => c.recording.startedAt);
  let sending = 0;
  const underWayBy = new Map<string | null, number>();
  for (const c of sorted) {
    const state = c.job?.state;
    if (state === undefined) continue;
    if (SENDING_STATES.has(state)) sending++;
    if (UNDER_WAY.has(state)) {
      const by = c.recording.recordedBy?.userId ?? null;
      underWayBy.set(by, (underWayBy.get(by) ?? 0) + 1);
    }
  }
  lastIndex = { byId, sorted, order, starts, sending, underWayBy };
  return lastIndex;
}

/** Newest first (ISO times, so compared as text). */
function newestFirst(a: ConsultInfo, b: ConsultInfo): number {
  return a.recording.startedAt < b.recording.startedAt ? 1 : a.recording.startedAt > b.recording.startedAt ? -1 : 0;
}

/** The last order with each consult as it is now; null when one came, went or moved in time. */
function sameOrder(byId: Record<string, ConsultInfo>, last: ConsultsIndex): ConsultInfo[] | null {
  const sorted = new Array<ConsultInfo>(last.sorted.length);
  let i = 0;
  for (const was of last.sorted) {
    const now = byId[was.recording.id];
    if (!now || now.recording.startedAt !== was.recording.startedAt) return null;
    sorted[i++] = now;
  }
  // Every consult of the last order is here: one more in `byId` is one that came.
  return Object.keys(byId).length === sorted.length ? sorted : null;
}

/** Newest first. The same array for the same `byId`. */
export function sortedConsults(byId: Record<string, ConsultInfo>): readonly ConsultInfo[] {
  return consultsIndex(byId).sorted;
}

/** Main's `consult:changed`: a consult as it is now. */
export function consultChanged(consult: ConsultInfo): void {
  useConsults.setState((s) => ({ ...heard(s), byId: { ...s.byId, [consult.recording.id]: consult } }));
}

/** Main's `consult:removed`. */
export function consultRemoved({ id }: { id: string }): void {
  useConsults.setState((s) => {
    const { [id]: _gone, ...rest } = s.byId;
    return { ...heard(s), byId: rest };
  });
}

/** The vet in front changed: the list is the last vet's, and a load asked for before is dropped. */
export function forgetConsults(): void {
  vetGeneration++;
  useConsults.setState({ loaded: false, byId: {}, revision: null });
}
