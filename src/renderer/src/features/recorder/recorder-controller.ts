// The one recording of this window: microphone, level meter and MediaRecorder, held here at
// module level rather than in a component, so the recording goes on while the vet opens
// another view. The store (stores/recorder.ts) gets plain snapshots; nothing live goes in it.
// The microphone is open only while recording: every track is stopped and the AudioContext
// closed as soon as a recording ends, however it ends.
import type { RecorderAction } from '../../../../shared/desktop.ts';
import { api } from '../../api.ts';
import { useNav } from '../../stores/nav.ts';
import { useNotifications } from '../../stores/notifications.ts';
import { isCapturing, useRecorder, type RecorderState } from '../../stores/recorder.ts';
import { useSettings } from '../../stores/settings.ts';
import { consultTitle } from '../consults/consult-status.ts';
import { patientNameProblem, PATIENT_NAME_REQUIRED_MESSAGE } from '../consults/patient-name.ts';
import { createSilenceWatch, levelFromSamples, smoothLevel } from './audio-level.ts';
import { checkLength, DEFAULT_MAX_RECORDING_MINUTES, maxLengthReachedText, STILL_RECORDING_AFTER_MS } from './forgotten.ts';
import { createChunkSender, type ChunkSender, type ChunkSendError } from './chunk-sender.ts';
import { describeDevices } from './devices.ts';
import { createStopwatch, formatElapsed } from './stopwatch.ts';

export const PREFERRED_MIME_TYPE = 'audio/webm;codecs=opus';
export const FALLBACK_MIME_TYPE = 'audio/webm';
export const DISCONNECTED_MESSAGE = 'The microphone was disconnected. The recording up to that moment is saved.';
const LOST_BEFORE_START_MESSAGE = 'The microphone was disconnected before the recording began, so nothing was recorded. Check the microphone and press Start recording again.';
const TIMESLICE_MS = 1000;
const TICK_MS = 100;
const DETAILS_DEBOUNCE_MS = 600;
// The final dataavailable precedes 'stop'; a recorder that never says 'stop' must not hang the
// window in "Stopping".
const STOP_WAIT_MS = 4000;

interface Live {
  id: string;
  stream: MediaStream;
  context: AudioContext;
  analyser: AnalyserNode;
  samples: Float32Array<ArrayBuffer>;
  recorder: MediaRecorder;
  stopped: Promise<void>;
  sender: ChunkSender;
  stopwatch: ReturnType<typeof createStopwatch>;
  silence: ReturnType<typeof createSilenceWatch>;
  /** The long silence of a recording left running. */
  longSilence: ReturnType<typeof createSilenceWatch>;
  timer: ReturnType<typeof setInterval>;
  ending: boolean;
}

let live: Live | null = null;
let detailsTimer: ReturnType<typeof setTimeout> | null = null;
let initialised = false;

const set = (patch: Partial<RecorderState>) => useRecorder.setState(patch);
const get = () => useRecorder.getState();
const fail = (e: unknown, what: string) => useNotifications.getState().fail(e, what);

export function recordingSupported(): boolean {
  return typeof navigator !== 'undefined' && !!navigator.mediaDevices?.getUserMedia && typeof MediaRecorder !== 'undefined' && typeof AudioContext !== 'undefined';
}

/** Opus in WebM when the system has it; plain WebM otherwise, and the vet is told. */
export function chooseMimeType(isTypeSupported: (type: string) => boolean): { mimeType: string | null; info: string | null } {
  if (isTypeSupported(PREFERRED_MIME_TYPE)) return { mimeType: PREFERRED_MIME_TYPE, info: null };
  if (isTypeSupported(FALLBACK_MIME_TYPE)) {
    return { mimeType: FALLBACK_MIME_TYPE, info: 'This computer cannot record Opus audio, so the recording is plain WebM audio (larger files, same use).' };
  }
  return { mimeType: null, info: null };
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

/** Installs the window-wide listeners once: device changes, leaving while recording, settings. */
export function initRecorder(): void {
  if (initialised) return;
  initialised = true;
  if (!recordingSupported()) {
    set({ supported: false });
    return;
  }
  navigator.mediaDevices.addEventListener('devicechange', () => void onDeviceChange());
  window.addEventListener('beforeunload', (event) => {
    if (!isCapturing(get().status)) return;
    // Asks the vet to confirm; the audio so far is on disk either way.
    event.preventDefault();
    event.returnValue = '';
  });
  // Signing out ends the consult too, so no one else at this computer records on. An expired
  // session does not: the recording needs none, and stopping it mid-consult would cut it short.
  // The tray and the global shortcut (main) drive the recorder as its buttons do.
  api.on('recorder:command', ({ action }) => void obeyCommand(action));
  api.on('session:changed', (session) => {
    if (!session.signedIn && session.endedBecause === null) void endRecording('You signed out, so the recording was stopped. The recording up to that moment is saved.');
  });
  const applySetting = () => {
    const saved = useSettings.getState().settings?.inputDeviceId;
    if (saved !== undefined && !isCapturing(get().status)) set({ deviceId: saved ?? '' });
  };
  applySetting();
  useSettings.subscribe((s, prev) => {
    if (s.settings?.inputDeviceId !== prev.settings?.inputDeviceId) applySetting();
  });
  void refreshDevices();
}

/**
 * A command from the tray or the global shortcut. A start shows the recorder; without a
 * patient's name it starts nothing and puts the cursor in the name field, as the button does.
 */
export async function obeyCommand(action: RecorderAction): Promise<void> {
  const { status } = get();
  switch (action) {
    case 'toggle':
      return obeyCommand(isCapturing(status) ? 'stop' : 'start');
    case 'start':
      useNav.getState().go({ name: 'record' });
      await startRecording();
      if (get().nameProblem && !isCapturing(get().status)) set({ nameAskedAt: Date.now() });
      return;
    case 'stop':
      if (isCapturing(status)) await stopRecording();
      return;
    case 'pause':
      if (status === 'recording') await pauseRecording();
      return;
    case 'resume':
      if (status === 'paused') await resumeRecording();
      return;
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

/** Opens the microphone for a moment so the browser shows the names of the microphones. */
export async function revealDeviceNames(): Promise<void> {
  try {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    for (const track of stream.getTracks()) track.stop();
    await refreshDevices();
  } catch (e) {
    set({ error: microphoneErrorMessage(e) });
  }
}

export function setPatientName(patientName: string): void {
  set({ patientName, nameProblem: null });
  scheduleDetails();
}

export function setDescription(description: string): void {
  set({ description });
  scheduleDetails();
}

function scheduleDetails(): void {
  if (!live) return;
  if (detailsTimer) clearTimeout(detailsTimer);
  detailsTimer = setTimeout(() => void sendDetails(), DETAILS_DEBOUNCE_MS);
}

/**
 * The patient details as typed go to main while recording. A name emptied meanwhile is not
 * sent: main keeps the last one it had, and the field says so.
 */
async function sendDetails(): Promise<void> {
  detailsTimer = null;
  const id = live?.id;
  if (!id) return;
  const name = get().patientName.trim();
  const description = get().description.trim();
  if (!name) set({ nameProblem: `${PATIENT_NAME_REQUIRED_MESSAGE} The name given before is kept until you type another.` });
  try {
    await api.recording.update({ id, ...(name ? { patientName: name } : {}), description: description || null });
    set({ detailsError: null });
  } catch (e) {
    set({ detailsError: `The patient details were not saved: ${(e as Error).message}` });
  }
}

async function flushDetails(): Promise<void> {
  if (!detailsTimer) return;
  clearTimeout(detailsTimer);
  await sendDetails();
}

export function setTemplate(templateId: string | null): void {
  set({ templateId });
  const id = live?.id;
  if (id) api.recording.update({ id, templateId }).catch((e: unknown) => fail(e, 'Could not change the template'));
}

/**
 * Mono, with the browser's echo and noise suppression. The chosen microphone is asked for
 * exactly (Chromium ignores an `ideal` device for audio); if it is gone, the system default.
 */
async function openMicrophone(deviceId: string): Promise<{ stream: MediaStream; fellBack: boolean }> {
  const open = (id: string) =>
    navigator.mediaDevices.getUserMedia({
      audio: { ...(id ? { deviceId: { exact: id } } : {}), channelCount: 1, echoCancellation: true, noiseSuppression: true },
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

/** Words for a consult not recorded because the owner did not consent. */
export const CONSENT_DECLINED_MESSAGE = 'Not recorded: the owner did not consent. Nothing was recorded.';

export async function startRecording({ ownerConsented = false }: { ownerConsented?: boolean } = {}): Promise<void> {
  const initial = get();
  if (isCapturing(initial.status) || !recordingSupported()) return;
  // The service needs the patient's name: nothing starts, and nothing is sent, without one.
  const nameProblem = patientNameProblem(initial.patientName);
  if (nameProblem) {
    set({ nameProblem, result: null, consentAsked: false });
    return;
  }
  // Settings asks for the owner's consent first: nothing is opened or recorded until the vet says so.
  const askConsent = useSettings.getState().settings?.askOwnerConsent === true;
  if (askConsent && !ownerConsented) {
    set({ consentAsked: true, result: null, error: null, info: null });
    return;
  }
  set({ status: 'starting', consentAsked: false, id: null, error: null, info: null, result: null, elapsedMs: 0, level: 0, silenceWarning: false, stillRecording: false, endsInMinutes: null, saveSlow: false, diskProblem: null, nameProblem: null, detailsError: null });

  const { mimeType, info } = chooseMimeType((t) => MediaRecorder.isTypeSupported(t));
  if (!mimeType) {
    set({ status: 'error', error: 'This computer cannot record WebM audio, which the scribe needs.' });
    return;
  }
  let stream: MediaStream;
  const notes = [info];
  try {
    const opened = await openMicrophone(initial.deviceId);
    stream = opened.stream;
    if (opened.fellBack) notes.push('The chosen microphone is not connected, so the system default is used.');
  } catch (e) {
    set({ status: 'error', error: microphoneErrorMessage(e) });
    return;
  }
  void refreshDevices();
  // A microphone unplugged while the recording is being opened ends its track before the
  // recording's own 'ended' listeners exist: its state says so.
  const microphoneGone = () => stream.getAudioTracks().every((t) => t.readyState === 'ended');

  let id: string;
  const patientName = get().patientName.trim() || initial.patientName.trim();
  const description = get().description.trim();
  const templateId = get().templateId;
  try {
    id = (await api.recording.start({ mimeType, patientName, ...(description ? { description } : {}), templateId, ...(ownerConsented ? { ownerConsented: true as const } : {}) })).id;
  } catch (e) {
    for (const t of stream.getTracks()) t.stop();
    set({ status: 'error', error: `The recording could not be started: ${(e as Error).message}` });
    return;
  }

  let recorder: MediaRecorder;
  let context: AudioContext;
  try {
    recorder = new MediaRecorder(stream, { mimeType, audioBitsPerSecond: 32000 });
    context = new AudioContext();
  } catch (e) {
    for (const t of stream.getTracks()) t.stop();
    await api.recording.stop({ id }).catch(() => undefined);
    set({ status: 'error', error: `The recorder could not start: ${(e as Error).message}` });
    return;
  }
  const analyser = context.createAnalyser();
  analyser.fftSize = 2048;
  context.createMediaStreamSource(stream).connect(analyser);
  void context.resume().catch(() => undefined);

  const sender = createChunkSender({
    id,
    send: (chunk) => api.recording.chunk(chunk),
    onRetry: () => set({ saveSlow: true }),
    onDiskProblem: (message) => set({ diskProblem: message }),
    onFatal: (error) => void endRecording(chunkFailureMessage(error)),
  });
  const stopwatch = createStopwatch();
  const stopped = new Promise<void>((resolve) => recorder.addEventListener('stop', () => resolve(), { once: true }));
  const current: Live = {
    id,
    stream,
    context,
    analyser,
    samples: new Float32Array(analyser.fftSize),
    recorder,
    stopped,
    sender,
    stopwatch,
    silence: createSilenceWatch(),
    longSilence: createSilenceWatch(STILL_RECORDING_AFTER_MS),
    timer: setInterval(() => tick(current), TICK_MS),
    ending: false,
  };
  live = current;

  recorder.addEventListener('dataavailable', (event) => {
    // Straight to the queue: the queue lets go of the blob once main has it.
    if (event.data.size > 0) sender.push(event.data, stopwatch.elapsedMs());
  });
  recorder.addEventListener('error', () => void endRecording('The recorder stopped with an error. The recording up to that moment is saved.'));
  for (const t of stream.getAudioTracks()) t.addEventListener('ended', () => void endRecording(DISCONNECTED_MESSAGE));

  try {
    // Throws (NotSupportedError) on a stream whose track has just ended.
    if (microphoneGone()) throw new Error('the microphone is gone');
    recorder.start(TIMESLICE_MS);
  } catch {
    live = null;
    release(current);
    await abandonStart(id, stream);
    return;
  }
  stopwatch.start();
  set({ status: 'recording', id, info: notes.filter(Boolean).join(' ') || null });
  // What changed while the recording was being set up goes to main now.
  if (get().patientName.trim() !== patientName || get().description.trim() !== description) void sendDetails();
  if (get().templateId !== templateId) setTemplate(get().templateId);
}

/**
 * The microphone went away before any audio was recorded: the empty recording the core opened
 * is removed (there is nothing in it to keep), and the vet is told to check the microphone.
 */
async function abandonStart(id: string, stream: MediaStream): Promise<void> {
  for (const t of stream.getTracks()) t.stop();
  // Not stopped first: a stop would send it to be scribed when a template is chosen.
  await api.consults.delete({ id }).catch(() => api.recording.stop({ id, durationMs: 0 }).catch(() => undefined));
  set({ status: 'error', id: null, error: LOST_BEFORE_START_MESSAGE });
  void refreshDevices();
}

function tick(current: Live): void {
  if (live !== current || current.ending) return;
  const elapsedMs = current.stopwatch.elapsedMs();
  const patch: Partial<RecorderState> = { elapsedMs };
  if (get().status === 'recording') {
    current.analyser.getFloatTimeDomainData(current.samples);
    const raw = levelFromSamples(current.samples);
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
  const current = live;
  if (!current || current.ending || get().status !== 'recording') return;
  current.recorder.pause();
  current.stopwatch.pause();
  current.silence.reset();
  current.longSilence.reset();
  set({ status: 'paused', level: 0, silenceWarning: false, stillRecording: false, elapsedMs: current.stopwatch.elapsedMs() });
  await api.recording.pause({ id: current.id }).catch((e: unknown) => fail(e, 'Pausing was not saved'));
}

export async function resumeRecording(): Promise<void> {
  const current = live;
  if (!current || current.ending || get().status !== 'paused') return;
  current.recorder.resume();
  current.stopwatch.resume();
  set({ status: 'recording' });
  await api.recording.resume({ id: current.id }).catch((e: unknown) => fail(e, 'Resuming was not saved'));
}

export function stopRecording(): Promise<void> {
  return endRecording(null);
}

function chunkFailureMessage(error: ChunkSendError): string {
  return `The recording was stopped because the audio could not be saved (${error.message}). The recording up to ${formatElapsed(error.savedElapsedMs)} is saved.`;
}

function release(current: Live): void {
  clearInterval(current.timer);
  for (const t of current.stream.getTracks()) t.stop();
  void current.context.close().catch(() => undefined);
}

/** Stops the recorder, waits until main has every chunk, frees the microphone, finishes. */
async function endRecording(interruption: string | null): Promise<void> {
  const current = live;
  if (!current || current.ending) return;
  current.ending = true;
  current.stopwatch.pause();
  set({ status: 'stopping', level: 0, silenceWarning: false, stillRecording: false, endsInMinutes: null, elapsedMs: current.stopwatch.elapsedMs() });
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
  live = null;
  const note = interruption ?? (failure ? chunkFailureMessage(failure) : null);
  await finish(current.id, failure ? failure.savedElapsedMs : current.stopwatch.elapsedMs(), note);
}

async function finish(id: string, durationMs: number | undefined, interruption: string | null): Promise<void> {
  try {
    const consult = await api.recording.stop(durationMs === undefined ? { id } : { id, durationMs });
    set({
      status: 'stopped',
      id: null,
      // The next consult is another patient.
      patientName: '',
      description: '',
      nameProblem: null,
      detailsError: null,
      saveSlow: false,
      error: null,
      result: { id, title: consultTitle(consult.recording), durationMs: consult.recording.durationMs, sent: consult.job !== null, interruption },
    });
  } catch (e) {
    set({
      status: 'error',
      id,
      saveSlow: false,
      error: `${interruption ? `${interruption} ` : ''}The audio is saved on this computer, but the recording could not be finished: ${(e as Error).message}`,
    });
  }
}

/** After a failed finish: tries it again. */
export async function finishAgain(): Promise<void> {
  const { status, id } = get();
  if (status !== 'error' || !id || live) return;
  set({ status: 'stopping', error: null });
  await finish(id, undefined, null);
}

/** For a recording stopped without a template: send it with the one chosen now. */
export async function sendToScribe(): Promise<void> {
  const { result, templateId } = get();
  if (!result || result.sent || !templateId) return;
  try {
    await api.consults.submit({ id: result.id, templateId });
    set({ result: { ...result, sent: true } });
  } catch (e) {
    fail(e, 'Could not send the recording to be scribed');
  }
}

async function onDeviceChange(): Promise<void> {
  const present = await refreshDevices();
  const current = live;
  if (!current || current.ending) return;
  const track = current.stream.getAudioTracks()[0];
  const used = track?.getSettings().deviceId;
  // With no ids at all the browser is hiding them, which says nothing about our microphone.
  const gone = track?.readyState === 'ended' || (present.size > 0 && !!used && !present.has(used));
  if (gone) await endRecording(DISCONNECTED_MESSAGE);
}

/** The vet says the owner did not consent: nothing is recorded, and the window says so. */
export function declineConsent(): void {
  set({ consentAsked: false, info: CONSENT_DECLINED_MESSAGE });
}
