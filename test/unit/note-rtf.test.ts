// rtf_output read as text: what a practice-management system or Word writes, and what a hostile
// or broken document holds.
import { describe, expect, it } from 'vitest';
import { rtfParagraphs, rtfToSections } from '../../src/shared/note/index.ts';

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
