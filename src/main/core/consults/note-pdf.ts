// A printable PDF of the note (export), with pdf-lib: A4, the patient and date on top, bold
// headings, wrapped paragraphs, page numbers. Its standard fonts (no font file to ship) cover
// Windows-1252 only, so other characters are replaced by a readable stand-in, never thrown on.
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { noteTitle, type NoteMeta, type NoteSection } from '../../../shared/note/index.ts';

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const BODY_SIZE = 11;
const HEADING_SIZE = 13;
const TITLE_SIZE = 16;
const LEADING = 1.35;

// Stand-ins for characters a vet's note often holds that Windows-1252 lacks.
// Greek mu (μg) has the micro sign (µg) in Windows-1252, which reads the same.
const STAND_INS: Record<string, string> = {
  μ: 'µ',
  '≤': '<=',
  '≥': '>=',
  '→': '->',
  '←': '<-',
  '−': '-',
  '✓': 'v',
  '\u2009': ' ',
  '\u202f': ' ',
};

// Characters that show nothing (zero-width joiners and spaces, emoji variation selectors, soft
// hyphens, direction marks) and control characters: left out rather than drawn as '?'.
const INVISIBLE = /^[\p{Default_Ignorable_Code_Point}\p{Cc}]$/u;

/** Text the standard fonts can draw: known stand-ins, else '?' for each character they cannot. */
export function pdfSafe(text: string, font: PDFFont): string {
  const supported = new Set(font.getCharacterSet());
  let out = '';
  for (const ch of text.replace(/\r\n?/g, '\n').normalize('NFC')) {
    // Line breaks are not in the font's set but are kept for `wrap` to break at.
    if (ch === '\n') out += ch;
    else if (ch === '\t') out += '    ';
    else if (INVISIBLE.test(ch)) continue;
    else if (supported.has(ch.codePointAt(0)!)) out += ch;
    else if (STAND_INS[ch] !== undefined && [...STAND_INS[ch]!].every((c) => supported.has(c.codePointAt(0)!)))
      out += STAND_INS[ch];
    else {
      // An accented letter the font lacks keeps its base letter.
      const base = ch.normalize('NFD').replace(/\p{M}/gu, '');
      out += base !== ch && [...base].every((c) => supported.has(c.codePointAt(0)!)) ? base : '?';
    }
  }
  return out;
}

/**
 * Lines no wider than `width`. Widths are summed per character (cached), so a paragraph costs
 * time in proportion to its length even when one word (a long link) must be cut.
 */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const widths = new Map<string, number>();
  const widthOf = (ch: string) => {
    let w = widths.get(ch);
    if (w === undefined) {
      w = font.widthOfTextAtSize(ch, size);
      widths.set(ch, w);
    }
    return w;
  };
  const space = widthOf(' ');
  const lines: string[] = [];
  for (const raw of text.split('\n')) {
    let line = '';
    let lineWidth = 0;
    for (const word of raw.split(' ')) {
      if (word === '') continue;
      const wordWidth = [...word].reduce((sum, ch) => sum + widthOf(ch), 0);
      if (line !== '' && lineWidth + space + wordWidth <= width) {
        line += ` ${word}`;
        lineWidth += space + wordWidth;
        continue;
      }
      if (line !== '') lines.push(line);
      if (wordWidth <= width) {
        line = word;
        lineWidth = wordWidth;
        continue;
      }
      // A word wider than the line is cut where it must be.
      line = '';
      lineWidth = 0;
      for (const ch of word) {
        const w = widthOf(ch);
        if (line !== '' && lineWidth + w > width) {
          lines.push(line);
          line = '';
          lineWidth = 0;
        }
        line += ch;
        lineWidth += w;
      }
    }
    lines.push(line);
  }
  return lines;
}

export async function notePdf(sections: readonly NoteSection[], meta: NoteMeta): Promise<Uint8Array> {
  // No creation or modification time: a note holds no clock time, and the same note exports as
  // the same bytes whenever it is exported.
  const doc = await PDFDocument.create({ updateMetadata: false });
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const title = noteTitle(meta) || 'Consult note';
  // The document's title is Unicode text, so the patient's name is kept there as written.
  doc.setTitle(title);
  doc.setCreator('Vet Scribe');
  doc.setProducer('Vet Scribe');
  const width = A4[0] - 2 * MARGIN;
  const bottom = MARGIN + 20;
  let page: PDFPage = doc.addPage(A4);
  let y = A4[1] - MARGIN;

  const newPage = () => {
    page = doc.addPage(A4);
    y = A4[1] - MARGIN;
  };
  const draw = (text: string, font: PDFFont, size: number, spaceBefore = 0) => {
    const lines = wrap(pdfSafe(text, font), font, size, width);
    y -= spaceBefore;
    for (const line of lines) {
      if (y - size * LEADING < bottom) newPage();
      y -= size * LEADING;
      page.drawText(line, { x: MARGIN, y, size, font });
    }
  };

  draw(title, bold, TITLE_SIZE);
  for (const s of sections) {
    const heading = s.heading.trim();
    if (heading) {
      // A heading is not left alone at the foot of a page: it goes over with its first line.
      if (y - 12 - HEADING_SIZE * LEADING - 4 - BODY_SIZE * LEADING < bottom) newPage();
      draw(heading, bold, HEADING_SIZE, 12);
    }
    const paragraphs = s.text.split(/\n[ \t]*\n+/).filter((p) => p.trim() !== '');
    for (const [i, p] of paragraphs.entries()) draw(p.trim(), regular, BODY_SIZE, i === 0 ? 4 : 6);
  }

  const pages = doc.getPages();
  for (const [i, p] of pages.entries()) {
    const label = `${pdfSafe(title, regular)}: page ${i + 1} of ${pages.length}`;
    p.drawText(label, { x: MARGIN, y: MARGIN - 24, size: 8, font: regular });
  }
  return doc.save();
}
