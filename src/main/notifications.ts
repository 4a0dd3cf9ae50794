// Desktop notifications that stay alive until the vet has seen them. Electron's Notification
// is garbage-collected once nothing refers to it, and its click handler with it: a click on a
// "Note ready" toast minutes later would do nothing. Each one is kept here until it is clicked,
// closed or fails. On Windows a toast that times out goes to the Action Center and 'close'
// fires then: a later click there reaches no object of ours, so it is taken by
// Notification.handleActivation (openOnActivation below).
import type {
  ActivationArguments,
  Notification as ElectronNotification,
  NotificationConstructorOptions,
} from 'electron';

type NotificationClass = {
  new (options: NotificationConstructorOptions): ElectronNotification;
  isSupported(): boolean;
  /** Windows only (Electron's Notification documentation); absent elsewhere. */
  handleActivation?(callback: (details: ActivationArguments) => void): void;
};

const live = new Set<ElectronNotification>();

/** Shows a notification; `onClick` runs when the vet clicks it. */
export function showNotification(
  Notification: NotificationClass,
  options: NotificationConstructorOptions,
  onClick: () => void,
): boolean {
  if (!Notification.isSupported()) return false;
  const notification = new Notification(options);
  live.add(notification);
  const release = () => live.delete(notification);
  notification.on('click', () => {
    release();
    onClick();
  });
  notification.on('close', release);
  notification.on('failed', release);
  notification.show();
  return true;
}

/** How many notifications are being kept (for tests). */
export function keptNotifications(): number {
  return live.size;
}

/**
 * Windows: runs `onActivate` for a click on any of the app's notifications, including one in
 * the Action Center whose Notification object is gone (timed out, or from before a restart)
 * and a launch from a toast. Electron's Notification.handleActivation is the one callback for
 * these; it also runs beside a live object's own 'click', so `onActivate` must be idempotent
 * (showing the window is). The app's notifications carry no buttons or replies: every kind
 * of activation opens the window, where the note that is ready waits in Consults.
 */
export function openOnActivation(Notification: NotificationClass, onActivate: () => void): boolean {
  if (typeof Notification.handleActivation !== 'function') return false;
  Notification.handleActivation(() => onActivate());
  return true;
}
