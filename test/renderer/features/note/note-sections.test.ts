// The note split into its sections for the editor, and joined back exactly.
import { describe, expect, it } from 'vitest';
import {
  bodyShown,
  joinSections,
  splitSections,
  withBody,
} from '../../../../src/renderer/src/features/note/note-sections.ts';

const NOTES = [
  '## Subjective\nBella vomited.\n\n## Plan\nBland diet.\nRecheck.',
  'Text before any heading\n\n# Title\nx\n## Next\n\ny\n',
  '',
  'no headings at all',
  '## Only a heading',
  '## A\n## B\n',
];

describe('note sections', () => {
  it.each(NOTES)('splits %j into sections and joins them back byte for byte', (text) => {
    const sections = splitSections(text);
    expect(joinSections(sections)).toBe(text);
    // A box left as it was changes nothing either.
    expect(joinSections(sections.map((s, i) => withBody(s, bodyShown(s), i === sections.length - 1)))).toBe(text);
  });

  it('keeps headings as headings and each section its own text', () => {
    const sections = splitSections('Preface\n\n## Subjective\nBella vomited.\n\n### Plan\nBland diet.');
    expect(sections.map((s) => [s.headingLine.trim(), s.heading, bodyShown(s)])).toEqual([
      ['', '', 'Preface'],
      ['## Subjective', 'Subjective', 'Bella vomited.'],
      ['### Plan', 'Plan', 'Bland diet.'],
    ]);
  });

  it('puts an edit back in its section, the next heading still on its own line', () => {
    const sections = splitSections('## A\n## B\n## C');
    const edited = sections.map((s, i) =>
      s.heading === 'A'
        ? withBody(s, 'typed under A', false)
        : s.heading === 'C'
          ? withBody(s, 'typed under C', i === sections.length - 1)
          : s,
    );
    expect(joinSections(edited)).toBe('## A\ntyped under A\n## B\n## C\ntyped under C');
  });
});

describe('a note of 200 KB', () => {
  it('splits into its sections and joins back exactly, and its figures are all found', async () => {
    const { findFigures } = await import('../../../../src/shared/note/figures.ts');
    const section = (i: number) =>
      `## Section ${i}\nWeight ${i}.5 kg, T 38.${i % 10} °C. Meloxicam 0.1 mg/kg PO once daily.\n\n`;
    let text = '';
    for (let i = 0; text.length < 200_000; i++) text += section(i);
    const sections = splitSections(text);
    expect(joinSections(sections)).toBe(text);
    expect(sections.length - 1).toBe(text.match(/^## /gm)?.length);
    const figures = findFigures(text);
    // Per section: a weight, a temperature, a drug name and a dose.
    expect(figures).toHaveLength((sections.length - 1) * 4);
  });
});
