// A settings form's first check before it calls main: the problems its own check found are shown
// next to their fields, and the first field (in the form's order) with a problem takes the focus,
// so the vet lands where the fix is; only a form with none goes on to main. The PIMS sign-in and
// the webhook registration check their fields this one way.
import { useRef, useState, type Ref } from 'react';

/** A field's problem, in words, by field; a field without one is absent. */
export type FieldProblems<K extends string> = Partial<Record<K, string>>;

export interface CheckedForm<K extends string> {
  problems: FieldProblems<K>;
  /** The ref to give field `key`'s input, so a problem can move the focus to it. */
  inputRef(key: K): Ref<HTMLInputElement>;
  /** Shows `found` and focuses the first field with a problem; true when there is none. */
  passes(found: FieldProblems<K>): boolean;
}

/** `fields` are the form's fields in the order they are shown. */
export function useCheckedForm<K extends string>(fields: readonly K[]): CheckedForm<K> {
  const [problems, setProblems] = useState<FieldProblems<K>>({});
  const inputs = useRef<Partial<Record<K, HTMLInputElement | null>>>({});
  return {
    problems,
    inputRef: (key) => (input) => {
      inputs.current[key] = input;
    },
    passes(found) {
      setProblems(found);
      const first = fields.find((key) => found[key]);
      if (first === undefined) return true;
      inputs.current[first]?.focus();
      return false;
    },
  };
}
