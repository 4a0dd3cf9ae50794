// A form's choice from a list: a FormField whose control is a <select>, its options given as
// values and the words shown for them, so a form says only what it offers and what a choice does.
import type { SelectHTMLAttributes } from 'react';
import { FormField, type FormFieldProps } from './form-field.tsx';
import { fieldAndControl } from './text-field.tsx';

type SelectAttributes = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'value' | 'onChange' | 'children'>;

export interface SelectFieldProps extends Omit<FormFieldProps, 'children'>, SelectAttributes {
  value: string;
  options: readonly { value: string; label: string }[];
  onValue(value: string): void;
}

export function SelectField(props: SelectFieldProps) {
  const { field, control } = fieldAndControl(props);
  const { value, options, onValue, ...select } = control;
  return (
    <FormField {...field}>
      {(control) => (
        <select {...select} {...control} value={value} onChange={(e) => onValue(e.target.value)}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}
