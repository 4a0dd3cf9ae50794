// The note's readers and writers on the shapes the service's members may take and the names a
// patient may have: what the main cases in note-formats and note-rtf do not show.
import { describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { notePdf, pdfSafe } from '../../../src/main/core/consults/note-pdf.ts';
import {
  noteFileBase,
  rtfToSections,
  sectionsFromCategories,
  sectionsFromText,
  sectionsToText,
} from '../../../src/shared/note/index.ts';

describe('sectionsFromCategories, members half filled', () => {
  it('takes the first text-like member that holds text', () => {
    expect(
      sectionsFromCategories([
        { category: 'Plan', content: null, summary: 'Recheck in 48 h.' },
        { title: 'Assessment', text: '   ', details: ['Gastritis'] },
      ]),
    ).toEqual([
      { heading: 'Plan', text: 'Recheck in 48 h.' },
      { heading: 'Assessment', text: 'Gastritis' },
    ]);
  });

  it('reads text with an empty heading as text, not as "Content: …"', () => {
    expect(
      sectionsFromCategories([
        { category: '', content: 'Owner declined bloods.' },
        { title: null, text: 'Weighed 32 kg.' },
      ]),
    ).toEqual([
      { heading: '', text: 'Owner declined bloods.' },
      { heading: '', text: 'Weighed 32 kg.' },
    ]);
  });

  it('gives a heading one line, so the stored form reads back the same sections', () => {
    const sections = sectionsFromCategories([
      { category: 'Physical\nexam ', content: 'BCS 6/9.' },
      { category: 'Plan', content: 'Diet.' },
    ]);
    expect(sections).toEqual([
      { heading: 'Physical exam', text: 'BCS 6/9.' },
      { heading: 'Plan', text: 'Diet.' },
    ]);
    expect(sectionsFromText(sectionsToText(sections))).toEqual(sections);
  });
});

describe('rtfToSections on what is not a document', () => {
  it('reads anything but text as no sections', () => {
    for (const odd of [null, undefined, 5, {}, ['{\\rtf1 x}']])
      expect(rtfToSections(odd as unknown as string)).toEqual([]);
  });
});

describe('noteFileBase and the names Windows keeps for devices', () => {
  it('refuses them with an extension too, where the part before the first dot decides', () => {
    expect(noteFileBase({ patientName: 'nul.txt', date: null })).toBe('Patient nul.txt note');
    expect(noteFileBase({ patientName: 'COM1.Bella', date: '2026-11-25' })).toBe('Patient COM1.Bella 2026-11-25 note');
    expect(noteFileBase({ patientName: 'Lpt\u00b9', date: null })).toBe('Patient Lpt\u00b9 note');
    expect(noteFileBase({ patientName: 'Connie', date: null })).toBe('Connie note');
    expect(noteFileBase({ patientName: 'Aux Dog', date: null })).toBe('Aux Dog note');
    expect(noteFileBase({ patientName: 'Com10', date: null })).toBe('Com10 note');
  });
});

describe('pdfSafe and characters that show nothing', () => {
  it('leaves out joiners, variation selectors, zero-width spaces and controls instead of drawing ?', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    expect(pdfSafe('Love \u2764\ufe0f, family \u{1f468}\u200d\u{1f469}\u200d\u{1f467}', font)).toBe(
      'Love ?, family ???',
    );
    expect(pdfSafe('dex\u00admedetomidine\u200b 5\u00a0mg\u0000\u000b.', font)).toBe('dexmedetomidine 5\u00a0mg.');
    expect(pdfSafe('\u200fHR\u200e 96\ufeff', font)).toBe('HR 96');
  });

  it('a note made only of such characters still exports', async () => {
    const bytes = await notePdf([{ heading: '\u200d', text: '\ufe0f\u0007' }], {
      patientName: 'Bella',
      date: '2026-11-25',
    });
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(1);
  });
});
