// The answer as plain text, for pasting into the practice-management system: headings on
// their own lines, blank lines between blocks, nothing that needs a rich-text editor.
import { cardTitle, shownFields, type CardField, type CardItem } from './result-cards.tsx';

export interface AnswerSummary {
  concise?: string | undefined;
  summary?: string | undefined;
}

export const CONCISE_HEADING = 'In short';
export const SUMMARY_HEADING = 'Summary';

/** The concise answer without a label of its own ("In short: …"): the heading says it once. */
export function conciseText(concise: string | undefined): string {
  return (concise ?? '').replace(/^\s*(in short|concise|summary)\s*[:—-]\s*/i, '').trim();
}

const SENTENCE_END = /(?<=[.!?])\s+(?=["“(]?[A-Z0-9])/;
/** A sentence that starts with its own label ("Outlook: …", "To confirm it: …") opens a paragraph. */
const LABELLED = /^[A-Z][A-Za-z ,'-]{0,40}:\s/;
const SENTENCES_A_PARAGRAPH = 2;

/**
 * The summary as readable paragraphs: the service's own line breaks where it gave
 * any, else its sentences two by two, a labelled sentence starting a paragraph of its own. The
 * concise answer is not repeated in it.
 */
export function summaryParagraphs(summary: string | undefined, concise?: string): string[] {
  let text = (summary ?? '').trim();
  const short = conciseText(concise);
  if (short && text.startsWith(short)) text = text.slice(short.length).trim();
  if (text === '') return [];
  const given = text
    .split(/\n\s*\n|\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (given.length > 1) return given;
  const paragraphs: string[][] = [];
  for (const sentence of text
    .split(SENTENCE_END)
    .map((s) => s.trim())
    .filter(Boolean)) {
    const current = paragraphs.at(-1);
    if (
      !current ||
      LABELLED.test(sentence) ||
      current.length >= SENTENCES_A_PARAGRAPH ||
      LABELLED.test(current[0] ?? '')
    )
      paragraphs.push([sentence]);
    else current.push(sentence);
  }
  return paragraphs.map((p) => p.join(' '));
}

export function summaryText(answer: AnswerSummary): string {
  const blocks: string[] = [];
  const concise = conciseText(answer.concise);
  if (concise) blocks.push(`${CONCISE_HEADING}\n${concise}`);
  const paragraphs = summaryParagraphs(answer.summary, answer.concise);
  if (paragraphs.length > 0) blocks.push(`${SUMMARY_HEADING}\n${paragraphs.join('\n\n')}`);
  return blocks.join('\n\n');
}

export function answerText<K extends string>(
  answer: AnswerSummary,
  listHeading: string,
  items: readonly CardItem<K>[],
  fields: readonly CardField<K>[],
  fallbackTitle: string,
  textValue: (key: K, value: string) => string = (_key, value) => value,
): string {
  const blocks = [summaryText(answer)];
  if (items.length > 0) blocks.push(listHeading.toUpperCase());
  items.forEach((item, i) => {
    const title = cardTitle(item, fields, i, fallbackTitle);
    const lines = [title];
    for (const f of shownFields(item, fields, title)) lines.push(`${f.heading}: ${textValue(f.key, f.value)}`);
    blocks.push(lines.join('\n'));
  });
  return blocks.filter((b) => b !== '').join('\n\n');
}
