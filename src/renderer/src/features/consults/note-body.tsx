// The note rendered as elements: its `#` headings one level below the page's own heading.
import { Fragment } from 'react';
import { parseNote } from './note-format.ts';

export function NoteBody({ text }: { text: string }) {
  return (
    <div className="note-body">
      {parseNote(text).map((block, i) => {
        if (block.kind === 'heading') {
          const Tag = (['h2', 'h3', 'h4'] as const)[block.level - 1]!;
          return <Tag key={i}>{block.text}</Tag>;
        }
        if (block.kind === 'list') {
          return (
            <ul key={i}>
              {block.items.map((item, j) => (
                <li key={j}>{item}</li>
              ))}
            </ul>
          );
        }
        return (
          <p key={i}>
            {block.lines.map((line, j) => (
              <Fragment key={j}>
                {j > 0 && <br />}
                {line}
              </Fragment>
            ))}
          </p>
        );
      })}
    </div>
  );
}
