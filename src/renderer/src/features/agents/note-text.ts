// A note as an agent is sent it: plain text, with no Markdown left for the agent to read as
// words. Headings become plain lines, emphasis and code marks go, a link keeps its words, a
// bullet stays a dash; the words and line breaks are the note's own.

const HEADING = /^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const BULLET = /^(\s*)[*+][ \t]+/;
const QUOTE = /^ {0,3}>[ \t]?/;

function inline(line: string): string {
  return (
    line
      // Images and links keep their words: ![alt](src) -> alt, [words](url) -> words.
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/`+([^`]*)`+/g, '$1')
      // Bold and italics, the longest marks first; a lone * or _ between words (2 * 3, snake_case) stays.
      .replace(/(\*\*\*|___)(?=\S)(.+?)(?<=\S)\1/g, '$2')
      .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
      .replace(/(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])/g, '$1')
      .replace(/(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])/g, '$1')
      .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, '$1')
  );
}

/** The note's text without Markdown, trimmed, with at most one blank line between blocks. */
export function plainNoteText(markdown: string): string {
  const lines = markdown
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .flatMap((raw) => {
      if (RULE.test(raw)) return [];
      const heading = HEADING.exec(raw);
      if (heading) return [inline(heading[1] ?? '')];
      return [inline(raw.replace(QUOTE, '').replace(BULLET, '$1- '))];
    });
  return lines
    .map((l) => l.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
