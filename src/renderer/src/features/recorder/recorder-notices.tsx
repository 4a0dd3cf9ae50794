// What the recorder has to say under its buttons, a line for each thing that may go wrong or
// wants the vet: silence, a recording left running, its maximum length, a full or slow disk,
// a failure with Try again. Under the buttons, so that a warning that appears never moves
// Pause and Stop away.
import { isCapturing, useRecorder } from '../../stores/recorder.ts';
import { finishAgain, stopRecording } from './recorder-controller.ts';

export function RecorderNotices() {
  const { status, id, silenceWarning, stillRecording, endsInMinutes, info, saveSlow, diskProblem, error } =
    useRecorder();
  return (
    <>
      {silenceWarning && (
        <p className="notice notice-warning" role="alert">
          No sound from the microphone for 5 seconds — check it is on and not muted
        </p>
      )}
      {stillRecording && status === 'recording' && (
        <div className="notice notice-warning" role="alert">
          <p>Still recording? Nothing has been heard for 3 minutes.</p>
          <button type="button" onClick={() => void stopRecording()}>
            Stop recording
          </button>
        </div>
      )}
      {endsInMinutes !== null && isCapturing(status) && (
        <p className="notice notice-warning" role="alert">
          The recording stops by itself in {endsInMinutes === 1 ? '1 minute' : `${endsInMinutes} minutes`}: it has
          nearly reached the maximum length set in Settings. What is recorded is kept.
        </p>
      )}
      {diskProblem && (
        <p className="notice notice-error" role="alert">
          {diskProblem} The recorder keeps listening; what it hears waits here until it can be saved.
        </p>
      )}
      {saveSlow && !diskProblem && isCapturing(status) && (
        <p className="field-hint" role="status">
          Saving the audio is slow; trying again. Keep recording.
        </p>
      )}
      {isCapturing(status) && (
        <p className="field-hint">The recording goes on if you open another view. Come back here to stop it.</p>
      )}
      {info && <p className="notice">{info}</p>}
      {error && (
        <div className="notice notice-error recorder-error" role="alert">
          <span>{error}</span>
          {status === 'error' && id && (
            <button type="button" onClick={() => void finishAgain()}>
              Try again
            </button>
          )}
        </div>
      )}
    </>
  );
}
