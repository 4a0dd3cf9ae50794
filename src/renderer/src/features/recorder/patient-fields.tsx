// The patient's name and the visit's description, first in the setup panel: the service needs
// the name before it can write the note, and both can change while recording, until sent. A
// recording stopped without the name keeps these fields as its own until the name is sent.
// A recording kept going through a Switch user shows its details to whoever is in front, but
// only its own vet may change them (main refuses anyone else), so they are not offered to edit.
import { useId, type RefObject } from 'react';
import { MAX_DESCRIPTION, MAX_PATIENT_NAME } from '../../../../shared/limits.ts';
import { FormField } from '../../components/form-field.tsx';
import { PATIENT_NAME_ASK_MESSAGE, PATIENT_NAME_HINT } from '../../lib/patient-name.ts';
import { useConsults } from '../../stores/consults.ts';
import { isCapturing, useRecorder } from '../../stores/recorder.ts';
import { useSession } from '../../stores/session.ts';
import { PetFields } from './pet-fields.tsx';
import { sendWaitingName, setDescription, setPatientName } from './recorder-controller.ts';
import { PickedAppointment } from './today-list.tsx';

export function PatientFields({ nameRef }: { nameRef: RefObject<HTMLInputElement | null> }) {
  const patientName = useRecorder((s) => s.patientName);
  const description = useRecorder((s) => s.description);
  const nameProblem = useRecorder((s) => s.nameProblem);
  const detailsError = useRecorder((s) => s.detailsError);
  const status = useRecorder((s) => s.status);
  const resultId = useRecorder((s) => (s.result?.needsName === true && !isCapturing(s.status) ? s.result.id : null));
  // Named meanwhile elsewhere (in Consults): the fields are the next patient's again.
  const namedElsewhere = useConsults((s) => !!(resultId && s.byId[resultId]?.recording.patientName?.trim()));
  const waiting = resultId !== null && !namedElsewhere;
  // The vet whose recording is going, when that is not the vet in front (or no one is).
  const inFront = useSession((s) => (s.session.signedIn ? (s.session.user?.id ?? null) : null));
  const keptFor = useRecorder((s) =>
    isCapturing(s.status) && s.owner && s.owner.id !== inFront ? s.owner.name : null,
  );
  const locked = keptFor !== null;
  const ids = useId();
  const nameLabel = (
    <>
      Patient&apos;s name{' '}
      <span className="required-mark" aria-hidden="true">
        (required)
      </span>
    </>
  );
  return (
    <fieldset className="recorder-patient">
      <legend>{waiting ? 'Patient of the consult just recorded' : 'Patient'}</legend>
      <PickedAppointment />
      {locked && (
        <p className="field-hint" role="status">
          Kept as {keptFor}&apos;s: they can change these details in Consults once signed in.
        </p>
      )}
      <FormField
        id={`${ids}-name`}
        label={nameLabel}
        hint={PATIENT_NAME_HINT}
        error={waiting || nameProblem !== PATIENT_NAME_ASK_MESSAGE ? nameProblem : null}
        announce
      >
        {(control) => (
          <input
            {...control}
            ref={nameRef}
            type="text"
            value={patientName}
            maxLength={MAX_PATIENT_NAME}
            readOnly={locked}
            onChange={(e) => {
              if (!locked) setPatientName(e.target.value);
            }}
            onKeyDown={(e) => {
              if (waiting && e.key === 'Enter') {
                e.preventDefault();
                void sendWaitingName();
              }
            }}
            onBlur={() => {
              if (waiting && useRecorder.getState().patientName.trim()) void sendWaitingName();
            }}
            aria-required="true"
            placeholder="e.g. Bella"
            autoComplete="off"
          />
        )}
      </FormField>
      {!waiting && <PetFields />}
      <FormField
        id={`${ids}-description`}
        label="Visit description (optional)"
        hint={
          locked
            ? undefined
            : isCapturing(status)
              ? 'Changes are kept as you type, until the consult is sent.'
              : 'Both can be changed while recording, until the consult is sent.'
        }
      >
        {(control) => (
          <input
            {...control}
            type="text"
            value={description}
            maxLength={MAX_DESCRIPTION}
            readOnly={locked}
            onChange={(e) => {
              if (!locked) setDescription(e.target.value);
            }}
            onKeyDown={(e) => {
              if (waiting && e.key === 'Enter') {
                e.preventDefault();
                void sendWaitingName();
              }
            }}
            placeholder="e.g. Vomiting 2 days"
            autoComplete="off"
          />
        )}
      </FormField>
      {detailsError && (
        <p className="notice notice-warning" role="alert">
          {detailsError}
        </p>
      )}
    </fieldset>
  );
}
