// The sandbox's knowledge base of conditions: every field of each filled, one name throughout,
// weighted signs, and doses only in a plan's medications, per kilogram.
import { describe, expect, it } from 'vitest';
import { CONDITIONS } from '../../../src/sandbox/knowledge/conditions/index.ts';
import { DDX_MEMBERS, TREATMENT_PLAN_MEMBERS } from '../../support/agent-members.ts';

// The knowledge base names drugs but leaves doses to the formulary: a number with a unit is a dose.
const DOSE = /\d+\s?(mg|ml|mcg|µg|iu)\b/i;

/** Every string a condition holds, labelled for failure messages. */
function allStrings(c: (typeof CONDITIONS)[number]): [label: string, text: string][] {
  return [
    ['id', c.id],
    ['name', c.name],
    ...c.aliases.map((a, i): [string, string] => [`aliases[${i}]`, a]),
    ...c.signs.map(([term], i): [string, string] => [`signs[${i}]`, term]),
    ...c.predispositions.map((p, i): [string, string] => [`predispositions[${i}]`, p]),
    ...DDX_MEMBERS.map((f): [string, string] => [`ddx.${f}`, c.ddx[f]]),
    ...TREATMENT_PLAN_MEMBERS.map((f): [string, string] => [`treatment.${f}`, c.treatment[f]]),
  ];
}

describe('sandbox knowledge base', () => {
  it('holds at least 25 conditions', () => {
    expect(CONDITIONS.length).toBeGreaterThanOrEqual(25);
  });

  it('has unique kebab-case ids and unique names', () => {
    const ids = CONDITIONS.map((c) => c.id);
    const names = CONDITIONS.map((c) => c.name.toLowerCase());
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(names).size).toBe(names.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it.each(CONDITIONS.map((c) => [c.id, c] as const))('%s fills every ddx and treatment field', (_id, c) => {
    for (const f of DDX_MEMBERS) expect(c.ddx[f].trim(), `ddx.${f}`).not.toBe('');
    for (const f of TREATMENT_PLAN_MEMBERS) expect(c.treatment[f].trim(), `treatment.${f}`).not.toBe('');
    for (const f of DDX_MEMBERS) expect(c.ddx[f].trim(), `ddx.${f}`).not.toMatch(/^n\/?a\.?$/i);
    for (const f of TREATMENT_PLAN_MEMBERS) expect(c.treatment[f].trim(), `treatment.${f}`).not.toMatch(/^n\/?a\.?$/i);
  });

  it.each(CONDITIONS.map((c) => [c.id, c] as const))('%s uses one name throughout', (_id, c) => {
    expect(c.ddx.name).toBe(c.name);
    expect(c.treatment.diagnosis_name).toBe(c.name);
  });

  it.each(CONDITIONS.map((c) => [c.id, c] as const))(
    '%s has species, aliases and weighted lowercase signs',
    (_id, c) => {
      expect(c.species.length).toBeGreaterThanOrEqual(1);
      for (const s of c.species) expect(['dog', 'cat']).toContain(s);
      expect(c.aliases.length).toBeGreaterThanOrEqual(1);
      expect(c.signs.length).toBeGreaterThanOrEqual(5);
      const terms = c.signs.map(([term]) => term);
      expect(new Set(terms).size, 'duplicate sign terms').toBe(terms.length);
      for (const [term, weight] of c.signs) {
        expect(term, term).toBe(term.toLowerCase());
        expect(term.trim(), term).toBe(term);
        expect(term, term).not.toBe('');
        expect([1, 2, 3], term).toContain(weight);
      }
    },
  );

  // Doses appear only in a plan's medications, only per kilogram (so the app can work out the
  // total for the patient), and always with the word to check them against the formulary.
  it.each(CONDITIONS.map((c) => [c.id, c] as const))(
    '%s states doses only in its medications, per kilogram, to be checked',
    (_id, c) => {
      for (const [label, text] of allStrings(c))
        if (label !== 'treatment.medications') expect(text, label).not.toMatch(DOSE);
      const medications = c.treatment.medications;
      if (!DOSE.test(medications)) return;
      for (const m of medications.matchAll(/\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)?\s?(?:mg|ml|mcg|µg|iu)\b(\s?\/\s?kg)?/gi))
        expect(m[1], `${m[0]} in treatment.medications`).toBeTruthy();
      expect(medications).toMatch(/check each dose against the current formulary/);
    },
  );

  it('some plans give doses per kilogram, for the app to total for a patient', () => {
    expect(CONDITIONS.filter((c) => /\d\s?mg\/kg/.test(c.treatment.medications)).map((c) => c.id)).toEqual(
      expect.arrayContaining([
        'acute-gastroenteritis',
        'pancreatitis',
        'canine-superficial-pyoderma',
        'osteoarthritis',
      ]),
    );
  });

  it('the dose pattern catches doses, so the check above can fail', () => {
    for (const dose of ['5 mg/kg', '2.5mg', '10 ml', '100 mcg', '0.5 IU/kg']) expect(dose).toMatch(DOSE);
    expect("dose per current formulary and the patient's weight").not.toMatch(DOSE);
  });
});
