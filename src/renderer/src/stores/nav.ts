// Which view the window shows. A view is a place, not a modal: Ctrl/Cmd+K jumps to the
// differential-diagnosis panel from anywhere.
import { create } from 'zustand';

export type View =
  | { name: 'record' }
  | { name: 'consults' }
  | { name: 'note'; id: string }
  | { name: 'ddx'; prefill?: string }
  | { name: 'treatment' }
  | { name: 'medication' }
  | { name: 'settings' };

interface NavState {
  view: View;
  go(view: View): void;
}

export const useNav = create<NavState>((set) => ({
  view: { name: 'record' },
  go(view) {
    set({ view });
  },
}));
