// One field of a form: its label, the control, a hint under it and the sentence that says what
// is wrong with it, tied together for screen readers (the control is described by the hint and
// the error, and marked invalid while there is one). Every form of the window builds its
// fields with it, so they read, look and announce alike.
import type { ReactNode } from 'react';

/** What the field gives its control: spread it onto the <input>, <select> or <textarea>. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

export interface FormFieldProps {
  /** The control's id; the hint and the error take it with `-hint` and `-error` added. */
  id: string;
  label: ReactNode;
  /** For a label only screen readers need, where the form's heading already says it (`visually-hidden`). */
  labelClassName?: string;
  /** Shown under the control, always. */
  hint?: ReactNode;
  /** What is wrong with the value; nothing while it is fine. */
  error?: ReactNode;
  /** Announce the error as soon as it appears (role="alert"), for errors found on submit. */
  announce?: boolean;
  children(control: FieldControlProps): ReactNode;
}

export function FormField({ id, label, labelClassName, hint, error, announce = false, children }: FormFieldProps) {
  const hintId = hint ? `${id}-hint` : null;
  const errorId = error ? `${id}-error` : null;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <>
      <label htmlFor={id} className={labelClassName}>
        {label}
      </label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <p id={hintId ?? undefined} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId ?? undefined} className="field-error" role={announce ? 'alert' : undefined}>
          {error}
        </p>
      )}
    </>
  );
}
