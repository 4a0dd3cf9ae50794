// The answer as plain text, for pasting into the practice-management system: headings on
// their own lines, blank lines between blocks, nothing that needs a rich-text editor.
import { cardTitle, shownFields, type CardField, type CardItem } from './result-cards.tsx';

export interface AnswerSummary {
  concise?: string | undefined;
  summary?: string | undefined;
}

export const CONCISE_HEADING = 'In short';
export const SUMMARY_HEADING = 'In plain English';

export function summaryText(answer: AnswerSummary): string {
  const blocks: string[] = [];
  if (answer.concise) blocks.push(`${CONCISE_HEADING}\n${answer.concise}`);
  if (answer.summary) blocks.push(`${SUMMARY_HEADING}\n${answer.summary}`);
  return blocks.join('\n\n');
}

export function answerText<K extends string>(answer: AnswerSummary, listHeading: string, items: readonly CardItem<K>[], fields: readonly CardField<K>[], fallbackTitle: string): string {
  const blocks = [summaryText(answer)];
  if (items.length > 0) blocks.push(listHeading.toUpperCase());
  items.forEach((item, i) => {
    const lines = [cardTitle(item, fields, i, fallbackTitle)];
    for (const f of shownFields(item, fields)) lines.push(`${f.heading}: ${f.value}`);
    blocks.push(lines.join('\n'));
  });
  return blocks.filter((b) => b !== '').join('\n\n');
}
