// This computer's name as Settings checks it: what the other rooms read in an announced edit.
import { describe, expect, it } from 'vitest';
import { settingsPatchSchema } from '../../src/shared/settings.ts';

const name = (computerName: string) => settingsPatchSchema.safeParse({ computerName });

describe("this computer's name", () => {
  it('is trimmed, may be empty (the host name is used), and counts characters as the vet sees them', () => {
    expect(name('  Exam room 1 ').data).toEqual({ computerName: 'Exam room 1' });
    expect(name('   ').data).toEqual({ computerName: '' });
    expect(name('x'.repeat(40)).success).toBe(true);
    // Forty accented letters and emoji are forty characters, though more UTF-16 units.
    expect(name('🐾'.repeat(40)).success).toBe(true);
    expect(name('Salle d’examen n° 2 — Élodie').success).toBe(true);
  });

  it('refuses one too long or with a line break, tab or invisible character, saying what is wrong', () => {
    const refused = (computerName: string) => name(computerName).error?.issues.map((i) => i.message);
    expect(refused('x'.repeat(41))).toEqual(['must be at most 40 characters']);
    expect(refused('🐾'.repeat(41))).toEqual(['must be at most 40 characters']);
    for (const bad of ['Exam\nroom 1', 'Exam\troom 1', 'Exam\u200Broom 1', 'Exam\u2028room 1'])
      expect(refused(bad)).toEqual(['must be printable characters only: no line breaks, tabs or invisible characters']);
  });
});
