// The patient a consult is about, and the visit's description: shown, and changed until the
// consult is sent. The service writes the note for that name (and leaves out talk about other
// pets), so once it has them the engine refuses a change and its words are shown here; the
// consult can then still be renamed in this computer's list (its list name).
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { ConsultInfo } from '../../../../shared/ipc.ts';
import { api, ApiCallError } from '../../api.ts';
import { useConsults } from '../../stores/consults.ts';
import { needsPatientName } from '../../lib/consult-status.ts';
import { patientNameProblem, PATIENT_NAME_HINT } from '../../lib/patient-name.ts';
import { MAX_DESCRIPTION, MAX_LABEL, MAX_PATIENT_NAME } from '../../../../shared/limits.ts';
import { TextField, type TextFieldProps } from '../../components/text-field.tsx';

/** Whether the consult may still be sent under other details (the engine has the last word). */
export function detailsEditable({ job }: ConsultInfo): boolean {
  return job === null || job.state === 'recorded' || job.state === 'failed';
}

export function PatientDetails({ consult, compact = false }: { consult: ConsultInfo; compact?: boolean }) {
  const { recording } = consult;
  const missing = needsPatientName(consult);
  const [editing, setEditing] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const editable = detailsEditable(consult) || missing;
  // Once sent, the service has the note under the patient's name: what changes is the name this
  // computer lists the consult under, and the service's record keeps its own.
  const renamable = !editable && consult.job !== null;

  if (renaming) return <RenameForm consult={consult} onDone={() => setRenaming(false)} />;
  if (editing) {
    return (
      <PatientForm
        consult={consult}
        onDone={(message) => {
          setEditing(false);
          setRefusal(message);
        }}
      />
    );
  }
  return (
    <div className={`patient-details${compact ? ' patient-details-compact' : ''}`}>
      {!compact && (
        <dl className="patient-facts">
          {recording.listName && (
            <div>
              <dt>Listed as</dt>
              <dd>{recording.listName}</dd>
            </div>
          )}
          <div>
            <dt>Patient</dt>
            <dd>{recording.patientName?.trim() || <span className="muted">No patient name</span>}</dd>
          </div>
          {recording.description?.trim() && (
            <div>
              <dt>Visit</dt>
              <dd>{recording.description}</dd>
            </div>
          )}
        </dl>
      )}
      {missing && (
        <p className="field-hint">
          This consult was recorded without the patient&apos;s name. Add it and the consult goes on to the service.{' '}
          {PATIENT_NAME_HINT}
        </p>
      )}
      {editable && consult.changeRefused ? (
        // A colleague's unsent consult: who may change it, said before any click.
        <p className="field-hint">{consult.changeRefused}</p>
      ) : editable ? (
        <button type="button" className={missing ? 'primary' : undefined} onClick={() => setEditing(true)}>
          {missing ? "Add the patient's name" : 'Change patient details'}
        </button>
      ) : null}
      {renamable && (
        <button type="button" onClick={() => setRenaming(true)}>
          Rename
        </button>
      )}
      {refusal && (
        <p className="notice notice-warning" role="alert">
          {refusal}
        </p>
      )}
    </div>
  );
}

function PatientForm({ consult, onDone }: { consult: ConsultInfo; onDone(refusal: string | null): void }) {
  const { recording } = consult;
  const ids = useId();
  const { name, setProblem, busy, setBusy, nameRef, nameField } = useNameField(recording.patientName ?? '', false);
  const [description, setDescription] = useState(recording.description ?? '');

  async function save(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const blank = patientNameProblem(name);
    setProblem(blank);
    if (blank) {
      nameRef.current?.focus();
      return;
    }
    setBusy(true);
    try {
      useConsults.getState().answered(
        await api.consults.update({
          id: recording.id,
          patientName: name.trim(),
          description: description.trim() || null,
        }),
      );
      onDone(null);
    } catch (err) {
      const message = (err as Error).message;
      // The engine refuses once the consult is sent: the form closes on the details it kept.
      if (err instanceof ApiCallError && err.code === 'conflict') onDone(message);
      else {
        setProblem(`The patient details were not saved: ${message}`);
        setBusy(false);
      }
    }
  }

  return (
    <DetailsForm
      label="Patient details"
      busy={busy}
      saveLabel="Save patient details"
      onSave={save}
      onCancel={() => onDone(null)}
    >
      <TextField
        id={`${ids}-name`}
        label="Patient's name"
        hint={PATIENT_NAME_HINT}
        {...nameField}
        maxLength={MAX_PATIENT_NAME}
        aria-required="true"
      />
      <TextField
        id={`${ids}-description`}
        label="Visit description (optional)"
        type="text"
        value={description}
        maxLength={MAX_DESCRIPTION}
        autoComplete="off"
        onValue={setDescription}
        readOnly={busy}
      />
    </DetailsForm>
  );
}

/** The name the consult is listed under on this computer, once it is sent; blank goes back to the patient's. */
export function RenameForm({ consult, onDone }: { consult: ConsultInfo; onDone(): void }) {
  const { recording } = consult;
  const ids = useId();
  const { name, setProblem, busy, setBusy, nameRef, nameField } = useNameField(recording.listName ?? '', true);

  async function save(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      useConsults.getState().answered(await api.consults.update({ id: recording.id, listName: name.trim() || null }));
      onDone();
    } catch (err) {
      setProblem(`The name was not saved: ${(err as Error).message}`);
      setBusy(false);
      nameRef.current?.focus();
    }
  }

  return (
    <DetailsForm label="Rename the consult" busy={busy} saveLabel="Save name" onSave={save} onCancel={onDone}>
      <TextField
        id={`${ids}-label`}
        label="Name in the consults list"
        hint={
          <>
            Kept on this computer only: the service has the note under{' '}
            {recording.patientName?.trim() || 'the name it was sent with'}. Leave it empty to list the consult under the
            patient again.
          </>
        }
        {...nameField}
        maxLength={MAX_LABEL}
      />
    </DetailsForm>
  );
}

/**
 * The name each form opens on, with the cursor in it (the name selected, to be retyped, where
 * `select`): its value, what is wrong with it (gone as soon as the vet types), whether the form
 * is saving, and the props of its field.
 */
function useNameField(initial: string, select: boolean) {
  const [name, setName] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  // As the form opens (`select` is fixed for each form).
  useEffect(() => {
    nameRef.current?.focus();
    if (select) nameRef.current?.select();
  }, [select]);
  const nameField = {
    error: problem,
    announce: true,
    inputRef: nameRef,
    type: 'text',
    value: name,
    autoComplete: 'off',
    readOnly: busy,
    onValue(typed: string) {
      setName(typed);
      setProblem(null);
    },
  } satisfies Partial<TextFieldProps>;
  return { name, problem, setProblem, busy, setBusy, nameRef, nameField };
}

/** The frame both forms share: named for screen readers, busy while saving, Save and Cancel. */
function DetailsForm({
  label,
  busy,
  saveLabel,
  onSave,
  onCancel,
  children,
}: {
  label: string;
  busy: boolean;
  saveLabel: string;
  onSave(e: FormEvent): void;
  onCancel(): void;
  children: ReactNode;
}) {
  return (
    <form className="patient-form" onSubmit={onSave} noValidate aria-busy={busy} aria-label={label}>
      {children}
      <div className="row">
        <button type="submit" className="primary" aria-disabled={busy}>
          {busy ? 'Saving…' : saveLabel}
        </button>
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
