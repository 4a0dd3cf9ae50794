// The Record view: choose the microphone and template, record the consult, and see where it
// went. Big buttons, a level meter and words for every state, for a vet with one free hand.
import { useEffect, useId, useRef, type RefObject } from 'react';
import { useNav } from '../../stores/nav.ts';
import { isCapturing, useRecorder } from '../../stores/recorder.ts';
import { formatDuration } from '../../lib/consult-status.ts';
import { PATIENT_NAME_HINT } from '../../lib/patient-name.ts';
import { TemplatePicker } from '../../components/template-picker.tsx';
import {
  chooseDevice,
  finishAgain,
  initRecorder,
  pauseRecording,
  resumeRecording,
  revealDeviceNames,
  sendToScribe,
  setDescription,
  setPatientName,
  setTemplate,
  startRecording,
  declineConsent,
  stopRecording,
} from './recorder-controller.ts';
import { formatElapsed } from './stopwatch.ts';
import './recorder.css';

function levelWords(level: number): string {
  if (level < 10) return 'Silent';
  if (level < 40) return 'Quiet';
  if (level < 85) return 'Good';
  return 'Very loud';
}

function MicrophoneField() {
  const { deviceId, devices, deviceNamesHidden, status, supported } = useRecorder();
  const id = useId();
  const known = deviceId === '' || devices.some((d) => d.deviceId === deviceId);
  return (
    <div>
      <label htmlFor={id}>Microphone</label>
      <select
        id={id}
        value={deviceId}
        onChange={(e) => chooseDevice(e.target.value)}
        disabled={!supported || isCapturing(status)}
      >
        <option value="">System default microphone</option>
        {!known && (
          <option value={deviceId}>
            {deviceNamesHidden ? 'The microphone chosen last time' : 'The microphone chosen last time (not connected)'}
          </option>
        )}
        {devices.map((d) => (
          <option key={d.deviceId} value={d.deviceId}>
            {d.label}
          </option>
        ))}
      </select>
      {isCapturing(status) && <p className="field-hint">The microphone can be changed when the recording has ended.</p>}
      {!known && !deviceNamesHidden && (
        <p className="field-hint">The microphone chosen last time is not connected; the system default will be used.</p>
      )}
      {deviceNamesHidden && !isCapturing(status) && supported && (
        <p className="field-hint">
          Microphone names show once Vet Scribe may use the microphone.{' '}
          <button type="button" className="link" onClick={() => void revealDeviceNames()}>
            Show microphone names
          </button>
        </p>
      )}
    </div>
  );
}

function LevelMeter() {
  const level = useRecorder((s) => s.level);
  const status = useRecorder((s) => s.status);
  const active = status === 'recording';
  return (
    <div className="meter-field">
      <span className="meter-label" aria-hidden="true">
        Input level
      </span>
      <div
        className="level-meter"
        role="meter"
        aria-label="Input level"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={level}
        aria-valuetext={active ? `${level} of 100, ${levelWords(level).toLowerCase()}` : 'Not listening'}
      >
        <div className={`level-meter-fill${level >= 85 ? ' loud' : ''}`} style={{ width: `${level}%` }} />
      </div>
      <span className="meter-words" aria-hidden="true">
        {active ? levelWords(level) : status === 'paused' ? 'Paused' : 'The microphone is off until you record'}
      </span>
    </div>
  );
}

function StatusLine() {
  const status = useRecorder((s) => s.status);
  const elapsedMs = useRecorder((s) => s.elapsedMs);
  const words: Record<typeof status, string> = {
    idle: 'Ready to record',
    starting: 'Opening the microphone…',
    recording: 'Recording',
    paused: 'Paused',
    stopping: 'Saving the recording…',
    stopped: 'Recording ended',
    error: 'Not recording',
  };
  return (
    <div className="status-line">
      <span className={`rec-indicator rec-${status}`} role="status">
        <span className="rec-dot" aria-hidden="true" />
        {words[status]}
      </span>
      <span className="elapsed">
        <span className="visually-hidden">Elapsed time </span>
        <time dateTime={`PT${Math.floor(elapsedMs / 1000)}S`}>{formatElapsed(elapsedMs)}</time>
      </span>
    </div>
  );
}

function Controls({ onNameMissing }: { onNameMissing(): void }) {
  const status = useRecorder((s) => s.status);
  const supported = useRecorder((s) => s.supported);
  const pauseRef = useRef<HTMLButtonElement>(null);
  const resumeRef = useRef<HTMLButtonElement>(null);
  const startRef = useRef<HTMLButtonElement>(null);
  const consentAsked = useRecorder((s) => s.consentAsked);
  const consentRef = useRef<HTMLButtonElement>(null);
  const capturing = isCapturing(status);
  const previous = useRef(status);

  useEffect(() => {
    if (consentAsked) consentRef.current?.focus();
  }, [consentAsked]);

  // The pressed button goes away, so the keyboard focus moves on to the one that undoes it.
  // After Start it lands on Pause, never on Stop: a key pressed twice must not end the consult.
  useEffect(() => {
    if (status === 'recording' && (previous.current === 'starting' || previous.current === 'paused'))
      pauseRef.current?.focus();
    if (status === 'paused' && previous.current === 'recording') resumeRef.current?.focus();
    if (status === 'error' && previous.current === 'starting') startRef.current?.focus();
    previous.current = status;
  }, [status]);

  if (!capturing && consentAsked) {
    return (
      <div className="notice consent-ask" role="alertdialog" aria-labelledby="consent-question" aria-modal="false">
        <p id="consent-question">
          <strong>Has the owner agreed to this consult being recorded?</strong>
        </p>
        <div className="row">
          <button
            ref={consentRef}
            type="button"
            className="primary"
            onClick={() => void startRecording({ ownerConsented: true })}
          >
            Yes, the owner agreed: record
          </button>
          <button
            type="button"
            onClick={() => {
              declineConsent();
              // Start is back once this box has gone: the keyboard goes to it.
              setTimeout(() => startRef.current?.focus(), 0);
            }}
          >
            No, do not record
          </button>
        </div>
      </div>
    );
  }
  if (!capturing) {
    return (
      <div className="row controls">
        <button
          ref={startRef}
          type="button"
          className="big primary"
          onClick={() =>
            void startRecording().then(() => {
              if (useRecorder.getState().nameProblem && !isCapturing(useRecorder.getState().status)) onNameMissing();
            })
          }
          disabled={!supported}
        >
          <span className="rec-dot" aria-hidden="true" /> Start recording
        </button>
      </div>
    );
  }
  const busy = status === 'starting' || status === 'stopping';
  return (
    <div className="row controls">
      {status === 'paused' ? (
        <button ref={resumeRef} type="button" className="big" onClick={() => void resumeRecording()} disabled={busy}>
          Resume
        </button>
      ) : (
        <button ref={pauseRef} type="button" className="big" onClick={() => void pauseRecording()} disabled={busy}>
          Pause
        </button>
      )}
      <button type="button" className="big danger" onClick={() => void stopRecording()} disabled={busy}>
        <span className="stop-square" aria-hidden="true" /> Stop recording
      </button>
    </div>
  );
}

function Result() {
  const result = useRecorder((s) => s.result);
  const templateId = useRecorder((s) => s.templateId);
  const go = useNav((s) => s.go);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const resultId = result?.id;
  useEffect(() => {
    if (resultId) headingRef.current?.focus();
  }, [resultId]);
  if (!result) return null;
  return (
    <section className="panel recorder-result" aria-labelledby="recorder-result-title">
      <h2 id="recorder-result-title" ref={headingRef} tabIndex={-1}>
        {result.sent ? 'Sent to be scribed — follow it in Consults' : 'Recording saved — choose a template to send it'}
      </h2>
      {result.interruption && (
        <p className="notice notice-warning" role="alert">
          {result.interruption}
        </p>
      )}
      <p className="muted">
        {result.title} · {formatDuration(result.durationMs)} recorded
      </p>
      {result.sent ? (
        <div className="row">
          <button type="button" className="primary" onClick={() => go({ name: 'note', id: result.id })}>
            Open this consult
          </button>
          <button type="button" onClick={() => go({ name: 'consults' })}>
            All consults
          </button>
        </div>
      ) : (
        <>
          <TemplatePicker
            value={templateId}
            onChange={setTemplate}
            hint="The scribe writes the note with this template's sections."
          />
          <div className="row recorder-send">
            <button type="button" className="primary" onClick={() => void sendToScribe()} disabled={!templateId}>
              Send to be scribed
            </button>
            <span className="muted">Or send it later from Consults.</span>
          </div>
        </>
      )}
    </section>
  );
}

function PatientFields({ nameRef }: { nameRef: RefObject<HTMLInputElement | null> }) {
  const patientName = useRecorder((s) => s.patientName);
  const description = useRecorder((s) => s.description);
  const nameProblem = useRecorder((s) => s.nameProblem);
  const detailsError = useRecorder((s) => s.detailsError);
  const status = useRecorder((s) => s.status);
  const ids = useId();
  return (
    <fieldset className="recorder-patient">
      <legend>Patient</legend>
      <label htmlFor={`${ids}-name`}>
        Patient&apos;s name{' '}
        <span className="required-mark" aria-hidden="true">
          (required)
        </span>
      </label>
      <input
        ref={nameRef}
        id={`${ids}-name`}
        type="text"
        value={patientName}
        maxLength={200}
        onChange={(e) => setPatientName(e.target.value)}
        aria-required="true"
        aria-invalid={nameProblem ? true : undefined}
        aria-describedby={nameProblem ? `${ids}-name-hint ${ids}-name-problem` : `${ids}-name-hint`}
        placeholder="e.g. Bella"
        autoComplete="off"
      />
      {nameProblem && (
        <p id={`${ids}-name-problem`} className="field-error" role="alert">
          {nameProblem}
        </p>
      )}
      <p id={`${ids}-name-hint`} className="field-hint">
        {PATIENT_NAME_HINT}
      </p>
      <label htmlFor={`${ids}-description`}>Visit description (optional)</label>
      <input
        id={`${ids}-description`}
        type="text"
        value={description}
        maxLength={2000}
        onChange={(e) => setDescription(e.target.value)}
        aria-describedby={`${ids}-description-hint`}
        placeholder="e.g. Vomiting 2 days"
        autoComplete="off"
      />
      <p id={`${ids}-description-hint`} className="field-hint">
        {isCapturing(status)
          ? 'Changes are kept as you type, until the consult is sent.'
          : 'Both can be changed while recording, until the consult is sent.'}
      </p>
      {detailsError && (
        <p className="notice notice-warning" role="alert">
          {detailsError}
        </p>
      )}
    </fieldset>
  );
}

export function RecorderView() {
  const {
    status,
    id,
    templateId,
    silenceWarning,
    stillRecording,
    endsInMinutes,
    supported,
    info,
    saveSlow,
    diskProblem,
    error,
    result,
  } = useRecorder();
  const nameRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    initRecorder();
  }, []);

  // The tray or the shortcut asked to start without a patient's name.
  const nameAskedAt = useRecorder((s) => s.nameAskedAt);
  useEffect(() => {
    if (nameAskedAt > 0) nameRef.current?.focus();
  }, [nameAskedAt]);

  // While a stopped recording waits for its template, that picker is the one on screen.
  const pickerHere = !(status === 'stopped' && result && !result.sent);

  return (
    <section className="recorder" aria-labelledby="recorder-title">
      <h1 id="recorder-title">Record a consult</h1>
      {!supported && (
        <p className="notice notice-error" role="alert">
          This window cannot record audio: it has no access to a microphone recorder.
        </p>
      )}
      <div className="recorder-grid">
        <div className="panel recorder-main">
          <StatusLine />
          <LevelMeter />
          <Controls onNameMissing={() => nameRef.current?.focus()} />
          {/* Under the buttons: a warning that appears must not move Pause and Stop away. */}
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
        </div>
        <div className="panel recorder-setup">
          <PatientFields nameRef={nameRef} />
          {pickerHere && (
            <TemplatePicker
              value={templateId}
              onChange={setTemplate}
              hint="You can also choose it after recording, or change it while recording."
            />
          )}
          <MicrophoneField />
        </div>
      </div>
      {/* Below the recorder, so that Start recording stays where the vet's hand expects it. */}
      <Result />
    </section>
  );
}
