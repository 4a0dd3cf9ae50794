// Every consult with its live pipeline state, mirrored from main: loaded once, then changed
// only by main's events. User actions call the API and wait for the event.
import { create } from 'zustand';
import type { ConsultInfo } from '../../../shared/ipc.ts';
import { api } from '../api.ts';

interface ConsultsState {
  loaded: boolean;
  byId: Record<string, ConsultInfo>;
  load(): Promise<void>;
  /**
   * Main's answer to a call that changed a consult without an event of its own (the patient
   * details, `recording:update`): the consult as main now has it.
   */
  answered(consult: ConsultInfo): void;
}

export const useConsults = create<ConsultsState>((set) => ({
  loaded: false,
  byId: {},
  async load() {
    const list = await api.consults.list();
    set({ loaded: true, byId: Object.fromEntries(list.map((c) => [c.recording.id, c])) });
  },
  answered(consult) {
    set((s) => (s.byId[consult.recording.id] ? { byId: { ...s.byId, [consult.recording.id]: consult } } : s));
  },
}));

/** Newest first. */
export function sortedConsults(byId: Record<string, ConsultInfo>): ConsultInfo[] {
  return Object.values(byId).sort((a, b) => b.recording.startedAt.localeCompare(a.recording.startedAt));
}

api.on('consult:changed', (consult) =>
  useConsults.setState((s) => ({ byId: { ...s.byId, [consult.recording.id]: consult } })),
);
api.on('consult:removed', ({ id }) =>
  useConsults.setState((s) => {
    const { [id]: _gone, ...rest } = s.byId;
    return { byId: rest };
  }),
);
