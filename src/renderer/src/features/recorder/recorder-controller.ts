// The recorder's public entry: what the Record view and the tests call, and initRecorder, which
// installs the window-wide listeners once. The work is in the files beside it, one job each —
// microphone.ts and level-meter.ts (the microphone), details-sync.ts (the patient details sent
// during the recording), recording-start.ts and recording-under-way.ts (the recording),
// commands.ts (the tray, the shortcut and the remaining buttons); live-state.ts holds what they
// share. The microphone is open only while recording: every track is stopped and the
// AudioContext closed as soon as a recording ends, however it ends.
import { api } from '../../api.ts';
import { isCapturing } from '../../stores/recorder.ts';
import { recorderStop } from '../../stores/switch-user.ts';
import { obeyCommand } from './commands.ts';
import { get, live, set } from './live-state.ts';
import { followSavedDevice, recordingSupported, refreshDevices } from './microphone.ts';
import { endRecording, onDeviceChange } from './recording-under-way.ts';

export { CONSENT_DECLINED_MESSAGE, declineConsent, obeyCommand, otherPets, sendToScribe } from './commands.ts';
export { NAME_KEPT_MESSAGE, sendWaitingName, setDescription, setPatientName, setTemplate } from './details-sync.ts';
export {
  chooseDevice,
  DISCONNECTED_MESSAGE,
  microphoneErrorMessage,
  recordingSupported,
  refreshDevices,
  revealDeviceNames,
} from './microphone.ts';
export { chooseMimeType, FALLBACK_MIME_TYPE, PREFERRED_MIME_TYPE, startRecording } from './recording-start.ts';
export { finishAgain, pauseRecording, resumeRecording, stopRecording } from './recording-under-way.ts';
export { addPet, MAX_PETS, removePet, setPetName } from './pets.ts';
export { clearAppointment, pickAppointment } from './appointment.ts';
export { followToday, loadToday, refreshToday, useToday } from './today.ts';

/** Installs the window-wide listeners once: device changes, leaving while recording, settings. */
export function initRecorder(): void {
  if (live.initialised) return;
  live.initialised = true;
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
  // Switching user does not: the vet chose "Keep recording" (or stopped it first, in the dialog).
  recorderStop.stop = () => obeyCommand('stop');
  api.on('session:changed', (session) => {
    if (!session.signedIn && session.endedBecause === null && !session.switched)
      void endRecording('You signed out, so the recording was stopped. The recording up to that moment is saved.');
  });
  followSavedDevice();
  void refreshDevices();
  // Subscribed above, the recorder says it listens. A command that came before (the start that
  // opened the window, on macOS where the app lives on without one) was held by main for this
  // page: it is obeyed now, once.
  void api.recorder
    .listening()
    .then((action) => action && obeyCommand(action))
    // Refused only when the vet in front changed meanwhile (the command was not theirs) or the
    // engine does not answer (the window says so): nothing to obey, Start is on the screen.
    .catch(() => undefined);
}
