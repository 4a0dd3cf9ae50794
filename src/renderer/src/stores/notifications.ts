// One place for what went wrong (and the odd good news): every failed call lands here and is
// shown as a toast the vet can dismiss.
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

export const useNotifications = create<NotificationsState>((set) => ({
  toasts: [],
  push(level, message) {
    const id = next++;
    set((s) => ({ toasts: [...s.toasts.slice(-4), { id, level, message }] }));
    if (level === 'info' || level === 'success')
      setTimeout(() => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })), 6000);
  },
  fail(error, what) {
    const message = error instanceof ApiCallError || error instanceof Error ? error.message : String(error);
    useNotifications.getState().push('error', what ? `${what}: ${message}` : message);
  },
  dismiss(id) {
    set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
  },
}));
