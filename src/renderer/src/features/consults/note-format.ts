// The note as the service writes it: plain text with markdown-style `# ` and `## ` headings.
// Read here into blocks the window renders as elements (never as HTML), and turned into the
// files the vet exports.

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

/** Plain text for a .txt file: headings underlined instead of marked with `#`. */
export function toPlainText(text: string): string {
  const out: string[] = [];
  for (const block of parseNote(text)) {
    if (block.kind === 'heading') out.push(block.text, (block.level === 1 ? '=' : '-').repeat(Math.max(3, block.text.length)));
    else if (block.kind === 'list') out.push(...block.items.map((i) => `- ${i}`), '');
    else out.push(...block.lines, '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** e.g. `Rex-limping-2026-03-05-1042.md`: safe on every file system, sorts by name then time. */
export function exportFileName(title: string, startedAt: string, ext: 'txt' | 'md'): string {
  const name = title.normalize('NFKC').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 60).replace(/-+$/, '') || 'consult';
  const d = new Date(startedAt);
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = Number.isNaN(d.getTime()) ? '' : `-${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}`;
  return `${name}${stamp}.${ext}`;
}
