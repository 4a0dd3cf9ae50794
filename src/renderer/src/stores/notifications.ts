// One place for what went wrong (and the odd good news): every failed call lands here and is
// shown as a toast the vet can dismiss. The toasts are the signed-in vet's: they go when the vet
// signs out or switches user, and a refusal because no one (or someone else) is signed in is not
// shown at all, for the sign-in screen says so, or it was the answer of a vet who has left.
import { create } from 'zustand';
import { ApiCallError } from '../api.ts';

export interface Toast {
  id: number;
  level: 'info' | 'success' | 'warning' | 'error';
  message: string;
}

interface NotificationsState {
  toasts: Toast[];
  push(level: Toast['level'], message: string): void;
  fail(error: unknown, what?: string): void;
  dismiss(id: number): void;
}

let next = 1;

/** The order of every toast, the notes' ready too: the newest is shown first. */
export function nextToastId(): number {
  return next++;
}

export const useNotifications = create<NotificationsState>((set) => ({
  toasts: [],
  push(level, message) {
    const id = nextToastId();
    set((s) => ({ toasts: [...s.toasts.slice(-4), { id, level, message }] }));
    if (level === 'info' || level === 'success')
      setTimeout(() => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })), 6000);
  },
  fail(error, what) {
    if (error instanceof ApiCallError && error.code === 'signed_out') return;
    const message = error instanceof ApiCallError || error instanceof Error ? error.message : String(error);
    useNotifications.getState().push('error', what ? `${what}: ${message}` : message);
  },
  dismiss(id) {
    set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
  },
}));

/** The vet in front changed: what the last vet was told is theirs. */
export function forgetNotifications(): void {
  useNotifications.setState({ toasts: [] });
}
