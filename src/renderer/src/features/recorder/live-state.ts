// Everything the recorder holds besides the store, in one object: the recording under way with
// its microphone, MediaRecorder and timers, the pending details send, and whether the
// window-wide listeners are installed. It lives at module level, not in a component, so the
// recording goes on while the vet opens another view. The store (stores/recorder.ts) gets plain
// snapshots of it; nothing live goes in the store.
import { useNotifications } from '../../stores/notifications.ts';
import { useRecorder, type RecorderState } from '../../stores/recorder.ts';
import type { createSilenceWatch } from './audio-level.ts';
import type { ChunkSender } from './chunk-sender.ts';
import type { LevelMeter } from './level-meter.ts';
import type { createStopwatch } from './stopwatch.ts';

/** The recording under way: what must be stopped and freed when it ends, however it ends. */
export interface LiveRecording {
  id: string;
  stream: MediaStream;
  meter: LevelMeter;
  recorder: MediaRecorder;
  /** Settles on the recorder's 'stop', which follows its last chunk. */
  stopped: Promise<void>;
  sender: ChunkSender;
  stopwatch: ReturnType<typeof createStopwatch>;
  silence: ReturnType<typeof createSilenceWatch>;
  /** The long silence of a recording left running. */
  longSilence: ReturnType<typeof createSilenceWatch>;
  timer: ReturnType<typeof setInterval>;
  ending: boolean;
}

export const live: {
  recording: LiveRecording | null;
  /** The patient details typed while recording wait here a moment before they go to main. */
  detailsTimer: ReturnType<typeof setTimeout> | null;
  /** Main has a patient's name for the recording under way (an emptied field then keeps it). */
  namedInMain: boolean;
  /** The window-wide listeners are installed (once). */
  initialised: boolean;
} = { recording: null, detailsTimer: null, namedInMain: false, initialised: false };

export const set = (patch: Partial<RecorderState>) => useRecorder.setState(patch);
export const get = () => useRecorder.getState();
export const fail = (e: unknown, what: string) => useNotifications.getState().fail(e, what);
