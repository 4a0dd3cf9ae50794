// The note rendered as elements: its top heading level one below the page's own heading, so
// a note of `## ` sections reads as sections of the page, whatever level the service used.
// Doses, weights, temperatures, rates and drug names are marked as a reading aid (figures.ts),
// and a dose the note's own weight disagrees with is marked apart, saying what is wrong.
import { Fragment, type ReactNode } from 'react';
import { doseMismatches, findFigures, statedWeightKg, type FigureKind } from '../../../../shared/note/figures.ts';
import { parseNote } from './note-format.ts';

const FIGURE_WORDS: Record<FigureKind, string> = {
  dose: 'dose',
  weight: 'weight',
  temperature: 'temperature',
  rate: 'rate',
  drug: 'drug name',
};

/** A line with its figures marked; the text itself is unchanged (no markup from the note). */
function marked(line: string, kg: number | null): ReactNode {
  const figures = findFigures(line);
  if (figures.length === 0) return line;
  const wrong = doseMismatches(line, kg);
  const parts: ReactNode[] = [];
  let at = 0;
  for (const f of figures) {
    if (f.start > at) parts.push(line.slice(at, f.start));
    const mismatch = wrong.find((w) => w.start === f.start);
    parts.push(
      mismatch ? (
        <mark key={f.start} className={`figure figure-${f.kind} figure-mismatch`} title={`${mismatch.says}: check it`}>
          {f.text}
        </mark>
      ) : (
        <mark key={f.start} className={`figure figure-${f.kind}`} title={`A ${FIGURE_WORDS[f.kind]}: check it`}>
          {f.text}
        </mark>
      ),
    );
    at = f.end;
  }
  if (at < line.length) parts.push(line.slice(at));
  return parts;
}

const TAGS = ['h2', 'h3', 'h4'] as const;

export function NoteBody({ text, figures = false }: { text: string; figures?: boolean }) {
  const blocks = parseNote(text);
  // The weight is stated once, usually in the examination, and checks the doses of every section.
  const kg = figures ? statedWeightKg(text) : null;
  const show = (line: string) => (figures ? marked(line, kg) : line);
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
                <li key={j}>{show(item)}</li>
              ))}
            </ul>
          );
        }
        return (
          <p key={i}>
            {block.lines.map((line, j) => (
              <Fragment key={j}>
                {j > 0 && <br />}
                {show(line)}
              </Fragment>
            ))}
          </p>
        );
      })}
    </div>
  );
}
