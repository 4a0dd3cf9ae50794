// The note's editor: one box per section under its heading, so the vet edits the words and the
// headings stay headings (no Markdown to keep intact). A note without headings is one box.
import { useId } from 'react';
import { bodyShown, joinSections, splitSections, withBody } from './note-sections.ts';

export function SectionEditor({
  text,
  onChange,
  disabled,
  labelledBy,
}: {
  text: string;
  onChange(text: string): void;
  disabled: boolean;
  labelledBy: string;
}) {
  const ids = useId();
  const sections = splitSections(text);
  const last = sections.length - 1;
  const change = (i: number, shown: string) =>
    onChange(joinSections(sections.map((s, j) => (j === i ? withBody(s, shown, j === last) : s))));
  // The text before the first heading gets a box only when there is some, or no heading at all.
  const shown = sections
    .map((s, i) => ({ s, i }))
    .filter(({ s, i }) => i > 0 || bodyShown(s) !== '' || sections.length === 1);
  return (
    <div className="note-sections" role="group" aria-labelledby={labelledBy}>
      {shown.map(({ s, i }) => {
        const id = `${ids}-${i}`;
        const label = s.heading || (sections.length === 1 ? 'Note' : 'Before the first heading');
        return (
          <div key={i} className="note-section-edit">
            <label htmlFor={id} className={s.heading ? 'note-section-heading' : undefined}>
              {label}
            </label>
            <textarea
              id={id}
              value={bodyShown(s)}
              onChange={(e) => change(i, e.target.value)}
              spellCheck
              disabled={disabled}
              rows={Math.min(12, Math.max(3, bodyShown(s).split('\n').length + 1))}
            />
          </div>
        );
      })}
    </div>
  );
}
