// The note as the editor shows it: its headings as labels that stay headings, and the text of
// each section in a box of its own. Split and joined back exactly: a note nobody changed joins
// to the same text, byte for byte.

export interface NoteSection {
  /** The heading line as written ("## Plan"), or '' for the text before the first heading. */
  headingLine: string;
  /** The heading's words ("Plan"); '' for the text before the first heading. */
  heading: string;
  /** Everything after the heading line up to the next heading, line breaks included. */
  body: string;
}

const HEADING = /^(#{1,6}) +(.+?)\s*$/;

export function splitSections(text: string): NoteSection[] {
  const sections: NoteSection[] = [{ headingLine: '', heading: '', body: '' }];
  // Lines with their own line break, so that joining gives back every character.
  for (const line of text.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
    const m = HEADING.exec(line.replace(/\n$/, ''));
    if (m?.[2]) sections.push({ headingLine: line, heading: m[2], body: '' });
    else sections[sections.length - 1]!.body += line;
  }
  return sections;
}

export function joinSections(sections: readonly NoteSection[]): string {
  return sections.map((s) => s.headingLine + s.body).join('');
}

/** A section's text as the box shows it: without the line break that only separates it from the next heading. */
export function bodyShown(section: NoteSection): string {
  return section.body.replace(/^\n/, '').replace(/\n+$/, '');
}

/**
 * A box's new text put back where the section's text was, keeping the breaks around it; a
 * section followed by another ends with a line break, so the next heading stays on its own line.
 */
export function withBody(section: NoteSection, shown: string, last: boolean): NoteSection {
  // A heading on the note's last line has no line break of its own yet.
  const lead =
    /^\n/.test(section.body) || (section.headingLine !== '' && !section.headingLine.endsWith('\n') && shown !== '')
      ? '\n'
      : '';
  const trail = /\n+$/.exec(section.body)?.[0] ?? '';
  return { ...section, body: `${lead}${shown}${trail || (!last && shown !== '' ? '\n' : '')}` };
}
