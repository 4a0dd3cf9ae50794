// A recording left running: the length checks that warn five minutes before the maximum and
// stop at it, and the long silence that asks "Still recording?".
import { describe, expect, it } from 'vitest';
import { createSilenceWatch } from '../../../../src/renderer/src/features/recorder/audio-level.ts';
import {
  checkLength,
  maxLengthReachedText,
  STILL_RECORDING_AFTER_MS,
} from '../../../../src/renderer/src/features/recorder/forgotten.ts';
import { DEFAULT_SETTINGS, settingsPatchSchema } from '../../../../src/shared/settings.ts';

const min = 60_000;

describe('the maximum length of a recording', () => {
  it('says nothing until 5 minutes before, counts the minutes left, and stops at the maximum', () => {
    expect(checkLength(0, 90)).toEqual({ minutesLeft: null, reached: false });
    expect(checkLength(85 * min - 1, 90)).toEqual({ minutesLeft: null, reached: false });
    expect(checkLength(85 * min, 90)).toEqual({ minutesLeft: 5, reached: false });
    expect(checkLength(87 * min + 30_000, 90)).toEqual({ minutesLeft: 3, reached: false });
    expect(checkLength(90 * min - 1000, 90)).toEqual({ minutesLeft: 1, reached: false });
    expect(checkLength(90 * min, 90)).toEqual({ minutesLeft: 0, reached: true });
    expect(checkLength(31 * min, 30)).toEqual({ minutesLeft: 0, reached: true });
    expect(maxLengthReachedText(90)).toBe(
      'The recording stopped by itself at the maximum length of 90 minutes (Settings). Everything recorded is kept.',
    );
  });

  it('is 90 minutes unless Settings says otherwise, from 10 minutes to 8 hours', () => {
    expect(DEFAULT_SETTINGS.maxRecordingMinutes).toBe(90);
    expect(settingsPatchSchema.safeParse({ maxRecordingMinutes: 120 }).success).toBe(true);
    expect(settingsPatchSchema.safeParse({ maxRecordingMinutes: 5 }).success).toBe(false);
    expect(settingsPatchSchema.safeParse({ maxRecordingMinutes: 481 }).success).toBe(false);
    expect(settingsPatchSchema.safeParse({ maxRecordingMinutes: 90.5 }).success).toBe(false);
  });
});

describe('"Still recording?"', () => {
  it('asks after 3 minutes in which nothing was heard, not before, and a sound starts the count again', () => {
    const watch = createSilenceWatch(STILL_RECORDING_AFTER_MS);
    expect(watch.update(0, 0)).toBe(false);
    expect(watch.update(2, 3 * min - 1)).toBe(false);
    expect(watch.update(2, 3 * min)).toBe(true);
    expect(watch.update(40, 3 * min + 10)).toBe(false);
    expect(watch.update(0, 4 * min)).toBe(false);
    expect(watch.update(0, 7 * min)).toBe(true);
    watch.reset();
    expect(watch.update(0, 7 * min + 1)).toBe(false);
  });
});
