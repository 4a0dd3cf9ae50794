// One format for every duration the window shows.
import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../../src/renderer/src/lib/duration.ts';

describe('formatDuration', () => {
  it('m:ss under the hour, h:mm:ss from the hour on', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(9_000)).toBe('0:09');
    expect(formatDuration(65_400)).toBe('1:05');
    expect(formatDuration(600_000)).toBe('10:00');
    expect(formatDuration(3_599_999)).toBe('59:59');
    expect(formatDuration(3_600_000)).toBe('1:00:00');
    expect(formatDuration(3_725_000)).toBe('1:02:05');
    expect(formatDuration(36_000_000)).toBe('10:00:00');
  });

  it('counts whole seconds, as the stopwatch shows them: 59.6 s is 0:59 on every screen', () => {
    expect(formatDuration(59_600)).toBe('0:59');
    expect(formatDuration(59_999)).toBe('0:59');
    expect(formatDuration(60_000)).toBe('1:00');
  });

  it('never shows a negative or broken time', () => {
    expect(formatDuration(-5_000)).toBe('0:00');
    expect(formatDuration(Number.NaN)).toBe('0:00');
  });
});
