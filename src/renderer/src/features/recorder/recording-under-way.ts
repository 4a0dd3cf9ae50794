// The recording under way, once started (recording-start.ts): its tick (elapsed time, level,
// silence, maximum length), pause and resume, and its end, however it ends — the vet's Stop, a
// fault, the microphone leaving, sign-out, the maximum length. Ending waits until main has
// every chunk, frees the microphone, and asks main to finish the consult.
import { api } from '../../api.ts';
import { type RecorderState } from '../../stores/recorder.ts';
import { useSession } from '../../stores/session.ts';
import { useSettings } from '../../stores/settings.ts';
import { consultTitle } from '../../lib/consult-status.ts';
import { formatDuration } from '../../lib/duration.ts';
import { PATIENT_NAME_ASK_MESSAGE } from '../../lib/patient-name.ts';
import { smoothLevel } from './audio-level.ts';
import type { ChunkSendError } from './chunk-sender.ts';
import { flushDetails } from './details-sync.ts';
import { checkLength, DEFAULT_MAX_RECORDING_MINUTES, maxLengthReachedText } from './forgotten.ts';
import { fail, get, live, set, type LiveRecording } from './live-state.ts';
import { DISCONNECTED_MESSAGE, microphoneLeft, refreshDevices, stopTracks } from './microphone.ts';
import { cancelPetsSend } from './pets.ts';

export const TICK_MS = 100;
// The final dataavailable precedes 'stop'; a recorder that never says 'stop' must not hang the
// window in "Stopping".
const STOP_WAIT_MS = 4000;

/** Every TICK_MS while the recording is live: the elapsed time, the level and its warnings, the maximum length. */
export function tick(current: LiveRecording): void {
  if (live.recording !== current || current.ending) return;
  const elapsedMs = current.stopwatch.elapsedMs();
  const patch: Partial<RecorderState> = { elapsedMs };
  if (get().status === 'recording') {
    const raw = current.meter.read();
    patch.level = smoothLevel(get().level, raw);
    const now = performance.now();
    patch.silenceWarning = current.silence.update(raw, now);
    patch.stillRecording = current.longSilence.update(raw, now);
  }
  const maxMinutes = useSettings.getState().settings?.maxRecordingMinutes ?? DEFAULT_MAX_RECORDING_MINUTES;
  const length = checkLength(elapsedMs, maxMinutes);
  patch.endsInMinutes = length.minutesLeft;
  set(patch);
  // Stopped and kept, as the vet would have: nothing recorded is lost.
  if (length.reached) void endRecording(maxLengthReachedText(maxMinutes));
}

export async function pauseRecording(): Promise<void> {
  const current = live.recording;
  if (!current || current.ending || get().status !== 'recording') return;
  current.recorder.pause();
  current.stopwatch.pause();
  current.silence.reset();
  current.longSilence.reset();
  set({
    status: 'paused',
    level: 0,
    silenceWarning: false,
    stillRecording: false,
    elapsedMs: current.stopwatch.elapsedMs(),
  });
  await api.recording.pause({ id: current.id }).catch((e: unknown) => fail(e, 'Pausing was not saved'));
}

export async function resumeRecording(): Promise<void> {
  const current = live.recording;
  if (!current || current.ending || get().status !== 'paused') return;
  current.recorder.resume();
  current.stopwatch.resume();
  set({ status: 'recording' });
  await api.recording.resume({ id: current.id }).catch((e: unknown) => fail(e, 'Resuming was not saved'));
}

export function stopRecording(): Promise<void> {
  return endRecording(null);
}

export function chunkFailureMessage(error: ChunkSendError): string {
  return `The recording was stopped because the audio could not be saved (${error.message}). The recording up to ${formatDuration(error.savedElapsedMs)} is saved.`;
}

/** Frees what the recording holds: its tick, the microphone, the level meter. */
export function release(current: LiveRecording): void {
  clearInterval(current.timer);
  stopTracks(current.stream);
  current.meter.close();
}

/**
 * Stops the recorder, waits until main has every chunk, frees the microphone, finishes.
 * `interruption`: why it ended without the vet's Stop, said with the result; null for a Stop.
 */
export async function endRecording(interruption: string | null): Promise<void> {
  const current = live.recording;
  if (!current || current.ending) return;
  current.ending = true;
  current.stopwatch.pause();
  set({
    status: 'stopping',
    level: 0,
    silenceWarning: false,
    stillRecording: false,
    endsInMinutes: null,
    elapsedMs: current.stopwatch.elapsedMs(),
  });
  if (current.recorder.state !== 'inactive') {
    try {
      current.recorder.stop();
    } catch {
      // Already stopping on its own (its track ended): 'stop' still comes.
    }
  }
  await Promise.race([current.stopped, new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS))]);
  release(current);
  let failure: ChunkSendError | null = null;
  try {
    await current.sender.drain();
  } catch (e) {
    failure = e as ChunkSendError;
  }
  await flushDetails();
  live.recording = null;
  const note = interruption ?? (failure ? chunkFailureMessage(failure) : null);
  await finish(current.id, failure ? failure.savedElapsedMs : current.stopwatch.elapsedMs(), note);
}

async function finish(id: string, durationMs: number | undefined, interruption: string | null): Promise<void> {
  // The visit's other pets: each becomes its own consult of the same audio in main.
  cancelPetsSend();
  const pets = get().pets.map((name) => name.trim());
  try {
    const consult = await api.recording.stop({
      id,
      ...(durationMs === undefined ? {} : { durationMs }),
      // Always, even none: a pet removed since main last heard of the pets sends nothing.
      pets,
    });
    const needsName = !consult.recording.patientName?.trim();
    set({
      status: 'stopped',
      id: null,
      pets: [],
      // Linked to this consult at its start: the next consult is another appointment's.
      appointment: null,
      // The next consult is another patient; one still without its name keeps the fields
      // (and what is being typed in them) until the name is sent.
      ...(needsName
        ? { nameProblem: PATIENT_NAME_ASK_MESSAGE, nameAskedAt: Date.now() }
        : { patientName: '', description: '', nameProblem: null }),
      detailsError: null,
      saveSlow: false,
      error: null,
      result: {
        id,
        title: consultTitle(consult.recording),
        durationMs: consult.recording.durationMs,
        sent: consult.job !== null,
        interruption,
        needsName,
      },
    });
  } catch (e) {
    const keptFor = keptForItsVet(e);
    if (keptFor) {
      // Stopped with no one, or another vet, signed in after a Switch user: main finished it and
      // keeps it as its vet's (sent with their own sign-in), and shows it only to them. Not a
      // failure, and nothing of that vet's consult is shown here: a neutral line, no card.
      set({
        status: 'stopped',
        id: null,
        pets: [],
        appointment: null,
        patientName: '',
        description: '',
        nameProblem: null,
        detailsError: null,
        saveSlow: false,
        error: null,
        result: null,
        // Its vet's choice, not the next consult's of whoever is in front.
        templateId: null,
        info: `${interruption ? `${interruption} ` : ''}The recording is kept on this computer as ${keptFor}'s: they find it in their consults.`,
      });
      return;
    }
    set({
      status: 'error',
      id,
      saveSlow: false,
      error: `${interruption ? `${interruption} ` : ''}The audio is saved on this computer, but the recording could not be finished: ${(e as Error).message}`,
    });
  }
}

/**
 * The name of the vet a recording was started for when main refused to show its consult after
 * Stop because that vet is not the one signed in now (main answers `not_found` once the audio is
 * finished and kept: the consult is not this vet's to see); else null, a real failure to finish.
 */
function keptForItsVet(e: unknown): string | null {
  const owner = get().owner;
  if (!owner || (e as { code?: unknown }).code !== 'not_found') return null;
  const { session } = useSession.getState();
  const inFront = session.signedIn ? (session.user?.id ?? null) : null;
  return owner.id === inFront ? null : owner.name;
}

/** After a failed finish: tries it again. */
export async function finishAgain(): Promise<void> {
  const { status, id } = get();
  if (status !== 'error' || !id || live.recording) return;
  set({ status: 'stopping', error: null });
  await finish(id, undefined, null);
}

/** A microphone came or went: a recording whose microphone left ends, keeping what it has. */
export async function onDeviceChange(): Promise<void> {
  const present = await refreshDevices();
  const current = live.recording;
  if (!current || current.ending) return;
  if (microphoneLeft(current.stream, present)) await endRecording(DISCONNECTED_MESSAGE);
}
