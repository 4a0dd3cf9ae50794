// A note's text as the service writes it, read by the window: headings, paragraphs and lists,
// `## ` sections shown as the page's sections, and markup from the service shown as text.
import { cleanup, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { parseNote } from '../../../../src/renderer/src/features/note/note-format.ts';
import { NoteBody } from '../../../../src/renderer/src/features/note/note-body.tsx';

describe('note text', () => {
  const text =
    'Sandbox note — first line.\n\n# Consult note\nConsult: Rex\nRecording: r.webm\n\n## History\nLimping for two days.\n\n## Plan\n- Rest\n- Recheck in 5 days\n### Owner #\nInformed.\n## C# is not a heading end\n';

  it('reads headings, paragraphs (line breaks kept) and lists', () => {
    expect(parseNote(text)).toEqual([
      { kind: 'paragraph', lines: ['Sandbox note — first line.'] },
      { kind: 'heading', level: 1, text: 'Consult note' },
      { kind: 'paragraph', lines: ['Consult: Rex', 'Recording: r.webm'] },
      { kind: 'heading', level: 2, text: 'History' },
      { kind: 'paragraph', lines: ['Limping for two days.'] },
      { kind: 'heading', level: 2, text: 'Plan' },
      { kind: 'list', items: ['Rest', 'Recheck in 5 days'] },
      { kind: 'heading', level: 3, text: 'Owner' },
      { kind: 'paragraph', lines: ['Informed.'] },
      { kind: 'heading', level: 2, text: 'C# is not a heading end' },
    ]);
    expect(parseNote('#not a heading\r\n<b>bold</b>')).toEqual([
      { kind: 'paragraph', lines: ['#not a heading', '<b>bold</b>'] },
    ]);
  });

  it('shows `## ` sections as the page’s sections, and markup from the service as text', () => {
    const { container } = render(
      <NoteBody
        text={
          '## Subjective\nBella vomited twice.\n\n## Plan\n<script>alert(1)</script> <a href="javascript:alert(1)">x</a>\n'
        }
      />,
    );
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['Subjective', 'Plan']);
    expect(screen.getByText('Bella vomited twice.').tagName).toBe('P');
    expect(container.querySelector('script, a')).toBeNull();
    expect(container.textContent).toContain('<script>alert(1)</script>');
    expect(container.textContent).not.toContain('##');
    cleanup();
  });
});
