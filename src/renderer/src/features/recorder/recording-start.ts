// Start recording: the one check before anything opens (the pet owner's consent, when Settings
// asks; never the patient's name, which can be typed while recording or after), then the steps that open the microphone, the consult in main and the
// MediaRecorder, in that order. A step that fails undoes the ones before it and says why; once
// the recorder runs, recording-under-way.ts has the recording.
import { api } from '../../api.ts';
import { linkAppointment } from './appointment.ts';
import { isCapturing, type RecorderState } from '../../stores/recorder.ts';
import { useSession } from '../../stores/session.ts';
import { useSettings } from '../../stores/settings.ts';
import { createSilenceWatch } from './audio-level.ts';
import { createChunkSender } from './chunk-sender.ts';
import { sendChangedSince, sendWaitingName, type SentDetails } from './details-sync.ts';
import { STILL_RECORDING_AFTER_MS } from './forgotten.ts';
import { connectLevelMeter } from './level-meter.ts';
import { get, live, set, type LiveRecording } from './live-state.ts';
import {
  DISCONNECTED_MESSAGE,
  FELL_BACK_MESSAGE,
  LOST_BEFORE_START_MESSAGE,
  microphoneErrorMessage,
  onTrackEnded,
  openMicrophone,
  recordingSupported,
  refreshDevices,
  stopTracks,
  tracksEnded,
} from './microphone.ts';
import { chunkFailureMessage, endRecording, release, tick, TICK_MS } from './recording-under-way.ts';
import { schedulePets } from './pets.ts';
import { createStopwatch } from './stopwatch.ts';

export const PREFERRED_MIME_TYPE = 'audio/webm;codecs=opus';
export const FALLBACK_MIME_TYPE = 'audio/webm';
const TIMESLICE_MS = 1000;

/** What a new recording starts from: nothing of the one before. */
const STARTING: Partial<RecorderState> = {
  status: 'starting',
  consentAsked: false,
  id: null,
  error: null,
  info: null,
  result: null,
  elapsedMs: 0,
  level: 0,
  silenceWarning: false,
  stillRecording: false,
  endsInMinutes: null,
  saveSlow: false,
  diskProblem: null,
  nameProblem: null,
  detailsError: null,
};

export async function startRecording({
  petOwnerConsented = false,
}: { petOwnerConsented?: boolean } = {}): Promise<void> {
  if (isCapturing(get().status) || !recordingSupported()) return;
  if (!consentSettled(petOwnerConsented)) return;
  await leaveWaitingConsult();
  const initial = get();
  if (isCapturing(initial.status)) return;
  set({ ...STARTING, owner: vetInFront() });
  const format = recordingFormat();
  if (!format) return;
  const microphone = await openForRecording(initial.deviceId);
  if (!microphone) return;
  const details = detailsNow(initial);
  const id = await openConsultInMain(microphone.stream, format.mimeType, details, petOwnerConsented);
  if (id === null) return;
  const parts = createRecorder(microphone.stream, format.mimeType);
  if ('error' in parts) return recorderFailed(id, microphone.stream, parts.error);
  const current = goLive(id, microphone.stream, parts);
  if (!beginCapture(current)) return abandonStart(current);
  announceRecording(current, [format.info, microphone.note]);
  sendChangedSince(details);
  if (get().pets.length > 0) schedulePets({ now: true });
  void linkAppointment(id);
}

/**
 * The last recording stopped without its patient's name, so the fields are still its own: a
 * name typed there goes to it, and the new recording starts with empty fields. Without a name
 * it waits in Consults, which says so.
 */
async function leaveWaitingConsult(): Promise<void> {
  if (!get().result?.needsName) return;
  await sendWaitingName();
  if (get().result?.needsName)
    set({ patientName: '', description: '', appointment: null, nameProblem: null, detailsError: null });
}

/** Who the recording is for: the vet signed in at Start. */
function vetInFront(): RecorderState['owner'] {
  const { signedIn, user } = useSession.getState().session;
  return signedIn && user ? { id: user.id, name: user.name || user.email } : null;
}

/** Settings asks for the pet owner's consent first: nothing is opened or recorded until the vet says so. */
function consentSettled(petOwnerConsented: boolean): boolean {
  const askConsent = useSettings.getState().settings?.askPetOwnerConsent === true;
  if (askConsent && !petOwnerConsented) set({ consentAsked: true, result: null, error: null, info: null });
  return !askConsent || petOwnerConsented;
}

/** Opus in WebM when the system has it; plain WebM otherwise, and the vet is told. */
export function chooseMimeType(isTypeSupported: (type: string) => boolean): {
  mimeType: string | null;
  info: string | null;
} {
  if (isTypeSupported(PREFERRED_MIME_TYPE)) return { mimeType: PREFERRED_MIME_TYPE, info: null };
  if (isTypeSupported(FALLBACK_MIME_TYPE)) {
    return {
      mimeType: FALLBACK_MIME_TYPE,
      info: 'This computer cannot record Opus audio, so the recording is plain WebM audio (larger files, same use).',
    };
  }
  return { mimeType: null, info: null };
}

function recordingFormat(): { mimeType: string; info: string | null } | null {
  const { mimeType, info } = chooseMimeType((t) => MediaRecorder.isTypeSupported(t));
  if (!mimeType) {
    set({ status: 'error', error: 'This computer cannot record WebM audio, which the scribe needs.' });
    return null;
  }
  return { mimeType, info };
}

async function openForRecording(deviceId: string): Promise<{ stream: MediaStream; note: string | null } | null> {
  try {
    const opened = await openMicrophone(deviceId);
    void refreshDevices();
    return { stream: opened.stream, note: opened.fellBack ? FELL_BACK_MESSAGE : null };
  } catch (e) {
    set({ status: 'error', error: microphoneErrorMessage(e) });
    return null;
  }
}

/** The details as typed now; a name emptied while the microphone opened falls back to the one Start was pressed with. */
function detailsNow(initial: RecorderState): SentDetails {
  return {
    patientName: get().patientName.trim() || initial.patientName.trim(),
    description: get().description.trim(),
    templateId: get().templateId,
  };
}

/** Main opens the consult and its recording file; answers its id, or null (said) when main refuses. */
async function openConsultInMain(
  stream: MediaStream,
  mimeType: string,
  details: SentDetails,
  petOwnerConsented: boolean,
): Promise<string | null> {
  const { patientName, description, templateId } = details;
  try {
    return (
      await api.recording.start({
        mimeType,
        // No name yet: the consult waits for it before it is sent.
        ...(patientName ? { patientName } : {}),
        ...(description ? { description } : {}),
        templateId,
        ...(petOwnerConsented ? { petOwnerConsented: true as const } : {}),
      })
    ).id;
  } catch (e) {
    stopTracks(stream);
    set({ status: 'error', error: `The recording could not be started: ${(e as Error).message}` });
    return null;
  }
}

function createRecorder(
  stream: MediaStream,
  mimeType: string,
): { recorder: MediaRecorder; context: AudioContext } | { error: unknown } {
  try {
    const recorder = new MediaRecorder(stream, { mimeType, audioBitsPerSecond: 32000 });
    return { recorder, context: new AudioContext() };
  } catch (error) {
    return { error };
  }
}

/** The recorder could not be made: the microphone is freed and main's consult stopped. */
async function recorderFailed(id: string, stream: MediaStream, error: unknown): Promise<void> {
  stopTracks(stream);
  await api.recording.stop({ id }).catch(() => undefined);
  set({ status: 'error', error: `The recorder could not start: ${(error as Error).message}` });
}

/** Wires the recording (level meter, chunk sender, stopwatch, tick, fault listeners) and makes it the live one. */
function goLive(
  id: string,
  stream: MediaStream,
  { recorder, context }: { recorder: MediaRecorder; context: AudioContext },
): LiveRecording {
  const meter = connectLevelMeter(context, stream);
  const sender = createChunkSender({
    id,
    send: (chunk) => api.recording.chunk(chunk),
    onRetry: () => set({ saveSlow: true }),
    onDiskProblem: (message) => set({ diskProblem: message }),
    onFatal: (error) => void endRecording(chunkFailureMessage(error)),
  });
  const stopwatch = createStopwatch();
  const stopped = new Promise<void>((resolve) => recorder.addEventListener('stop', () => resolve(), { once: true }));
  const current: LiveRecording = {
    id,
    stream,
    meter,
    recorder,
    stopped,
    sender,
    stopwatch,
    silence: createSilenceWatch(),
    longSilence: createSilenceWatch(STILL_RECORDING_AFTER_MS),
    timer: setInterval(() => tick(current), TICK_MS),
    ending: false,
  };
  live.recording = current;

  recorder.addEventListener('dataavailable', (event) => {
    // Straight to the queue: the queue lets go of the blob once main has it.
    if (event.data.size > 0) sender.push(event.data, stopwatch.elapsedMs());
  });
  recorder.addEventListener(
    'error',
    () => void endRecording('The recorder stopped with an error. The recording up to that moment is saved.'),
  );
  onTrackEnded(stream, () => void endRecording(DISCONNECTED_MESSAGE));
  return current;
}

/** Starts the MediaRecorder; false when the microphone went away meanwhile. */
function beginCapture(current: LiveRecording): boolean {
  try {
    // Throws (NotSupportedError) on a stream whose track has just ended.
    if (tracksEnded(current.stream)) throw new Error('the microphone is gone');
    current.recorder.start(TIMESLICE_MS);
    return true;
  } catch {
    return false;
  }
}

/**
 * The microphone went away before any audio was recorded: the empty recording the core opened
 * is removed (there is nothing in it to keep), and the vet is told to check the microphone.
 */
async function abandonStart(current: LiveRecording): Promise<void> {
  live.recording = null;
  release(current);
  const { id, stream } = current;
  stopTracks(stream);
  // Not stopped first: a stop would send it to be scribed when a template is chosen.
  await api.consults.delete({ id }).catch(() => api.recording.stop({ id, durationMs: 0 }).catch(() => undefined));
  set({ status: 'error', id: null, error: LOST_BEFORE_START_MESSAGE });
  void refreshDevices();
}

function announceRecording(current: LiveRecording, notes: (string | null)[]): void {
  current.stopwatch.start();
  set({ status: 'recording', id: current.id, info: notes.filter(Boolean).join(' ') || null });
}
