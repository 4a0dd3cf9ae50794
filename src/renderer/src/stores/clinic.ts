// The clinic's consults from the service (recorded elsewhere), mirrored from main: read when
// Consults opens, read again from the service by Refresh, and replaced by main's event when a
// refresh ends or a note is kept. Forgotten at every change of sign-in: they are the account's.
import { create } from 'zustand';
import type { ClinicView } from '../../../shared/clinic.ts';
import { api } from '../api.ts';

interface ClinicState {
  view: ClinicView | null;
  refreshing: boolean;
  load(): Promise<void>;
  refresh(): Promise<void>;
}

export const useClinic = create<ClinicState>((set) => ({
  view: null,
  refreshing: false,
  async load() {
    set({ view: await api.clinic.list() });
  },
  async refresh() {
    set({ refreshing: true });
    try {
      set({ view: await api.clinic.refresh() });
    } finally {
      set({ refreshing: false });
    }
  },
}));

api.on('clinic:changed', (view) => useClinic.setState({ view }));
api.on('session:changed', () => useClinic.setState({ view: null }));
