// One place for what went wrong (and the odd good news): every failed call lands here and is
// shown as a toast the vet can dismiss. The toasts are the signed-in vet's: they go when the vet
// signs out or switches user, and a refusal because no one (or someone else) is signed in is not
// shown at all, for the sign-in screen says so, or it was the answer of a vet who has left.
// Good news closes by itself; an error stays until dismissed. A toast that closes by itself waits
// while the vet's pointer or keyboard focus is on the toasts (`holdToasts`): one being read, or
// reached for, does not vanish under the hand.
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

/** The toasts kept at most: three are shown and the rest counted, the oldest forgotten past this. */
const KEPT = 20;

/** How long good news stays: long enough to be read from across the exam table. */
export const INFO_TOAST_MS = 6000;
/** Once the vet's attention leaves the toasts, each one held waits at least this long more. */
const AFTER_HOLD_MS = 3000;

/** The toasts that close by themselves, by their order: what closes each and the time it has left. */
const closing = new Map<
  number,
  { close: () => void; left: number; since: number; timer?: ReturnType<typeof setTimeout> }
>();
let held = false;

function startClock(order: number): void {
  const entry = closing.get(order);
  if (!entry) return;
  entry.since = Date.now();
  entry.timer = setTimeout(() => {
    closing.delete(order);
    entry.close();
  }, entry.left);
}

/**
 * Closes the toast of this order after `ms`, counting only the time the vet is not on the toasts.
 * Written here rather than taken from a toast library: the window's toasts are two small stores
 * already, and the rule is these few lines.
 */
export function closeLater(order: number, ms: number, close: () => void): void {
  closing.set(order, { close, left: ms, since: Date.now() });
  if (!held) startClock(order);
}

/** The pointer or the keyboard focus came onto the toasts (true) or left them (false). */
export function holdToasts(hold: boolean): void {
  if (hold === held) return;
  held = hold;
  for (const [order, entry] of closing) {
    if (hold) {
      clearTimeout(entry.timer);
      entry.left = Math.max(entry.left - (Date.now() - entry.since), AFTER_HOLD_MS);
    } else startClock(order);
  }
}

/** No toast closes any more: the vet in front changed, and what was theirs is gone already. */
function forgetClosing(): void {
  for (const entry of closing.values()) clearTimeout(entry.timer);
  closing.clear();
  held = false;
}

/** The order of every toast, the notes' ready too: the newest is shown first. */
export function nextToastId(): number {
  return next++;
}

export const useNotifications = create<NotificationsState>((set) => ({
  toasts: [],
  push(level, message) {
    const id = nextToastId();
    set((s) => ({ toasts: [...s.toasts.slice(1 - KEPT), { id, level, message }] }));
    if (level === 'info' || level === 'success')
      closeLater(id, INFO_TOAST_MS, () => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })));
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
  forgetClosing();
  useNotifications.setState({ toasts: [] });
}
