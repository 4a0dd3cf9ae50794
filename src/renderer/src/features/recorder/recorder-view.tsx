// The Record view: choose the microphone and template, record the consult, and see where it
// went. Big buttons, a level meter and words for every state, for a vet with one free hand.
// Its parts are in this folder: the status and level (recorder-status.tsx), the buttons and
// the consent question (recorder-controls.tsx, consent-ask.tsx), the notices under them, the
// day's appointments from the practice-management system (today-list.tsx), the patient's
// fields, the microphone, and the result once it has ended.
import { useEffect, useRef } from 'react';
import { TemplatePicker } from '../../components/template-picker.tsx';
import { useRecorder } from '../../stores/recorder.ts';
import { useSession } from '../../stores/session.ts';
import { MicrophoneField } from './microphone-field.tsx';
import { PatientFields } from './patient-fields.tsx';
import { initRecorder, setTemplate } from './recorder-controller.ts';
import { Controls } from './recorder-controls.tsx';
import { RecorderNotices } from './recorder-notices.tsx';
import { Result } from './recorder-result.tsx';
import { LevelMeter, RecordingOwner, StatusLine } from './recorder-status.tsx';
import { TodayList } from './today-list.tsx';
import './recorder.css';

export function RecorderView() {
  const status = useRecorder((s) => s.status);
  const templateId = useRecorder((s) => s.templateId);
  const supported = useRecorder((s) => s.supported);
  const result = useRecorder((s) => s.result);
  const nameRef = useRef<HTMLInputElement>(null);
  const viewRef = useRef<HTMLElement>(null);
  // The one template field on screen: in the patient's panel, or on the result card while a
  // stopped recording waits for its template. Found where it is rather than by a ref handed
  // to both, since the shared picker takes none.
  const focusTemplate = () => {
    const field = viewRef.current?.querySelector<HTMLSelectElement>('.template-picker select');
    field?.focus();
    field?.scrollIntoView?.({ block: 'nearest' });
  };

  useEffect(() => {
    initRecorder();
  }, []);

  // A recording stopped without the patient's name: the cursor goes to the name.
  const nameAskedAt = useRecorder((s) => s.nameAskedAt);
  useEffect(() => {
    if (nameAskedAt > 0) nameRef.current?.focus();
  }, [nameAskedAt]);

  // While a stopped recording waits for its template, that picker is the one on screen. With no
  // one signed in (a recording kept going through Switch user) there is none: the templates are
  // listed for a vet, and the recording keeps the one its vet chose, named beside Stop.
  const signedIn = useSession((s) => !s.loaded || s.session.signedIn);
  const pickerHere = signedIn && !(status === 'stopped' && result && !result.sent);

  return (
    <section ref={viewRef} className="recorder" aria-labelledby="recorder-title">
      <h1 id="recorder-title">Record a consult</h1>
      {!supported && (
        <p className="notice notice-error" role="alert">
          This window cannot record audio: it has no access to a microphone recorder.
        </p>
      )}
      <div className="recorder-grid">
        <div className="recorder-column">
          <div className="panel recorder-main">
            <StatusLine />
            <RecordingOwner />
            <LevelMeter />
            <Controls onChangeTemplate={signedIn ? focusTemplate : null} />
            <RecorderNotices />
          </div>
          {/* Under the buttons, so that Start stays where the vet's hand expects it and the
              last consult's state is on the first screen, its Copy note one click away. */}
          <Result />
        </div>
        <div className="recorder-column">
          {/* Above the fields it fills; nothing when this computer has no practice-management system. */}
          <TodayList />
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
      </div>
    </section>
  );
}
