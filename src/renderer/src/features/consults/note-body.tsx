// The note rendered as elements: its top heading level one below the page's own heading, so
// a note of `## ` sections reads as sections of the page, whatever level the service used.
import { Fragment } from 'react';
import { parseNote } from './note-format.ts';

const TAGS = ['h2', 'h3', 'h4'] as const;

export function NoteBody({ text }: { text: string }) {
  const blocks = parseNote(text);
  const top = Math.min(3, ...blocks.map((b) => (b.kind === 'heading' ? b.level : 3)));
  return (
    <div className="note-body">
      {blocks.map((block, i) => {
        if (block.kind === 'heading') {
          const Tag = TAGS[Math.min(TAGS.length - 1, block.level - top)]!;
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
