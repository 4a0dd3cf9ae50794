// The note as main hands it over: plain text whose sections start with `## Heading` lines
// (read from the service's categories or RTF). Read here into blocks the window renders as
// elements, never as HTML; the files and the clipboard's flavours are main's (consults:export,
// consults:noteFormats).

export type NoteBlock =
  | { kind: 'heading'; level: 1 | 2 | 3; text: string }
  | { kind: 'paragraph'; lines: string[] }
  | { kind: 'list'; items: string[] };

const HEADING = /^(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const BULLET = /^\s*[-*•]\s+(.*)$/;

export function parseNote(text: string): NoteBlock[] {
  const blocks: NoteBlock[] = [];
  let open: NoteBlock | null = null;
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trimEnd();
    if (line.trim() === '') {
      open = null;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = Math.min(3, heading[1]!.length) as 1 | 2 | 3;
      blocks.push({ kind: 'heading', level, text: heading[2] ?? '' });
      open = null;
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      if (open?.kind !== 'list') {
        open = { kind: 'list', items: [] };
        blocks.push(open);
      }
      open.items.push(bullet[1] ?? '');
      continue;
    }
    if (open?.kind !== 'paragraph') {
      open = { kind: 'paragraph', lines: [] };
      blocks.push(open);
    }
    open.lines.push(line.trim());
  }
  return blocks;
}
