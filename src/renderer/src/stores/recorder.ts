// What the recorder shows: plain data only. The microphone, MediaRecorder and AudioContext live
// in features/recorder/recorder-controller.ts, which is the only writer of this store, so a
// recording goes on while the vet looks at another view.
import { create } from 'zustand';
import type { InputDevice } from '../lib/input-devices.ts';
import type { SessionInfo } from '../../../shared/ipc.ts';

export type RecorderStatus = 'idle' | 'starting' | 'recording' | 'paused' | 'stopping' | 'stopped' | 'error';

/** The consult just recorded, shown until the next recording starts. */
export interface RecorderResult {
  id: string;
  /** What the consult is called: its patient and the visit. */
  title: string;
  durationMs: number;
  /** Sent to be scribed (a template was chosen). */
  sent: boolean;
  /** The recording was stopped by a fault (disconnected microphone, a chunk not saved). */
  interruption: string | null;
  /**
   * Stopped without the patient's name: it waits for it, and until it is sent the patient
   * fields are this consult's (Enter, or leaving the name field, sends the name).
   */
  needsName: boolean;
}

/**
 * The day's appointment in the practice-management system the vet picked for this consult:
 * linked to the recording once it has an id (features/recorder/appointment.ts).
 */
export interface PickedAppointment {
  id: string;
  /** ISO 8601 instant. */
  start: string;
  /** Its patients' names, in the PIMS's order. */
  patients: string[];
}

export interface RecorderState {
  status: RecorderStatus;
  /** The recording under way (or the one that failed to finish). */
  id: string | null;
  elapsedMs: number;
  /** 0-100. */
  level: number;
  silenceWarning: boolean;
  /** Nothing heard for three minutes: "Still recording?". */
  stillRecording: boolean;
  /** Minutes before the recording stops at its maximum length, inside the warning; else null. */
  endsInMinutes: number | null;
  /** Chosen microphone; '' for the system default. */
  deviceId: string;
  devices: InputDevice[];
  /** The browser hides microphone names until the app has used one. */
  deviceNamesHidden: boolean;
  /** False when this window cannot record at all (no media devices or no MediaRecorder). */
  supported: boolean;
  /** The patient's name as typed; needed before the consult is sent, not before recording. */
  patientName: string;
  /** The visit's description as typed; optional. */
  description: string;
  /**
   * The other pets seen in the same visit, their names as typed ('' until named): at Stop each
   * becomes a consult of its own with the same audio.
   */
  pets: string[];
  /** The appointment picked from today's list; null when the names were only typed. */
  appointment: PickedAppointment | null;
  /** Why the name as typed is not sent (empty), shown under the field. */
  nameProblem: string | null;
  /** Main's refusal of the patient details (for one, once the consult is sent). */
  detailsError: string | null;
  templateId: string | null;
  /** Said once per recording, e.g. that Opus is not available. */
  info: string | null;
  /** Saving a chunk is being retried. */
  saveSlow: boolean;
  /** The disk is full or read-only: main's sentence, while the audio waits in the window. */
  diskProblem: string | null;
  error: string | null;
  result: RecorderResult | null;
  /** When a recording last stopped without a patient's name: the view puts the cursor in the name field. */
  nameAskedAt: number;
  /** Start is waiting for the vet to say whether the pet's owner consented (Settings asks). */
  consentAsked: boolean;
  /**
   * The vet the recording under way (or the last one) was started for: named on the Record view
   * when another vet, or no one, is signed in (the recording went on through a Switch user).
   */
  owner: { id: string; name: string } | null;
}

export const useRecorder = create<RecorderState>(() => ({
  status: 'idle',
  id: null,
  elapsedMs: 0,
  level: 0,
  silenceWarning: false,
  stillRecording: false,
  endsInMinutes: null,
  deviceId: '',
  devices: [],
  deviceNamesHidden: false,
  supported: true,
  patientName: '',
  description: '',
  pets: [],
  appointment: null,
  nameProblem: null,
  consentAsked: false,
  detailsError: null,
  templateId: null,
  info: null,
  saveSlow: false,
  error: null,
  result: null,
  nameAskedAt: 0,
  diskProblem: null,
  owner: null,
}));

export const isCapturing = (status: RecorderStatus) =>
  status === 'starting' || status === 'recording' || status === 'paused' || status === 'stopping';

/** Resolves once `settled` holds of the recorder's status (at once when it does), or after `withinMs`. */
function whenStatus(settled: (status: RecorderStatus) => boolean, withinMs: number): Promise<void> {
  if (settled(useRecorder.getState().status)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stop();
      resolve();
    };
    const timer = setTimeout(done, withinMs);
    const stop = useRecorder.subscribe((s) => {
      if (settled(s.status)) done();
    });
  });
}

/**
 * Resolves once no recording is going or ending (at once when none is), or after `withinMs`
 * whatever its state: a recording whose last chunks wait out a full disk must not hold up
 * whoever waits for it for as long as that takes.
 */
export function whenRecordingEnded(withinMs: number): Promise<void> {
  return whenStatus((status) => !isCapturing(status), withinMs);
}

/**
 * Resolves once a recording being started is made in main, or has failed (at once when none is
 * starting), or after `withinMs`: what is done for the vet in front (the consult made with
 * their sign-in) must be done before they hand the computer over.
 */
export function whenRecordingStarted(withinMs: number): Promise<void> {
  return whenStatus((status) => status !== 'starting', withinMs);
}

// The form is the vet's own: another vet signing in starts from their template (the settings'
// last template, read again at sign-in), not from the one left in the form, and with no patient
// typed, no card of the last vet's consult and no error of theirs (a start that failed, a
// recording that could not be finished: the audio is kept in main, and shown to its vet). At
// sign-out, or a Switch user, the form is emptied as well, so the same vet back finds it empty
// too. A recording still under way keeps its own details and its template, which are main's too
// (sent as typed), and which the view names beside Stop; the form is emptied, template and all,
// at the next change of vet after it ends. Undefined until the first sign-in is heard.
let formVet: string | null | undefined;
/** Main's `session:changed`: the form is emptied at each change of vet, unless a recording goes on. */
export function recorderSessionChanged(session: SessionInfo): void {
  const vet = session.signedIn ? (session.user?.id ?? null) : null;
  const changed = formVet !== undefined && vet !== formVet;
  formVet = vet;
  if (!changed) return;
  // A refusal of the details while no one was signed in is no one's now: the next change is sent again.
  useRecorder.setState({ detailsError: null });
  if (isCapturing(useRecorder.getState().status)) return;
  useRecorder.setState({
    status: 'idle',
    id: null,
    elapsedMs: 0,
    templateId: null,
    patientName: '',
    description: '',
    pets: [],
    appointment: null,
    nameProblem: null,
    error: null,
    result: null,
    info: null,
    saveSlow: false,
    diskProblem: null,
    consentAsked: false,
    owner: null,
  });
}
