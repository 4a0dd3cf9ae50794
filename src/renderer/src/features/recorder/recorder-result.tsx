// Below the recorder once a recording has ended: where it went, and while it has no template,
// the picker and Send to be scribed.
import { useEffect, useRef } from 'react';
import { TemplatePicker } from '../../components/template-picker.tsx';
import { formatDuration } from '../../lib/duration.ts';
import { useNav } from '../../stores/nav.ts';
import { useRecorder } from '../../stores/recorder.ts';
import { sendToScribe, setTemplate } from './recorder-controller.ts';

export function Result() {
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
