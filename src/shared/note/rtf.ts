// RTF (the service's `rtf_output`) read as text in sections. Written by hand: the RTF readers on
// npm either draw into a browser DOM (rtf.js), build a whole document tree and have not been
// released in years (rtf-parser, @iarna/rtf-to-html), or, though kept up to date, are Node
// stream transforms made to unwrap the HTML or text Outlook wraps in RTF (`\fromhtml`), not to
// read a document's own text (rtf-stream-parser). This module must be pure (the window and main
// both use it) and only needs the text, its paragraphs and which of them are headings. One pass
// over the input, so a 5 MB document costs no more than reading it.
// Longer than a module here should be: the groups, destinations, hidden text, footnotes and
// table cells are all states of that one pass over one group stack, and each control word may
// change several of them; split over files, every token would hand the whole state across.
import type { NoteSection } from './types.ts';

// Destinations whose content is never text a vet should see: tables of fonts and colours,
// styles, document info, pictures, embedded objects, a field's instruction (a link's target,
// possibly `javascript:`), footnote separators, the copy of a nested table written for readers
// without nested tables (`\nonesttables`), and the rest of Word's internals.
const SKIPPED = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'info',
  'pict',
  'object',
  'objdata',
  'objclass',
  'objname',
  'themedata',
  'colorschememapping',
  'datastore',
  'latentstyles',
  'fldinst',
  'header',
  'headerl',
  'headerr',
  'headerf',
  'footer',
  'footerl',
  'footerr',
  'footerf',
  'ftnsep',
  'ftnsepc',
  'ftncn',
  'aftnsep',
  'aftnsepc',
  'aftncn',
  'nonesttables',
  'xmlnstbl',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'generator',
  'filetbl',
  'revtbl',
  'bkmkstart',
  'bkmkend',
  'shppict',
  'nonshppict',
  'shp',
  'shpinst',
  'sp',
]);

// Windows-1252's 0x80-0x9F differ from Latin-1; everything else maps straight to Unicode.
const CP1252: Record<number, number> = {
  0x80: 0x20ac,
  0x82: 0x201a,
  0x83: 0x0192,
  0x84: 0x201e,
  0x85: 0x2026,
  0x86: 0x2020,
  0x87: 0x2021,
  0x88: 0x02c6,
  0x89: 0x2030,
  0x8a: 0x0160,
  0x8b: 0x2039,
  0x8c: 0x0152,
  0x8e: 0x017d,
  0x91: 0x2018,
  0x92: 0x2019,
  0x93: 0x201c,
  0x94: 0x201d,
  0x95: 0x2022,
  0x96: 0x2013,
  0x97: 0x2014,
  0x98: 0x02dc,
  0x99: 0x2122,
  0x9a: 0x0161,
  0x9b: 0x203a,
  0x9c: 0x0153,
  0x9e: 0x017e,
  0x9f: 0x0178,
};

interface GroupState {
  skip: boolean;
  bold: boolean;
  /** Hidden text (\v): read, never shown. */
  hidden: boolean;
  /** Inside a footnote: its text goes to the note, not the paragraph. */
  note: boolean;
  /** Inside `{\*\nesttableprops …}`, whose \nestrow still ends a nested table's row. */
  nestProps: boolean;
  /** \ucN: how many fallback characters follow a \uN. */
  uc: number;
  /** The paragraph's style (\sN) and outline level (\outlinelevelN, -1 for none). */
  style: number;
  outline: number;
}

interface Paragraph {
  text: string;
  /** The footnotes marked in this paragraph, each as `[n] text`, in order. */
  notes?: string[];
  /** Every visible character of the paragraph was bold. */
  allBold: boolean;
  /** Written in a heading style ("heading 1", "Title") or with an outline level. */
  styled: boolean;
}

/** Style names Word and practice-management systems give their headings (a name may list aliases). */
function isHeadingStyleName(name: string): boolean {
  return name.split(',').some((alias) => /^\s*(heading\s*\d|title|subtitle)\s*$/i.test(alias));
}

// Word nests a few dozen groups at most; past this, groups are counted rather than stacked.
const MAX_DEPTH = 256;

function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * The paragraphs of an RTF document, with whether each is wholly bold. Never throws.
 *
 * Read as word processors show it: hidden text (\v) is left out; a footnote is marked `[n]` where
 * it stands and its text kept with its paragraph as `[n] text` (the sections put these at their
 * end); the cells of a nested table are separated like any table's, and the copy a document keeps
 * for readers without nested tables is left out.
 */
export function rtfParagraphs(rtf: string): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  // A wire answer is typed by hope: anything but text reads as no paragraphs.
  if (typeof rtf !== 'string') return paragraphs;
  let parts: string[] = [];
  let anyText = false;
  let allBold = true;
  let state: GroupState = {
    skip: false,
    bold: false,
    hidden: false,
    note: false,
    nestProps: false,
    uc: 1,
    style: 0,
    outline: -1,
  };
  /** Footnotes seen so far (their number), the open one's text, and those not yet given a paragraph. */
  let noteCount = 0;
  let noteParts: string[] = [];
  let pendingNotes: string[] = [];
  const stack: GroupState[] = [];
  // The stylesheet is not text, but its entries' names say which \sN are headings.
  const headingStyles = new Set<number>();
  let stylesheetDepth = -1;
  let entry: { style: number; paragraphStyle: boolean; name: string[] } | null = null;
  /** Fallback characters still to drop after a \uN. */
  let dropFallback = 0;
  let i = 0;
  const n = rtf.length;
  /** Groups opened past MAX_DEPTH and not yet closed. */
  let overflow = 0;

  const emit = (s: string) => {
    if (overflow > 0) return;
    if (dropFallback > 0) {
      // The fallback of a \uN is counted in characters (a \'hh counts as one), hidden or not.
      const dropped = Math.min(dropFallback, s.length);
      dropFallback -= dropped;
      s = s.slice(dropped);
    }
    if (state.skip) {
      if (entry && stack.length === stylesheetDepth + 1) entry.name.push(s);
      return;
    }
    if (s === '' || state.hidden) return;
    if (state.note) {
      noteParts.push(s);
      return;
    }
    parts.push(s);
    if (s.trim() !== '') {
      anyText = true;
      if (!state.bold) allBold = false;
    }
  };
  const pushParagraph = () => {
    const text = parts.join('');
    // Runs of empty paragraphs read as one blank line anyway; keeping one bounds the memory.
    if (text === '' && pendingNotes.length === 0 && paragraphs.at(-1)?.text === '') return;
    paragraphs.push({
      text,
      allBold: anyText && allBold,
      styled: headingStyles.has(state.style) || (state.outline >= 0 && state.outline <= 8),
      ...(pendingNotes.length > 0 ? { notes: pendingNotes } : {}),
    });
    parts = [];
    pendingNotes = [];
    anyText = false;
    allBold = true;
  };
  /** `force`: a nested table's row ends even though its properties are not text. */
  const endParagraph = (force = false) => {
    if ((state.skip && !force) || overflow > 0) return;
    // A footnote's own paragraphs run on as one line.
    if (state.note) noteParts.push(' ');
    else pushParagraph();
  };
  const endNote = () => {
    const text = noteParts.join('').replace(/\s+/g, ' ').trim();
    pendingNotes.push(text === '' ? `[${noteCount}]` : `[${noteCount}] ${text}`);
    noteParts = [];
  };

  while (i < n) {
    const c = rtf.charCodeAt(i);
    if (c === 123 /* { */) {
      i += 1;
      if (stack.length >= MAX_DEPTH) {
        // Deeper groups are counted, not stacked, and their content dropped: Word never nests
        // this deep, and a document of nested braces then costs no memory.
        overflow += 1;
        continue;
      }
      stack.push(state);
      state = { ...state };
      if (stylesheetDepth >= 0 && stack.length === stylesheetDepth + 1)
        entry = { style: 0, paragraphStyle: true, name: [] };
      // `{\*\dest …}`: a destination this reader may not know; skipped whole.
      if (rtf.startsWith('\\*', i)) state.skip = true;
      continue;
    }
    if (c === 125 /* } */) {
      if (overflow > 0) {
        overflow -= 1;
        i += 1;
        continue;
      }
      if (entry && stack.length === stylesheetDepth + 1) {
        const name = entry.name.join('').replace(/;\s*$/, '');
        if (entry.paragraphStyle && isHeadingStyleName(name)) headingStyles.add(entry.style);
        entry = null;
      } else if (stack.length === stylesheetDepth) stylesheetDepth = -1;
      if (state.note && stack.length > 0 && !stack[stack.length - 1]!.note) endNote();
      // An unbalanced closing brace is ignored rather than ending the document.
      state = stack.pop() ?? state;
      dropFallback = 0;
      i += 1;
      continue;
    }
    if (c === 13 || c === 10) {
      // Bare line breaks in RTF source are not text.
      i += 1;
      continue;
    }
    if (c !== 92 /* \ */) {
      let j = i + 1;
      while (j < n) {
        const d = rtf.charCodeAt(j);
        if (d === 92 || d === 123 || d === 125 || d === 13 || d === 10) break;
        j += 1;
      }
      emit(rtf.slice(i, j));
      i = j;
      continue;
    }
    // A control word or symbol.
    const next = rtf.charCodeAt(i + 1);
    if (Number.isNaN(next)) break;
    if (!isLetter(next)) {
      i += 2;
      if (next === 92 || next === 123 || next === 125) emit(String.fromCharCode(next));
      else if (next === 39 /* ' */) {
        const hex = rtf.slice(i, i + 2);
        i += 2;
        const code = /^[0-9a-fA-F]{2}$/.test(hex) ? parseInt(hex, 16) : NaN;
        if (!Number.isNaN(code)) emit(String.fromCharCode(CP1252[code] ?? code));
      } else if (next === 126 /* ~ */) emit('\u00a0');
      else if (next === 95 /* _ */) emit('\u2011');
      else if (next === 13 || next === 10) endParagraph();
      // \* was handled at the brace; \- (optional hyphen) and others print nothing.
      continue;
    }
    let j = i + 1;
    while (j < n && j - i <= 32 && isLetter(rtf.charCodeAt(j))) j += 1;
    const word = rtf.slice(i + 1, j);
    let k = j;
    if (rtf.charCodeAt(k) === 45 /* - */ && isDigit(rtf.charCodeAt(k + 1))) k += 1;
    while (k < n && k - j <= 10 && isDigit(rtf.charCodeAt(k))) k += 1;
    const param = k > j ? Number(rtf.slice(j, k)) : null;
    if (rtf.charCodeAt(k) === 32) k += 1;
    i = k;

    if (word === 'bin') {
      // Raw bytes (a picture, an object) that may hold anything, braces included.
      i = Math.min(n, i + Math.max(0, param ?? 0));
      continue;
    }
    if (overflow > 0) continue;
    if (word === 'footnote') {
      // `{\footnote …}` or `{\*\footnote …}` where its mark stands: shown as `[n]` here, its text
      // with the paragraph. The reference mark (\chftn) prints nothing of itself, so a footnote
      // is numbered even when its mark is a symbol of the author's.
      const parent = stack[stack.length - 1];
      if (parent && !parent.skip && !parent.note && !state.hidden && !state.note) {
        noteCount += 1;
        parts.push(`[${noteCount}]`);
        noteParts = [];
        state.skip = false;
        state.note = true;
      } else state.skip = true;
      continue;
    }
    if (word === 'nesttableprops') {
      const parent = stack[stack.length - 1];
      state.nestProps = parent !== undefined && !parent.skip;
      state.skip = true;
      continue;
    }
    if (SKIPPED.has(word)) {
      if (word === 'stylesheet' && !state.skip) stylesheetDepth = stack.length;
      state.skip = true;
      continue;
    }
    if (entry) {
      if (word === 's') entry.style = param ?? 0;
      else if (word === 'cs' || word === 'ds' || word === 'ts') entry.paragraphStyle = false;
      continue;
    }
    switch (word) {
      case 'par':
      case 'sect':
      case 'page':
        // A hidden paragraph mark joins its paragraph to the next, as Word shows it.
        if (!state.hidden) endParagraph();
        break;
      case 'line':
        emit('\n');
        break;
      case 'tab':
        emit('\t');
        break;
      case 'cell':
      case 'nestcell':
        emit('\t');
        break;
      case 'row':
        endParagraph();
        break;
      case 'nestrow':
        if (!state.skip || state.nestProps) endParagraph(true);
        break;
      case 'v':
        state.hidden = param !== 0;
        break;
      case 'emdash':
        emit('\u2014');
        break;
      case 'endash':
        emit('\u2013');
        break;
      case 'bullet':
        emit('\u2022');
        break;
      case 'lquote':
        emit('\u2018');
        break;
      case 'rquote':
        emit('\u2019');
        break;
      case 'ldblquote':
        emit('\u201c');
        break;
      case 'rdblquote':
        emit('\u201d');
        break;
      case 'b':
        state.bold = param !== 0;
        break;
      case 's':
        state.style = param ?? 0;
        break;
      case 'outlinelevel':
        state.outline = param ?? -1;
        break;
      case 'pard':
        state.style = 0;
        state.outline = -1;
        break;
      case 'plain':
        state.bold = false;
        state.hidden = false;
        break;
      case 'uc':
        state.uc = param !== null && param >= 0 && param <= 10 ? param : 1;
        break;
      case 'u': {
        if (param === null) break;
        const code = param < 0 ? param + 65536 : param;
        dropFallback = 0;
        emit(
          code >= 0xd800 && code <= 0xdfff
            ? String.fromCharCode(code)
            : String.fromCodePoint(Math.max(0, Math.min(code, 0x10ffff))),
        );
        dropFallback = state.uc;
        break;
      }
      default:
        break;
    }
  }
  // A cut-off document: an open footnote is kept, and the last paragraph with it.
  if (state.note) endNote();
  if (parts.length > 0 || pendingNotes.length > 0) pushParagraph();
  // A lone surrogate half (a broken \u pair) would upset a PDF or a clipboard: replace it.
  return paragraphs.map((p) => ({
    ...p,
    text: p.text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'),
  }));
}

const HEADING_MAX = 80;

/**
 * The note's sections: a paragraph that is wholly bold, in a heading style, or a short line
 * ending in ':' starts a section; the paragraphs after it are its text, then, after a blank line,
 * the footnotes marked in the section, one `[n] text` line each.
 */
export function rtfToSections(rtf: string): NoteSection[] {
  const sections: NoteSection[] = [];
  let current: NoteSection = { heading: '', text: '' };
  const lines: string[] = [];
  const notes: string[] = [];
  const flush = () => {
    const body = lines
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
    current.text = notes.length > 0 ? [body, notes.join('\n')].filter((t) => t !== '').join('\n\n') : body;
    if (current.heading !== '' || current.text !== '') sections.push(current);
    lines.length = 0;
    notes.length = 0;
  };
  for (const p of rtfParagraphs(rtf)) {
    // Line by line rather than one /[ \t]+$/gm, which backtracks over a long run of spaces.
    const text = p.text
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n')
      .trim();
    const colon = /^[^\n:]{1,78}:$/.test(text);
    if (text !== '' && text.length <= HEADING_MAX && !text.includes('\n') && (p.allBold || p.styled || colon)) {
      flush();
      current = { heading: colon ? text.slice(0, -1).trim() : text, text: '' };
      if (p.notes) notes.push(...p.notes);
      continue;
    }
    lines.push(text);
    if (p.notes) notes.push(...p.notes);
  }
  flush();
  return sections;
}
