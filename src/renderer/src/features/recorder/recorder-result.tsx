// Below the recorder once a recording has ended: the consult's state as main reports it, live
// until its note is ready (then Open note and Copy note, so a note is copied from here in three
// clicks: Start, Stop, Copy note); while it waits for the patient's name, that; while it has no
// template, the picker and Send to be scribed. A visit of several pets has one Copy per pet,
// named by the pet, since a note pasted under the wrong patient is the worst mistake a copy can make.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ConsultInfo } from '../../../../shared/ipc.ts';
import { TemplatePicker } from '../../components/template-picker.tsx';
import { consultStatus, consultTitle } from '../../lib/consult-status.ts';
import { COPY_WORDS, copyNote } from '../../lib/copy-note.ts';
import { formatDuration } from '../../lib/duration.ts';
import { PATIENT_NAME_WAITING } from '../../lib/patient-name.ts';
import { useConsults } from '../../stores/consults.ts';
import { useNav } from '../../stores/nav.ts';
import { useNotifications } from '../../stores/notifications.ts';
import { useRecorder } from '../../stores/recorder.ts';
import { useSettings } from '../../stores/settings.ts';
import { otherPets, sendToScribe, setTemplate } from './recorder-controller.ts';

export function Result() {
  const result = useRecorder((s) => s.result);
  const templateId = useRecorder((s) => s.templateId);
  // The consult as main last reported it: the card follows it without a reload.
  const consult = useConsults((s) => (result ? s.byId[result.id] : undefined));
  const overdueMinutes = useSettings((s) => s.settings?.scribeOverdueMinutes);
  const go = useNav((s) => s.go);
  const byId = useConsults((s) => s.byId);
  const pets = useMemo(() => (result ? otherPets(byId, result.id) : []), [byId, result]);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // What Copy note put on the clipboard, for the consult it was pressed for.
  const [copied, setCopied] = useState<{ id: string; words: string } | null>(null);
  const resultId = result?.id;
  const needsName = result?.needsName === true && !consult?.recording.patientName?.trim();
  useEffect(() => {
    // The keyboard comes here from the Stop button, which has gone; the page stays where it
    // is (a focus would otherwise scroll the card, at the bottom, into view). Without the
    // patient's name the cursor goes to the name field instead (recorder-view.tsx).
    if (resultId && !needsName) headingRef.current?.focus({ preventScroll: true });
    // Only for a new result, not when its name arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [resultId]);
  if (!result) return null;
  const sent = result.sent || (consult?.job ?? null) !== null;
  const ready = consult?.job?.state === 'completed';
  const title = consult ? consultTitle(consult.recording) : result.title;
  let heading: string;
  if (needsName) heading = PATIENT_NAME_WAITING;
  else if (!sent) heading = 'Recording saved — choose a template to send it';
  else if (ready) heading = 'Note ready';
  else if (consult) heading = consultStatus(consult, { overdueMinutes }).text;
  else heading = 'Sent to be scribed';

  const copy = async (id: string) => {
    setCopied(null);
    try {
      setCopied({ id, words: COPY_WORDS[await copyNote(id)] });
    } catch (e) {
      useNotifications.getState().fail(e, 'Could not copy the note');
    }
  };

  return (
    <section className="panel recorder-result" aria-labelledby="recorder-result-title">
      <h2 id="recorder-result-title" ref={headingRef} tabIndex={-1}>
        {heading}
      </h2>
      {result.interruption && (
        <p className="notice notice-warning" role="alert">
          {result.interruption}
        </p>
      )}
      <p className="muted">
        {title} · {formatDuration(result.durationMs)} recorded
      </p>
      {sent && consult && pets.length > 0 ? (
        <VisitNotes visit={[consult, ...pets]} copy={(id) => void copy(id)} copied={copied} />
      ) : (
        <OtherPets pets={pets} />
      )}
      {ready && pets.length > 0 ? (
        <div className="row">
          <button type="button" className="primary" onClick={() => go({ name: 'note', id: result.id })}>
            Open note
          </button>
        </div>
      ) : ready ? (
        <div className="row">
          <button type="button" className="primary" onClick={() => go({ name: 'note', id: result.id })}>
            Open note
          </button>
          <button type="button" onClick={() => void copy(result.id)}>
            Copy note
          </button>
          {copied?.id === result.id && (
            <span className="muted" role="status">
              {copied.words}
            </span>
          )}
        </div>
      ) : sent ? (
        <div className="row">
          <button type="button" onClick={() => go({ name: 'note', id: result.id })}>
            Open this consult
          </button>
          <button type="button" onClick={() => go({ name: 'consults' })}>
            All consults
          </button>
        </div>
      ) : needsName ? (
        <TemplatePicker
          value={templateId}
          onChange={setTemplate}
          hint="The scribe writes the note with this template's sections."
        />
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

/** "Milo's", "Otis's": whose note a button copies. */
const possessive = (name: string) => `${name}'s`;

/**
 * The notes of a visit sent to be scribed, one line per pet in the visit's order: a pet with its
 * note has a Copy named by it, one without says so and where its note is.
 */
function VisitNotes({
  visit,
  copy,
  copied,
}: {
  visit: ConsultInfo[];
  copy: (id: string) => void;
  copied: { id: string; words: string } | null;
}) {
  const overdueMinutes = useSettings((s) => s.settings?.scribeOverdueMinutes);
  return (
    <ul className="recorder-visit-notes" aria-label="Notes of this visit">
      {visit.map((pet, index) => {
        const name = pet.recording.patientName?.trim();
        const id = pet.recording.id;
        if (!name)
          return (
            <li key={id}>
              <strong>No name yet</strong>: waiting for its name in Consults
            </li>
          );
        if (pet.job?.state === 'completed')
          return (
            <li key={id}>
              <button type="button" onClick={() => copy(id)}>
                Copy {possessive(name)} note
              </button>
              {copied?.id === id && (
                <span className="muted" role="status">
                  {' '}
                  {copied.words}
                </span>
              )}
            </li>
          );
        // Where the note is, for each pet but the first, whose state is the card's heading.
        return (
          <li key={id}>
            <strong>{name}</strong>: note not ready
            {index > 0 && (
              <span className="muted">
                {' '}
                · {consultStatus(pet, overdueMinutes === undefined ? {} : { overdueMinutes }).text}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** The visit's other pets, each with where its own note is: one line each, under the first pet's. */
function OtherPets({ pets }: { pets: ConsultInfo[] }) {
  const overdueMinutes = useSettings((s) => s.settings?.scribeOverdueMinutes);
  if (pets.length === 0) return null;
  return (
    <ul className="recorder-other-pets" aria-label="Other patients in this visit">
      {pets.map((pet) => (
        <li key={pet.recording.id}>
          <strong>{pet.recording.patientName?.trim() || 'No name yet'}</strong>:{' '}
          {pet.recording.patientName?.trim()
            ? consultStatus(pet, overdueMinutes === undefined ? {} : { overdueMinutes }).text
            : 'waiting for its name in Consults'}
        </li>
      ))}
    </ul>
  );
}
