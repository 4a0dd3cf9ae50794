// One address of the clinic's IT, set in Settings (the update feed, the clinic relay): the field with
// its hint and Save beside it, what went wrong under it, and what saving did below.
import { useId, type FormEvent } from 'react';
import { TextField } from '../../components/text-field.tsx';

export function AddressForm(props: {
  label: string;
  hint: string;
  placeholder: string;
  value: string;
  onValue: (value: string) => void;
  onSave: (e: FormEvent) => void;
  pending: boolean;
  /** Why the last save failed, in words; shown after `notChanged`. */
  error: string | null;
  /** "The relay address was not changed.": what a failed save left as it was. */
  notChanged: string;
  saved: string | null;
}) {
  const id = useId();
  return (
    <>
      <form onSubmit={props.onSave}>
        <TextField
          id={`${id}-url`}
          label={props.label}
          labelClassName="visually-hidden"
          hint={props.hint}
          error={props.error && `${props.notChanged} ${props.error}`}
          announce
          type="url"
          placeholder={props.placeholder}
          value={props.value}
          onValue={props.onValue}
          rowClassName="settings-inline row"
          beside={
            <button type="submit" disabled={props.pending}>
              Save
            </button>
          }
        />
      </form>
      <p className="settings-ok" role="status">
        {props.saved}
      </p>
    </>
  );
}
