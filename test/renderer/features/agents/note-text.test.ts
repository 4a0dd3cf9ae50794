// The note as the differential-diagnosis agent is sent it: no Markdown marks left.
import { describe, expect, it } from 'vitest';
import { plainNoteText } from '../../../../src/renderer/src/features/agents/note-text.ts';

describe('plainNoteText', () => {
  it('makes headings plain lines and drops emphasis, code and link marks, keeping the words', () => {
    const note = [
      '## Example note',
      '',
      'Example note: the sandbox does not listen to the audio.',
      '',
      '## Subjective ##',
      '',
      '**Bella** has vomited *three* times; __no__ diarrhoea. See [the lab](https://lab.example/1) and `CBC`.',
      '',
      '---',
      '',
      '# Plan',
      '* Maropitant 1 mg/kg SC',
      '+ Bland diet',
      '> Recheck in 48 h',
    ].join('\n');
    expect(plainNoteText(note)).toBe(
      [
        'Example note',
        '',
        'Example note: the sandbox does not listen to the audio.',
        '',
        'Subjective',
        '',
        'Bella has vomited three times; no diarrhoea. See the lab and CBC.',
        '',
        '',
        'Plan',
        '- Maropitant 1 mg/kg SC',
        '- Bland diet',
        'Recheck in 48 h',
      ]
        .join('\n')
        .replace(/\n{3,}/g, '\n\n'),
    );
    expect(plainNoteText(note)).not.toMatch(/[#*`[\]]/);
  });

  it('leaves words with marks inside them alone and trims the ends', () => {
    expect(plainNoteText('  2 * 3 mg, snake_case_word, C#  \r\n\r\n\r\n\r\nend ')).toBe(
      '2 * 3 mg, snake_case_word, C#\n\nend',
    );
  });
});
