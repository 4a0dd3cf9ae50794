// The note in sections, read from what the service sends (`categories_output`, `rtf_output`)
// and written out as the app stores it, shows it, copies it (text, HTML, RTF) and names its
// files. Pure: the window and main both use it.
import { historyAndExaminationSections } from './history-and-examination.ts';
import type { NoteMeta, NoteSection } from './types.ts';

export type { NoteMeta, NoteSection } from './types.ts';
export { rtfParagraphs, rtfToSections } from './rtf.ts';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// The members of a category object are not published (docs/service.md): these are the names a
// heading or a text goes by in the APIs that write such lists, compared without case, `_`, `-`
// or spaces (`Category_Name` is `categoryname`), in this order of preference.
const HEADING_NAMES = [
  'category',
  'title',
  'heading',
  'name',
  'section',
  'label',
  'key',
  'header',
  'categoryname',
  'sectionname',
  'sectiontitle',
  'categorytitle',
];
const TEXT_NAMES = [
  'content',
  'text',
  'body',
  'value',
  'output',
  'summary',
  'description',
  'details',
  'notes',
  'note',
  'items',
  'lines',
  'points',
  'answer',
  'response',
  'result',
  'sectioncontent',
  'categorycontent',
];

/** `physical_exam` -> "Physical exam"; `heartRate` -> "Heart rate"; "History of Present Illness" as is. */
export function readableLabel(name: string): string {
  const spaced = name.replace(/\s+/g, ' ').trim();
  // A name already written as words is a heading someone chose: only its spacing is tidied.
  if (spaced.includes(' ') && !spaced.includes('_')) return spaced[0]!.toUpperCase() + spaced.slice(1);
  const words = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (words === '') return '';
  // Acronyms (ECG, SOAP) stay; other words lose their capitals after the first.
  const out = words
    .split(' ')
    .map((w) => (w.length > 1 && w === w.toUpperCase() && w.length <= 5 ? w : w.toLowerCase()))
    .join(' ');
  return out[0]!.toUpperCase() + out.slice(1);
}

/** A member's value as lines of text: text as is, lists one item per line, objects "Label: value". */
function valueText(value: unknown, depth = 0): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (depth > 4) return '';
  if (Array.isArray(value)) {
    return value
      .map((v) => valueText(v, depth + 1))
      .filter((line) => line !== '')
      .join('\n');
  }
  if (isRecord(value)) {
    return Object.entries(value)
      .map(([k, v]) => {
        const text = valueText(v, depth + 1);
        return text === '' ? '' : `${readableLabel(k)}: ${text}`;
      })
      .filter((line) => line !== '')
      .join('\n');
  }
  return '';
}

/**
 * The first member going by one of `names`; with `filled`, the first whose value reads as text
 * (`{category, content: null, summary: "…"}` keeps the summary), else the first at all.
 */
function member(
  record: Record<string, unknown>,
  names: readonly string[],
  filled = false,
): [string, unknown] | undefined {
  const entries = Object.entries(record);
  const plain = entries.map(([k]) => k.toLowerCase().replace(/[\s_-]+/g, ''));
  let first: [string, unknown] | undefined;
  for (const name of names) {
    const at = plain.indexOf(name);
    if (at < 0) continue;
    if (!filled || valueText(entries[at]![1]) !== '') return entries[at];
    first ??= entries[at];
  }
  return first;
}

/**
 * `categories_output`: per object, a heading-like member and a text-like member; without
 * such a pair, every member as "Label: value". Empty sections are dropped; odd values never throw.
 */
export function sectionsFromCategories(categories: readonly unknown[] | Record<string, unknown>): NoteSection[] {
  const sections: NoteSection[] = [];
  // One object of sections (`{"Subjective": "…", "Plan": "…"}`) instead of a list reads the same.
  const list: readonly unknown[] = Array.isArray(categories)
    ? categories
    : isRecord(categories)
      ? Object.entries(categories).map(([k, v]) => ({ [k]: v }))
      : [];
  for (const category of list) {
    if (!isRecord(category)) {
      const text = valueText(category);
      if (text !== '') sections.push({ heading: '', text });
      continue;
    }
    const heading = member(category, HEADING_NAMES);
    const body = member(category, TEXT_NAMES, true);
    // One line: the stored form gives a heading one line, and a break would move the rest into the text.
    const headingText =
      heading && (typeof heading[1] === 'string' || typeof heading[1] === 'number')
        ? String(heading[1]).replace(/\s+/g, ' ').trim()
        : '';
    if (headingText !== '' && body) {
      const text = valueText(body[1]);
      if (text !== '') sections.push({ heading: headingText, text });
      continue;
    }
    // `{content}` alone, or with an empty heading (`{category: null, content}`): text without a heading.
    const others = Object.entries(category).filter(
      ([k, v]) => k !== body?.[0] && !(k === heading?.[0] && valueText(v) === ''),
    );
    if (headingText === '' && body && others.length === 0) {
      const text = valueText(body[1]);
      if (text !== '') sections.push({ heading: '', text });
      continue;
    }
    // A lone `{ "Subjective": "…" }` is a heading and its text.
    const entries = Object.entries(category);
    if (entries.length === 1) {
      const [name, value] = entries[0]!;
      const text = valueText(value);
      if (text !== '') sections.push({ heading: readableLabel(name), text });
      continue;
    }
    // No heading and text pair: every other member as "Label: value" under the heading, if any.
    const rest = headingText !== '' ? Object.fromEntries(entries.filter(([k]) => k !== heading![0])) : category;
    const text = valueText(rest);
    if (text !== '') sections.push({ heading: headingText, text });
  }
  return sections.filter((s) => s.text !== '' || s.heading !== '');
}

/** The stored form: `## Heading`, a blank line, the text; sections apart by a blank line. */
export function sectionsToText(sections: readonly NoteSection[]): string {
  return sections
    .map((s) => (s.heading.trim() ? `## ${s.heading.trim()}\n\n${s.text.trim()}`.trimEnd() : s.text.trim()))
    .filter((block) => block !== '')
    .join('\n\n');
}

/** `# A`, `## A`, `### A ##` -> "A"; null for any other line. */
function headingOf(line: string): string | null {
  const m = /^#{1,6}[ \t]+/.exec(line);
  if (!m) return null;
  // Closing #s trimmed by hand: a lazy `(.+?)[ \t#]*$` backtracks over long runs of spaces.
  let end = line.length;
  while (end > m[0].length && ' \t#'.includes(line[end - 1]!)) end -= 1;
  const heading = line.slice(m[0].length, end).trim();
  return heading === '' ? null : heading;
}

/** Reads the stored form back; plain text without headings is one section with heading ''. */
export function sectionsFromText(text: string): NoteSection[] {
  const sections: NoteSection[] = [];
  let current: NoteSection = { heading: '', text: '' };
  let lines: string[] = [];
  const flush = () => {
    current.text = lines.join('\n').trim();
    if (current.heading !== '' || current.text !== '') sections.push(current);
    lines = [];
  };
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const heading = headingOf(line);
    if (heading !== null) {
      flush();
      current = { heading, text: '' };
    } else lines.push(line);
  }
  flush();
  return sections;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** `2026-11-25` -> "25 November 2026", read as a calendar day (no time zone can shift it). */
export function formatNoteDate(date: string | null): string | null {
  if (!date) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  const month = MONTHS[Number(m[2]) - 1];
  return month ? `${Number(m[3])} ${month} ${m[1]}` : null;
}

/** The line on top of a copied or exported note: "Bella — 25 November 2026", or either alone. */
export function noteTitle(meta: NoteMeta): string {
  const name = (meta.patientName ?? '').replace(/\s+/g, ' ').trim() || null;
  const parts = [name, formatNoteDate(meta.date)].filter((p): p is string => p !== null);
  return parts.join(' \u2014 ');
}

/** Paragraphs of a section's text: apart at blank lines, line breaks kept within. */
function paragraphs(text: string): string[][] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n+/)
    .map((p) => p.split('\n').map((l) => l.trimEnd()))
    .filter((p) => p.some((l) => l.trim() !== ''));
}

/** Clipboard and .txt: the title, then each heading on its own line and its text. No markup. */
export function sectionsToPlainText(sections: readonly NoteSection[], meta: NoteMeta): string {
  const blocks: string[] = [];
  const title = noteTitle(meta);
  if (title) blocks.push(title);
  for (const s of sections) {
    const body = paragraphs(s.text)
      .map((p) => p.join('\n'))
      .join('\n\n');
    const heading = s.heading.trim();
    if (heading && body) blocks.push(`${heading}\n${body}`);
    else if (heading || body) blocks.push(heading || body);
  }
  return `${blocks.join('\n\n')}\n`;
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Clipboard HTML: every text escaped, so nothing from the service becomes live markup. */
export function sectionsToHtml(sections: readonly NoteSection[], meta: NoteMeta): string {
  const out: string[] = [];
  const title = noteTitle(meta);
  if (title) out.push(`<h1>${escapeHtml(title)}</h1>`);
  for (const s of sections) {
    if (s.heading.trim()) out.push(`<h2>${escapeHtml(s.heading.trim())}</h2>`);
    for (const p of paragraphs(s.text)) out.push(`<p>${p.map(escapeHtml).join('<br>')}</p>`);
  }
  return out.join('\n');
}

/** Text for an RTF document: \ { } escaped, anything beyond ASCII as \uN? (any Unicode survives). */
export function escapeRtf(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\' || ch === '{' || ch === '}') out += `\\${ch}`;
    else if (ch === '\t') out += '\\tab ';
    else if (ch === '\n') out += '\\line ';
    else if (code < 0x20) continue;
    else if (code < 0x80) out += ch;
    else if (code <= 0xffff) out += `\\u${code > 32767 ? code - 65536 : code}?`;
    else {
      // Beyond the basic plane: the UTF-16 pair, each half signed as RTF wants.
      const hi = 0xd800 + ((code - 0x10000) >> 10);
      const lo = 0xdc00 + ((code - 0x10000) & 0x3ff);
      out += `\\u${hi - 65536}?\\u${lo - 65536}?`;
    }
  }
  return out;
}

/** An RTF document of the note: the title, bold headings, paragraphs. */
export function sectionsToRtf(sections: readonly NoteSection[], meta: NoteMeta): string {
  const out: string[] = ['{\\rtf1\\ansi\\ansicpg1252\\deff0\\uc1{\\fonttbl{\\f0\\fswiss Helvetica;}}\\f0\\fs22'];
  const title = noteTitle(meta);
  if (title) out.push(`{\\pard\\sa200\\b\\fs28 ${escapeRtf(title)}\\par}`);
  for (const s of sections) {
    if (s.heading.trim()) out.push(`{\\pard\\sb120\\sa60\\b ${escapeRtf(s.heading.trim())}\\par}`);
    for (const p of paragraphs(s.text)) out.push(`{\\pard\\sa120 ${p.map(escapeRtf).join('\\line ')}\\par}`);
  }
  out.push('}');
  return out.join('\n');
}

/** A file name base for an exported note, safe on Windows, macOS and Linux. */
export function noteFileBase(meta: NoteMeta): string {
  const name = safeFileWords(meta.patientName ?? '');
  // A further document of the consult is named by its template ("Bella 2026-11-24 Discharge instructions").
  const what = safeFileWords(meta.templateName ?? '') || 'note';
  const date = meta.date && /^\d{4}-\d{2}-\d{2}$/.test(meta.date) ? meta.date : null;
  const base = name
    ? [name, date, what].filter(Boolean).join(' ')
    : [`Consult ${what}`, date].filter(Boolean).join(' ');
  // Names Windows keeps for devices are refused as file names even with an extension
  // (`nul.txt`, `COM1.x note.pdf`): what comes before the first dot decides.
  return /^(con|prn|aux|nul|com[\d\u00b9\u00b2\u00b3]|lpt[\d\u00b9\u00b2\u00b3]) *(\.|$)/i.test(name)
    ? `Patient ${base}`
    : base;
}

/** Words fit for a file name: no character a system refuses or that could disguise an extension. */
function safeFileWords(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- control characters are what is removed
      .replace(/[<>:"/\\|?*\u0000-\u001f\u007f]+/g, ' ')
      // Invisible and direction-changing marks could make a name show another extension.
      .replace(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]+/g, '')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^[. ]+|[. ]+$/g, '')
      .slice(0, 60)
      .trim()
  );
}

/** The note's history and examination in its stored form: what differentials are asked from. */
export function historyAndExamination(note: string): string {
  return sectionsToText(historyAndExaminationSections(sectionsFromText(note)));
}
