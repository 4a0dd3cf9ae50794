// Which view the window shows. A view is a place, not a modal: Ctrl/Cmd+K jumps to the
// differential-diagnosis panel from anywhere.
import { create } from 'zustand';

/**
 * The consult the differentials panel is about: with `note`, its note is asked about at once;
 * with `answerId`, an answer kept with it is shown again.
 */
export interface FromConsult {
  id: string;
  patient: string;
  note?: string;
  answerId?: string;
}

export type View =
  | { name: 'record' }
  | { name: 'consults' }
  | { name: 'note'; id: string }
  | { name: 'ddx'; prefill?: string; consult?: FromConsult }
  | { name: 'treatment' }
  | { name: 'medication' }
  | { name: 'settings' }
  /** A note from the service, recorded elsewhere (its key in the clinic's list). */
  | { name: 'clinic-note'; key: string };

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
