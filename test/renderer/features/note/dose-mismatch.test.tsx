// A dose the note's own weight disagrees with is marked apart from the other figures, with
// what is wrong in its title, so the vet sees it before the note goes into the record.
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { NoteBody } from '../../../../src/renderer/src/features/note/note-body.tsx';

afterEach(cleanup);

describe('the figures to check, against the note’s weight', () => {
  it('marks a mg amount its mg/kg and the weight stated in another section do not multiply to', () => {
    const text =
      '## Objective\n\nWeight 32.4 kg. T 38.9 °C.\n\n## Plan\n\nMaropitant 60 mg (1 mg/kg) by mouth once daily.\n\nMeloxicam 0.1 mg/kg (3.2 mg) once daily.';
    const { container } = render(<NoteBody text={text} figures />);
    const wrong = [...container.querySelectorAll('mark.figure-mismatch')];
    expect(wrong.map((m) => m.textContent)).toEqual(['60 mg']);
    expect(wrong[0]!.getAttribute('title')).toBe(
      '60 mg is not 1 mg/kg for 32.4 kg (32.4 mg); 60 mg is 1.85 mg/kg: check it',
    );
    // The agreeing dose is marked as any figure is.
    const meloxicam = [...container.querySelectorAll('mark.figure')].find((m) => m.textContent === '3.2 mg');
    expect(meloxicam?.className).toBe('figure figure-dose');
  });
});
