// Desktop notifications that stay alive until the vet has seen them. Electron's Notification
// is garbage-collected once nothing refers to it, and its click handler with it: a click on a
// "Note ready" toast minutes later would do nothing. Each one is kept here until it is clicked,
// closed or fails.
import type { Notification as ElectronNotification, NotificationConstructorOptions } from 'electron';

type NotificationClass = { new (options: NotificationConstructorOptions): ElectronNotification; isSupported(): boolean };

const live = new Set<ElectronNotification>();

/** Shows a notification; `onClick` runs when the vet clicks it. */
export function showNotification(Notification: NotificationClass, options: NotificationConstructorOptions, onClick: () => void): boolean {
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
