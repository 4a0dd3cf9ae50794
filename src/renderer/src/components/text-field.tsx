// A form's line of text: a FormField whose control is a plain <input>, the common case, so a
// form says only what is particular to its field (its type, its value, its limit). An e-mail
// or web address gets the keyboard for it and no spelling marks unless the form says
// otherwise. A field with a single button on the same line (Settings' one-field forms) takes
// it as `beside`.
import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { FormField, type FormFieldProps } from './form-field.tsx';

type InputAttributes = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'children'>;

export interface TextFieldProps extends Omit<FormFieldProps, 'children'>, InputAttributes {
  value: string;
  /** What the vet typed; a field without it only shows its value (read-only). */
  onValue?(value: string): void;
  inputRef?: Ref<HTMLInputElement>;
  /** On the same line as the input, after it: the form's one button. */
  beside?: ReactNode;
  /** The classes of that line; `row` unless told. */
  rowClassName?: string;
}

/** Parts a field's props into the FormField's and the rest, the control's (also for SelectField). */
export function fieldAndControl<P extends Omit<FormFieldProps, 'children'>>({
  id,
  label,
  labelClassName,
  hint,
  error,
  announce,
  ...control
}: P) {
  return { field: { id, label, labelClassName, hint, error, announce }, control };
}

export function TextField(props: TextFieldProps) {
  const { field, control: own } = fieldAndControl(props);
  const { value, onValue, inputRef, beside, rowClassName = 'row', ...input } = own;
  const address: InputAttributes =
    input.type === 'email'
      ? { inputMode: 'email', spellCheck: false }
      : input.type === 'url'
        ? { inputMode: 'url', spellCheck: false }
        : {};
  return (
    <FormField {...field}>
      {(control) => {
        const field = (
          <input
            {...address}
            {...input}
            {...control}
            ref={inputRef}
            value={value}
            onChange={onValue && ((e) => onValue(e.target.value))}
          />
        );
        return beside ? (
          <div className={rowClassName}>
            {field}
            {beside}
          </div>
        ) : (
          field
        );
      }}
    </FormField>
  );
}
