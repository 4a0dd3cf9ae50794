// The recorder's big buttons: Start (or the pet owner's consent question first), then Pause or
// Resume and Stop, with the template beside them. The keyboard follows the buttons as they
// change, so a vet can record without the mouse.
import { useEffect, useId, useRef } from 'react';
import { isCapturing, useRecorder } from '../../stores/recorder.ts';
import { useTemplates } from '../../stores/templates.ts';
import { ConsentAsk } from './consent-ask.tsx';
import { pauseRecording, resumeRecording, startRecording, stopRecording } from './recorder-controller.ts';

/**
 * The names of the templates this line has shown, by id: a recording kept going through Switch
 * user keeps its template while the list, each vet's own, is forgotten until the next sign-in.
 */
const namesSeen = new Map<string, string>();

/**
 * "Template: Vaccination visit · Change", beside Start and Stop: the template used last is
 * chosen for the vet, and said where the eye is on the way to Start, so it is never reused
 * for the next patient unseen. The buttons are described by it, so a screen reader says it too.
 */
function TemplateLine({ id, onChange }: { id: string; onChange: (() => void) | null }) {
  const templateId = useRecorder((s) => s.templateId);
  const listed = useTemplates((s) => s.items.find((t) => t.id === templateId)?.name);
  if (templateId !== null && listed) namesSeen.set(templateId, listed);
  const name = listed ?? (templateId === null ? undefined : namesSeen.get(templateId));
  const loading = useTemplates((s) => s.status === 'idle' || s.status === 'loading' || s.hasMore);
  let words: string;
  if (templateId === null) words = 'none chosen yet';
  else if (name) words = name;
  else words = loading ? 'loading its name…' : 'one the service no longer offers';
  return (
    <span className="recorder-template">
      <span id={id}>
        Template: <strong>{words}</strong>
      </span>
      {onChange && (
        <>
          <span aria-hidden="true"> · </span>
          <button type="button" className="link" onClick={onChange}>
            {templateId === null ? 'Choose' : 'Change'}
          </button>
        </>
      )}
    </span>
  );
}

/** `onChangeTemplate` takes the vet to the template field on screen; null when there is none. */
export function Controls({ onChangeTemplate }: { onChangeTemplate: (() => void) | null }) {
  const templateLine = useId();
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
      <ConsentAsk
        yesRef={consentRef}
        // Start is back once this box has gone: the keyboard goes to it.
        onDeclined={() => setTimeout(() => startRef.current?.focus(), 0)}
      />
    );
  }
  if (!capturing) {
    return (
      <div className="row controls">
        <button
          ref={startRef}
          type="button"
          className="big primary"
          onClick={() => void startRecording()}
          disabled={!supported}
          aria-describedby={templateLine}
        >
          <span className="rec-dot" aria-hidden="true" /> Start recording
        </button>
        <TemplateLine id={templateLine} onChange={onChangeTemplate} />
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
      <button
        type="button"
        className="big danger"
        onClick={() => void stopRecording()}
        disabled={busy}
        aria-describedby={templateLine}
      >
        <span className="stop-square" aria-hidden="true" /> Stop recording
      </button>
      <TemplateLine id={templateLine} onChange={onChangeTemplate} />
    </div>
  );
}
