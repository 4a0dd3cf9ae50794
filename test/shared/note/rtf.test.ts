// rtf_output read as text: what a practice-management system or Word writes, and what a hostile
// or broken document holds.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rtfParagraphs, rtfToSections } from '../../../src/shared/note/index.ts';

/** A real document from test/fixtures/rtf (its README says who wrote each and where it is from). */
const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../../fixtures/rtf', name), 'latin1');

const WORD_LIKE = String.raw`{\rtf1\ansi\ansicpg1252\deff0\nouicompat{\fonttbl{\f0\fnil\fcharset0 Calibri;}{\f1\fnil Symbol;}}
{\colortbl ;\red255\green0\blue0;}
{\*\generator Riched20 10.0.19041}{\info{\author Dr Vet}{\title Secret title}}\viewkind4\uc1
\pard\sa200\sl276\slmult1\b\f0\fs28 Subjective\b0\par
Bella is a 7 y FS Labrador, vomiting since yesterday. Owner says caf\'e9 food was eaten\emdash the bin.\par
{\pict\wmetafile8\picw100\pich100 0100090000036e00000000}
\b Objective:\b0\par
T 38.9\'b0C\tab HR 96\line weight 32 kg \u8212? recheck.\par
{\field{\*\fldinst HYPERLINK "javascript:alert(1)"}{\fldrslt click here}}\par
\b Plan\b0\par
Maropitant 1\~mg/kg SC.\par
}`;

describe('rtfToSections', () => {
  it('reads a Word-like document into its sections, tables and internals left out', () => {
    expect(rtfToSections(WORD_LIKE)).toEqual([
      {
        heading: 'Subjective',
        text: 'Bella is a 7 y FS Labrador, vomiting since yesterday. Owner says café food was eaten—the bin.',
      },
      { heading: 'Objective', text: 'T 38.9°C\tHR 96\nweight 32 kg — recheck.\nclick here' },
      { heading: 'Plan', text: 'Maropitant 1\u00a0mg/kg SC.' },
    ]);
    const all = JSON.stringify(rtfToSections(WORD_LIKE));
    expect(all).not.toMatch(/Calibri|Riched|Secret title|javascript|0100090000|red255/);
  });

  it('keeps only the visible text of hostile content: objects, field instructions, unknown destinations', () => {
    const hostile = String.raw`{\rtf1{\object\objemb{\*\objclass Package}{\*\objdata 01050000020000000b000000}}{\*\unknowndest <script>x</script>}Safe {\field{\*\fldinst HYPERLINK "javascript:alert(document.cookie)"}{\fldrslt link}} text\par}`;
    expect(rtfToSections(hostile)).toEqual([{ heading: '', text: 'Safe link text' }]);
  });

  it('survives unbalanced braces, a cut-off document, and escaped braces and backslashes', () => {
    expect(rtfToSections(String.raw`{\rtf1 a }} b {{ c\par`)).toEqual([{ heading: '', text: 'a  b  c' }]);
    expect(rtfToSections(String.raw`{\rtf1 x\'`)).toEqual([{ heading: '', text: 'x' }]);
    expect(rtfToSections(String.raw`{\rtf1 \{dose\} 1\\2\par}`)).toEqual([{ heading: '', text: '{dose} 1\\2' }]);
    expect(rtfToSections('')).toEqual([]);
    expect(rtfToSections('not rtf at all')).toEqual([{ heading: '', text: 'not rtf at all' }]);
  });

  it('starts a section at a paragraph in a heading style or with an outline level, not at other styles', () => {
    const styled = String.raw`{\rtf1\ansi{\stylesheet{\ql Normal;}{\s1\ql\b0{\*\keycode \shift n}heading 1;}{\s2 Body Text;}{\*\cs3 \additive Strong;}{\s4\sbasedon1 Title;}}
\pard\plain\s4 Bella\par
\pard\plain\s1 History\par
\pard\plain\s2 Seen for vomiting.\par
\pard\plain\s3 Not a heading\par
\pard\outlinelevel1 Plan\par
\pard Recheck in 48 h.\par}`;
    expect(rtfToSections(styled)).toEqual([
      { heading: 'Bella', text: '' },
      { heading: 'History', text: 'Seen for vomiting.\nNot a heading' },
      { heading: 'Plan', text: 'Recheck in 48 h.' },
    ]);
    expect(JSON.stringify(rtfToSections(styled))).not.toMatch(/Normal|Body Text|Strong|keycode/);
  });

  it('skips \\bin data whatever bytes it holds, and long runs of spaces cost no backtracking', () => {
    expect(rtfToSections(String.raw`{\rtf1 before {\pict\bin6 }{}\x{}after\par}`)).toEqual([
      { heading: '', text: 'before after' },
    ]);
    const spaces = ' '.repeat(1_000_000);
    expect(rtfToSections(String.raw`{\rtf1 a${spaces}b${spaces}\line c\par}`)).toEqual([
      { heading: '', text: `a${spaces}b\nc` },
    ]);
  });

  it('drops groups nested past any real document, and keeps the text around them', () => {
    const deep = `{\\rtf1 before ${'{\\b '.repeat(300)}hidden${'}'.repeat(300)} after\\par}`;
    expect(rtfToSections(deep)).toEqual([{ heading: '', text: 'before  after' }]);
    const bomb = `{\\rtf1 start ${'{'.repeat(2_000_000)}x${'}'.repeat(2_000_000)} end\\par}`;
    expect(rtfToSections(bomb)).toEqual([{ heading: '', text: 'start  end' }]);
  });

  it('reads a run of empty paragraphs as one blank line', () => {
    expect(rtfToSections(`{\\rtf1 a\\par${'\\par '.repeat(500_000)}b\\par}`)).toEqual([
      { heading: '', text: 'a\n\nb' },
    ]);
    expect(rtfParagraphs(`{\\rtf1 a\\par${'\\par '.repeat(500_000)}b\\par}`)).toHaveLength(3);
  });

  it('reads \\u with its fallback skipped, \\ucN, and a pair for characters beyond the basic plane', () => {
    expect(rtfParagraphs(String.raw`{\rtf1\uc2 \u956?? g\uc1 \u-10179?\u-9195? ok}`)[0]?.text).toBe('μ g🐕 ok');
  });

  it('reads a 5 MB document whole', () => {
    const para = String.raw`{\pard Temperature 38.9\'b0C, heart rate 96, \b weight\b0  32 kg.\par}`;
    const rtf = `{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}\n{\\pard\\b Findings\\par}\n${para.repeat(Math.ceil(5_000_000 / para.length))}}`;
    expect(rtf.length).toBeGreaterThan(5_000_000);
    const sections = rtfToSections(rtf);
    expect(sections).toHaveLength(1);
    expect(sections[0]!.heading).toBe('Findings');
    expect(sections[0]!.text.split('\n')).toHaveLength(Math.ceil(5_000_000 / para.length));
    expect(sections[0]!.text.startsWith('Temperature 38.9°C, heart rate 96, weight 32 kg.')).toBe(true);
  });
});

describe('rtfToSections, read as word processors show it', () => {
  it('leaves hidden text out: \\v to \\v0 or \\plain, hidden line and paragraph marks included', () => {
    const rtf = String.raw`{\rtf1\ansi
\pard\b Plan\b0\par
Meloxicam 0.1 mg/kg PO.{\v  Internal: code 4471.}\v  Billing note.\v0  Recheck in 48 h.\par
Owner informed.\v  Staff only\line more\par\plain  Next visit.\par
\v\u956?\v0 g ok\par}`;
    expect(rtfToSections(rtf)).toEqual([
      { heading: 'Plan', text: 'Meloxicam 0.1 mg/kg PO. Recheck in 48 h.\nOwner informed. Next visit.\ng ok' },
    ]);
    expect(JSON.stringify(rtfToSections(rtf))).not.toMatch(/4471|Billing|Staff|more|μ/);
  });

  it('marks each footnote [n] where it stands and lists it at the end of its section', () => {
    // As Word writes them: the mark (\chftn) in the text, the note's own mark inside it.
    const rtf = String.raw`{\rtf1\ansi{\*\ftnsep \pard\plain\chftnsep\par}
\pard\b Subjective\b0\par
Vomiting since yesterday.{\super\chftn}{\footnote \pard\plain {\super\chftn} Owner's words,\par not confirmed.}  Ate from the bin.\par
Drinking more.{\super\chftn}{\*\footnote \pard\plain{\super\chftn}Since Monday.}\par
\b Plan\b0\par
Maropitant 1 mg/kg SC.{\super\chftn}{\footnote \pard\plain{\super\chftn} Check the dose.}\par
{\v Hidden{\footnote Not shown.}}Recheck.\par}`;
    expect(rtfToSections(rtf)).toEqual([
      {
        heading: 'Subjective',
        text: "Vomiting since yesterday.[1]  Ate from the bin.\nDrinking more.[2]\n\n[1] Owner's words, not confirmed.\n[2] Since Monday.",
      },
      { heading: 'Plan', text: 'Maropitant 1 mg/kg SC.[3]\nRecheck.\n\n[3] Check the dose.' },
    ]);
    // A heading with a footnote stays a heading, and a document cut off inside a note keeps it.
    expect(rtfToSections(String.raw`{\rtf1\b Plan{\footnote Per protocol.}\b0\par Rest.\par}`)).toEqual([
      { heading: 'Plan[1]', text: 'Rest.\n\n[1] Per protocol.' },
    ]);
    expect(rtfToSections(String.raw`{\rtf1 Rest.{\footnote Per prot`)).toEqual([
      { heading: '', text: 'Rest.[1]\n\n[1] Per prot' },
    ]);
  });

  it("separates a nested table's cells and rows, without the copy for readers that have no nested tables", () => {
    // As Word writes a nested table: its row properties in \nesttableprops, then the \nonesttables copy.
    const word = String.raw`{\rtf1\ansi\pard\b Objective\b0\par
\trowd\cellx4000\cellx8000\pard\intbl Vitals\par
\pard\intbl\itap2 T\nestcell 38.9\'b0C\nestcell{\*\nesttableprops\trowd\cellx2000\cellx4000\nestrow}{\nonesttables\par T 38.9\par}
\pard\intbl\itap2 HR\nestcell 96\nestcell{\*\nesttableprops\trowd\cellx2000\cellx4000\nestrow}{\nonesttables\par HR 96\par}
\pard\intbl\itap1\cell Weight 32 kg\cell\row\pard Calm.\par}`;
    expect(rtfToSections(word)).toEqual([
      { heading: 'Objective', text: 'Vitals\nT\t38.9°C\nHR\t96\nWeight 32 kg\nCalm.' },
    ]);
    // As TextEdit writes one (hand-written in its form): \itap2 rows ending in \nestrow, no copy.
    const textEdit = String.raw`{\rtf1\ansi\ansicpg1252\cocoartf2822
\cocoatextscaling0\cocoaplatform0{\fonttbl\f0\fswiss\fcharset0 Helvetica;}
\itap1\trowd \taflags1 \trgaph108\trleft-108 \clvertalc \clshdrawnil \clwWidth4000\clftsWidth3 \gaph\cellx4320
\clvertalc \clshdrawnil \clwWidth4000\clftsWidth3 \gaph\cellx8640
\pard\intbl\itap1\pardeftab720\partightenfactor0

\f0\fs24 \cf0 Vitals\
\itap2\trowd \taflags1 \trgaph108\trleft-108 \clvertalc \clshdrawnil \gaph\cellx2160
\clvertalc \clshdrawnil \gaph\cellx4320
\pard\intbl\itap2\pardeftab720\partightenfactor0
\cf0 T\nestcell
\pard\intbl\itap2\pardeftab720\partightenfactor0
\cf0 38.9\nestcell \lastrow\nestrow
\pard\intbl\itap1\pardeftab720\partightenfactor0
\cf0 \cell
\pard\intbl\itap1\pardeftab720\partightenfactor0
\cf0 Weight 32 kg\cell \lastrow\row
}`;
    expect(rtfToSections(textEdit)).toEqual([{ heading: '', text: 'Vitals\nT\t38.9\nWeight 32 kg' }]);
  });
  it('reads 5 MB of footnotes, hidden text and nested tables whole, each note once', () => {
    const row = String.raw`\pard\intbl\itap2 T\nestcell 38.9{\v  hidden}\nestcell{\*\nesttableprops\trowd\cellx1\cellx2\nestrow}{\nonesttables\par T 38.9\par}`;
    const para = String.raw`\pard Dose{\super\chftn}{\footnote\pard\plain{\super\chftn} Check.}\par ${row}`;
    const count = Math.ceil(5_000_000 / para.length);
    const sections = rtfToSections(`{\\rtf1\\ansi\\pard\\b Plan\\b0\\par ${para.repeat(count)}}`);
    expect(sections).toHaveLength(1);
    const lines = sections[0]!.text.split('\n');
    expect(lines.slice(0, 2)).toEqual(['Dose[1]', 'T\t38.9']);
    expect(lines.filter((l) => l.startsWith('T\t38.9'))).toHaveLength(count);
    expect(lines.filter((l) => /^\[\d+\] Check\.$/.test(l))).toHaveLength(count);
    expect(lines.at(-1)).toBe(`[${count}] Check.`);
    expect(sections[0]!.text).not.toMatch(/hidden|T 38\.9/);
  });
});

describe('rtfToSections on real documents', () => {
  it('Word: hidden line breaks before the text are left out', () => {
    const rtf = fixture('word-hidden-line-breaks.rtf');
    expect(rtfParagraphs(rtf).map((p) => p.text)).toEqual(['Lorem ipsum dolor sit amet ']);
    expect(rtfToSections(rtf)).toEqual([{ heading: '', text: 'Lorem ipsum dolor sit amet' }]);
  });

  it('LibreOffice: footnotes at the end of their section, hidden text left out, a nested table in its cells', () => {
    expect(rtfToSections(fixture('libreoffice-footnotes-hidden-nested-table.rtf'))).toEqual([
      {
        heading: 'Subjective',
        text: "Bella, 7 y FS Labrador, vomiting since yesterday.[1] Ate from the bin.\n\n[1] Owner's words, not confirmed.",
      },
      // LibreOffice writes the outer cell's end after the nested rows, so its text follows them.
      { heading: 'Objective', text: 'Vitals\nT\t38.9 °C\nHR\t96\nWeight 32 kg' },
      {
        heading: 'Plan',
        text: 'Maropitant 1 mg/kg SC.[2] Recheck in 48 h.\n\n[2] Check the dose before giving.',
      },
    ]);
  });

  it('TextEdit: its paragraphs, with the styling left behind', () => {
    expect(rtfToSections(fixture('textedit-text-styles.rtf'))).toEqual([
      {
        heading: '',
        text: [
          'Some bold text. Some italic text.',
          'Single Underlined. Double Underlined. Red Underlined',
          'Single Strikethrough. Double Strikethrough. Red Strikethrough',
          'Red Double Strikethrough Underline',
          'Purple text.',
        ].join('\n'),
      },
    ]);
  });
});
