// A form's line of text: a FormField whose control is a plain <input>, the common case, so a
// form says only what is particular to its field (its type, its value, its limit). A field
// with a single button on the same line (Settings' one-field forms) takes it as `beside`.
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

export function TextField({
  id,
  label,
  labelClassName,
  hint,
  error,
  announce,
  value,
  onValue,
  inputRef,
  beside,
  rowClassName = 'row',
  ...input
}: TextFieldProps) {
  return (
    <FormField id={id} label={label} labelClassName={labelClassName} hint={hint} error={error} announce={announce}>
      {(control) => {
        const field = (
          <input
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
