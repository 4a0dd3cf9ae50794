// Desktop notifications are kept referenced until clicked, closed or failed (Electron collects
// an unreferenced Notification, and its click handler with it). Electron cannot run here: a
// stand-in with Notification's events and statics plays it.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { Notification as ElectronNotification, NotificationConstructorOptions } from 'electron';
import { keptNotifications, showNotification } from '../../src/main/notifications.ts';

class StandIn extends EventEmitter {
  static supported = true;
  static made: StandIn[] = [];
  shown = false;
  readonly options: NotificationConstructorOptions;
  constructor(options: NotificationConstructorOptions) {
    super();
    this.options = options;
    StandIn.made.push(this);
  }
  static isSupported(): boolean {
    return StandIn.supported;
  }
  show(): void {
    this.shown = true;
  }
}
const Notification = StandIn as unknown as {
  new (o: NotificationConstructorOptions): ElectronNotification;
  isSupported(): boolean;
};

describe('showNotification', () => {
  it('keeps each notification until it is clicked, closed or fails; a click runs the action once', () => {
    let clicks = 0;
    const before = keptNotifications();
    expect(showNotification(Notification, { title: 'Note ready', body: 'Bella' }, () => (clicks += 1))).toBe(true);
    expect(showNotification(Notification, { title: 'Note ready', body: 'Max' }, () => (clicks += 1))).toBe(true);
    expect(showNotification(Notification, { title: 'Note ready', body: 'Luna' }, () => (clicks += 1))).toBe(true);
    const [bella, max, luna] = StandIn.made.slice(-3);
    expect([bella?.shown, max?.shown, luna?.shown]).toEqual([true, true, true]);
    expect(bella?.options).toEqual({ title: 'Note ready', body: 'Bella' });
    expect(keptNotifications()).toBe(before + 3);
    bella?.emit('click');
    expect(clicks).toBe(1);
    expect(keptNotifications()).toBe(before + 2);
    max?.emit('close');
    luna?.emit('failed', {}, 'no notification server');
    expect(keptNotifications()).toBe(before);
    expect(clicks).toBe(1);
  });

  it('shows nothing where the system has no notifications', () => {
    StandIn.supported = false;
    const made = StandIn.made.length;
    expect(showNotification(Notification, { title: 't', body: 'b' }, () => undefined)).toBe(false);
    expect(StandIn.made.length).toBe(made);
    StandIn.supported = true;
  });
});
