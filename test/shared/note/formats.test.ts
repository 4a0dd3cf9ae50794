// The note as the service sends it (categories_output, rtf_output) and as the app stores,
// copies and exports it.
import { describe, expect, it } from 'vitest';
import { PDFArray, PDFDocument, PDFRawStream, decodePDFRawStream, type PDFPage } from 'pdf-lib';
import {
  noteFileBase,
  rtfToSections,
  sectionsFromCategories,
  sectionsFromText,
  sectionsToHtml,
  sectionsToPlainText,
  sectionsToRtf,
  sectionsToText,
  type NoteSection,
} from '../../../src/shared/note/index.ts';
import { notePdf, pdfSafe } from '../../../src/main/core/consults/note-pdf.ts';

const meta = { patientName: 'Bella', date: '2026-11-25' };
const soap: NoteSection[] = [
  { heading: 'Subjective', text: 'Bella, 7 y FS Labrador, vomiting twice since yesterday.\nEating less.' },
  { heading: 'Objective', text: 'T 38.9 °C, HR 96, weight 32 kg.\n\nAbdomen soft, mild discomfort cranially.' },
  { heading: 'Plan', text: 'Maropitant 1 mg/kg SC once. Recheck in 48 h.' },
];

describe('sectionsFromCategories', () => {
  it('reads the published {category, content} and other heading/text spellings', () => {
    expect(
      sectionsFromCategories([
        { category: 'Subjective', content: 'Vomiting.' },
        { Title: 'Objective', Text: 'T 38.9' },
        { heading: 'Assessment', body: ['Gastritis', 'Foreign body less likely'] },
        { name: 'Plan', value: { medication: 'Maropitant', recheck_in: '48 h' } },
        { section: 'Empty', content: '   ' },
      ]),
    ).toEqual([
      { heading: 'Subjective', text: 'Vomiting.' },
      { heading: 'Objective', text: 'T 38.9' },
      { heading: 'Assessment', text: 'Gastritis\nForeign body less likely' },
      { heading: 'Plan', text: 'Medication: Maropitant\nRecheck in: 48 h' },
    ]);
  });

  it('without a heading/text pair, every member as label and value; a lone member is a heading', () => {
    expect(sectionsFromCategories([{ heart_rate: 96, temperature_c: 38.9, mucous_membranes: 'pink' }])).toEqual([
      { heading: '', text: 'Heart rate: 96\nTemperature c: 38.9\nMucous membranes: pink' },
    ]);
    expect(sectionsFromCategories([{ physical_exam: 'Unremarkable' }])).toEqual([
      { heading: 'Physical exam', text: 'Unremarkable' },
    ]);
    expect(sectionsFromCategories([{ category: 'Vitals', HR: 96, RR: 24 }])).toEqual([
      { heading: 'Vitals', text: 'HR: 96\nRR: 24' },
    ]);
  });

  it('reads other spellings of the member names, lists of items, and one object of sections', () => {
    expect(
      sectionsFromCategories([
        { Category_Name: 'History', 'Section Content': 'Vomiting twice.' },
        { 'section-title': 'Problems', items: ['Vomiting', { problem: 'Inappetence', since: '2 days' }] },
        { 'History of Present Illness': 'Began yesterday.' },
        { order: 4, CATEGORY: 'Plan', Response: 'Recheck.' },
      ]),
    ).toEqual([
      { heading: 'History', text: 'Vomiting twice.' },
      { heading: 'Problems', text: 'Vomiting\nProblem: Inappetence\nSince: 2 days' },
      { heading: 'History of Present Illness', text: 'Began yesterday.' },
      { heading: 'Plan', text: 'Recheck.' },
    ]);
    expect(sectionsFromCategories({ subjective: 'Vomiting.', plan_notes: ['Bland diet', 'Recheck'] })).toEqual([
      { heading: 'Subjective', text: 'Vomiting.' },
      { heading: 'Plan notes', text: 'Bland diet\nRecheck' },
    ]);
  });

  it('never throws on odd input', () => {
    expect(
      sectionsFromCategories([
        null,
        3,
        'loose text',
        [],
        { category: { nested: true }, content: null },
        {},
      ] as unknown[]),
    ).toEqual([
      { heading: '', text: '3' },
      { heading: '', text: 'loose text' },
      { heading: '', text: 'Category: Nested: true' },
    ]);
    expect(sectionsFromCategories('not a list' as unknown as unknown[])).toEqual([]);
  });
});

describe('the stored text form', () => {
  it('round-trips sections exactly', () => {
    expect(sectionsFromText(sectionsToText(soap))).toEqual(soap);
    expect(sectionsToText(soap)).toMatch(/^## Subjective\n\nBella/);
  });

  it('reads a heading line with a long run of spaces whole (no backtracking)', () => {
    const line = `# a${' '.repeat(200_000)}b ##`;
    expect(sectionsFromText(`${line}\ntext`)).toEqual([{ heading: `a${' '.repeat(200_000)}b`, text: 'text' }]);
  });

  it('reads text without headings as one section, and # or ### headings', () => {
    expect(sectionsFromText('Just a note.\nTwo lines.')).toEqual([{ heading: '', text: 'Just a note.\nTwo lines.' }]);
    expect(sectionsFromText('Intro\n# A\nx\n### B\ny')).toEqual([
      { heading: '', text: 'Intro' },
      { heading: 'A', text: 'x' },
      { heading: 'B', text: 'y' },
    ]);
  });
});

describe('copied and exported forms', () => {
  it('plain text: the patient and date first, headings as plain lines, no markup', () => {
    const text = sectionsToPlainText(soap, meta);
    expect(text.startsWith('Bella \u2014 25 November 2026\n\nSubjective\nBella, 7 y FS')).toBe(true);
    expect(text).toContain('Objective\nT 38.9 °C, HR 96, weight 32 kg.\n\nAbdomen soft');
    expect(text).not.toMatch(/^#|====|<|\.webm|UTC|audio\//m);
  });

  it('a date is a calendar day, whatever the time zone', () => {
    expect(sectionsToPlainText([], { patientName: null, date: '2026-01-01' })).toBe('1 January 2026\n');
    expect(sectionsToPlainText([], { patientName: ' Max ', date: null })).toBe('Max\n');
  });

  it('HTML: headings and paragraphs, every text escaped', () => {
    const html = sectionsToHtml(
      [{ heading: '<script>alert(1)</script>', text: 'a & b\n<img src=x onerror=alert(1)>\n\n"quoted"' }],
      { patientName: "O'Neil", date: '2026-11-25' },
    );
    expect(html).toBe(
      '<h1>O&#39;Neil \u2014 25 November 2026</h1>\n<h2>&lt;script&gt;alert(1)&lt;/script&gt;</h2>\n<p>a &amp; b<br>&lt;img src=x onerror=alert(1)&gt;</p>\n<p>&quot;quoted&quot;</p>',
    );
  });

  it('RTF: a document that reads back as the same sections, any Unicode kept', () => {
    const sections: NoteSection[] = [
      { heading: 'Assessment', text: 'Gastritis — likely {dietary} \\ indiscretion.\nμg dose: 5 µg/kg; 体重 32 kg 🐕' },
      { heading: 'Plan', text: 'Bland diet.' },
    ];
    const rtf = sectionsToRtf(sections, meta);
    expect(rtf.startsWith('{\\rtf1')).toBe(true);
    expect([...rtf].every((c) => c.charCodeAt(0) < 0x80)).toBe(true);
    expect(rtfToSections(rtf)).toEqual([{ heading: 'Bella \u2014 25 November 2026', text: '' }, ...sections]);
  });

  it('file names: the patient and the date, nothing a file system refuses', () => {
    expect(noteFileBase(meta)).toBe('Bella 2026-11-25 note');
    expect(noteFileBase({ patientName: 'Mr. Whiskers / "Tiger" <2>?', date: '2026-11-25' })).toBe(
      'Mr. Whiskers Tiger 2 2026-11-25 note',
    );
    expect(noteFileBase({ patientName: null, date: '2026-11-25' })).toBe('Consult note 2026-11-25');
    expect(noteFileBase({ patientName: '...', date: null })).toBe('Consult note');
    expect(noteFileBase({ patientName: 'CON', date: null })).toBe('Patient CON note');
    expect(noteFileBase({ patientName: 'Rex\u202egpj.exe', date: null })).toBe('Rexgpj.exe note');
    expect(noteFileBase({ patientName: 'x'.repeat(300), date: null }).length).toBeLessThanOrEqual(70);
  });
});

/** The text a page draws: pdf-lib writes each line as `<hex> Tj` in Windows-1252. */
function pageLines(page: PDFPage): string[] {
  const contents = page.node.Contents();
  const streams =
    contents instanceof PDFArray ? contents.asArray().map((ref) => page.doc.context.lookup(ref)) : [contents];
  const decoder = new TextDecoder('windows-1252');
  const lines: string[] = [];
  for (const stream of streams) {
    if (!(stream instanceof PDFRawStream)) continue;
    const ops = Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
    for (const m of ops.matchAll(/<([0-9A-Fa-f]*)> Tj/g)) lines.push(decoder.decode(Buffer.from(m[1]!, 'hex')));
  }
  return lines;
}

describe('notePdf', () => {
  it('is a PDF that opens, titled with the patient, longer notes on more pages', async () => {
    const short = await PDFDocument.load(await notePdf(soap, meta), { updateMetadata: false });
    expect(short.getPageCount()).toBe(1);
    expect(short.getTitle()).toBe('Bella \u2014 25 November 2026');
    const long = Array.from({ length: 40 }, (_, i) => ({
      heading: `Section ${i + 1}`,
      text: 'Lorem ipsum dolor sit amet. '.repeat(30),
    }));
    const longDoc = await PDFDocument.load(await notePdf(long, meta));
    expect(longDoc.getPageCount()).toBeGreaterThan(3);
    // The same note exports as the same bytes, whenever it is exported.
    const first = await notePdf(soap, meta);
    await new Promise((r) => setTimeout(r, 1100));
    expect(Buffer.from(await notePdf(soap, meta)).equals(Buffer.from(first))).toBe(true);
    expect(short.getCreationDate()).toBeUndefined();
    expect(short.getModificationDate()).toBeUndefined();
  });

  it('draws the title, the headings and each line of the text, and numbers its pages', async () => {
    const doc = await PDFDocument.load(await notePdf(soap, meta));
    const lines = pageLines(doc.getPage(0));
    expect(lines.slice(0, 4)).toEqual([
      'Bella \u2014 25 November 2026',
      'Subjective',
      'Bella, 7 y FS Labrador, vomiting twice since yesterday.',
      'Eating less.',
    ]);
    expect(lines).toContain('T 38.9 °C, HR 96, weight 32 kg.');
    expect(lines).toContain('Plan');
    expect(lines.at(-1)).toBe('Bella \u2014 25 November 2026: page 1 of 1');
    expect(lines.join('\n')).not.toContain('?');
  });

  it('wraps long paragraphs and cuts a word wider than the page', async () => {
    const word = 'x'.repeat(200_000);
    const doc = await PDFDocument.load(
      await notePdf([{ heading: 'Link', text: `see ${word} end` }], { patientName: null, date: null }),
    );
    expect(doc.getTitle()).toBe('Consult note');
    expect(doc.getPageCount()).toBeGreaterThan(5);
    const lines = doc.getPages().flatMap((page) => pageLines(page).slice(0, -1));
    expect(lines[0]).toBe('Consult note');
    expect(lines.at(-1)).toMatch(/^x+ end$/);
    expect(lines.join('').replace(/[^x]/g, '')).toHaveLength(200_000);
    expect(lines.every((line) => line.length < 150)).toBe(true);
  });

  it('draws characters its fonts lack as stand-ins instead of failing', async () => {
    const bytes = await notePdf([{ heading: 'Dose 🐕', text: '5 μg/kg, 体重 32 kg, ≥ 2 h, Zoë' }], {
      patientName: 'Ζωή',
      date: '2026-11-25',
    });
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toBe('Ζωή \u2014 25 November 2026');
    expect(pageLines(doc.getPage(0)).slice(0, 3)).toEqual([
      '??? \u2014 25 November 2026',
      'Dose ?',
      '5 µg/kg, ?? 32 kg, >= 2 h, Zoë',
    ]);
    const font = await doc.embedFont('Helvetica');
    expect(pdfSafe('5 μg/kg ≥ 2 h Zoë 🐕', font)).toBe('5 µg/kg >= 2 h Zoë ?');
  });
});
