// The microphone: whether this window can record at all, the list of microphones and the one
// chosen (remembered in Settings), opening it for a recording, and noticing that it went away.
// It is open only while recording: the recording session stops every track as soon as the
// recording ends, however it ends.
import { isCapturing } from '../../stores/recorder.ts';
import { useSettings } from '../../stores/settings.ts';
import { describeDevices } from '../../lib/input-devices.ts';
import { fail, get, set } from './live-state.ts';

export const DISCONNECTED_MESSAGE = 'The microphone was disconnected. The recording up to that moment is saved.';
export const LOST_BEFORE_START_MESSAGE =
  'The microphone was disconnected before the recording began, so nothing was recorded. Check the microphone and press Start recording again.';
export const FELL_BACK_MESSAGE = 'The chosen microphone is not connected, so the system default is used.';

export function recordingSupported(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    !!navigator.mediaDevices?.getUserMedia &&
    typeof MediaRecorder !== 'undefined' &&
    typeof AudioContext !== 'undefined'
  );
}

export function microphoneErrorMessage(e: unknown): string {
  const name = (e as { name?: string })?.name;
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return 'Vet Scribe may not use the microphone. Allow microphone access for Vet Scribe in the system settings, then try again.';
    case 'NotFoundError':
    case 'OverconstrainedError':
      return 'No microphone was found. Connect one, choose it under Microphone, and try again.';
    case 'NotReadableError':
    case 'AbortError':
      return 'The microphone cannot be read: another app may be using it. Close that app or choose another microphone, then try again.';
    default:
      return `The microphone could not be opened: ${(e as Error)?.message ?? String(e)}`;
  }
}

/** Reads the device list again; answers the raw ids, for noticing a microphone that left. */
export async function refreshDevices(): Promise<Set<string>> {
  try {
    const all = await navigator.mediaDevices.enumerateDevices();
    const { devices, namesHidden } = describeDevices(all);
    set({ devices, deviceNamesHidden: namesHidden });
    return new Set(all.filter((d) => d.kind === 'audioinput' && d.deviceId !== '').map((d) => d.deviceId));
  } catch {
    return new Set();
  }
}

export function chooseDevice(deviceId: string): void {
  if (isCapturing(get().status)) return;
  set({ deviceId });
  useSettings
    .getState()
    .update({ inputDeviceId: deviceId === '' ? null : deviceId })
    .catch((e: unknown) => fail(e, 'Could not remember the microphone'));
}

/** The microphone remembered in Settings is the one chosen, now and whenever Settings changes it (not mid-recording). */
export function followSavedDevice(): void {
  const applySetting = () => {
    const saved = useSettings.getState().settings?.inputDeviceId;
    if (saved !== undefined && !isCapturing(get().status)) set({ deviceId: saved ?? '' });
  };
  applySetting();
  useSettings.subscribe((s, prev) => {
    if (s.settings?.inputDeviceId !== prev.settings?.inputDeviceId) applySetting();
  });
}

/** Opens the microphone for a moment so the browser shows the names of the microphones. */
export async function revealDeviceNames(): Promise<void> {
  try {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    stopTracks(stream);
    await refreshDevices();
  } catch (e) {
    set({ error: microphoneErrorMessage(e) });
  }
}

/**
 * Mono, with the browser's echo and noise suppression. The chosen microphone is asked for
 * exactly (Chromium ignores an `ideal` device for audio); if it is gone, the system default.
 */
export async function openMicrophone(deviceId: string): Promise<{ stream: MediaStream; fellBack: boolean }> {
  const open = (id: string) =>
    navigator.mediaDevices.getUserMedia({
      audio: {
        ...(id ? { deviceId: { exact: id } } : {}),
        channelCount: 1,
        echoCancellation: true,
        noiseSuppression: true,
      },
    });
  if (!deviceId) return { stream: await open(''), fellBack: false };
  const present = await refreshDevices();
  // No ids at all: the browser hides them until the first use, so just try.
  if (present.size === 0 || present.has(deviceId)) {
    try {
      return { stream: await open(deviceId), fellBack: false };
    } catch (e) {
      const name = (e as { name?: string })?.name;
      if (name !== 'OverconstrainedError' && name !== 'NotFoundError') throw e;
    }
  }
  return { stream: await open(''), fellBack: true };
}

export function stopTracks(stream: MediaStream): void {
  for (const t of stream.getTracks()) t.stop();
}

/**
 * A microphone unplugged while the recording is being opened ends its track before the
 * recording's own 'ended' listeners exist: its state says so.
 */
export function tracksEnded(stream: MediaStream): boolean {
  return stream.getAudioTracks().every((t) => t.readyState === 'ended');
}

export function onTrackEnded(stream: MediaStream, lost: () => void): void {
  for (const t of stream.getAudioTracks()) t.addEventListener('ended', lost);
}

/** After a device change: whether the microphone of this stream left (`present`: refreshDevices' ids). */
export function microphoneLeft(stream: MediaStream, present: Set<string>): boolean {
  const track = stream.getAudioTracks()[0];
  const used = track?.getSettings().deviceId;
  // With no ids at all the browser is hiding them, which says nothing about our microphone.
  return track?.readyState === 'ended' || (present.size > 0 && !!used && !present.has(used));
}
