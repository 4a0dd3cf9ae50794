// The app's table of the agents' fields (a heading for each member the service publishes), checked
// against the published members.
import { describe, expect, it } from 'vitest';
import { DDX_FIELDS, MEDICATION_FIELDS, TREATMENT_FIELDS } from '../../../src/shared/service/index.ts';
import { DDX_MEMBERS, MEDICATION_MEMBERS, TREATMENT_PLAN_MEMBERS } from '../../support/agent-members.ts';

describe('DDX_FIELDS and TREATMENT_FIELDS', () => {
  it('cover every field of the DDx and treatment-plan details once, each with a heading', () => {
    expect(DDX_FIELDS.map((f) => f.wire).sort()).toEqual([...DDX_MEMBERS].sort());
    expect(TREATMENT_FIELDS.map((f) => f.wire)).toEqual(TREATMENT_PLAN_MEMBERS);
    for (const field of [...DDX_FIELDS, ...TREATMENT_FIELDS]) {
      expect(field.heading).toMatch(/^[A-Z][a-z -]+$/);
      expect(field.key).toMatch(/^[a-z][A-Za-z]+$/);
    }
    expect(new Set(TREATMENT_FIELDS.map((f) => f.key)).size).toBe(12);
  });
});

describe('MEDICATION_FIELDS', () => {
  it('has a heading for every published card member, dosing near the top', () => {
    expect(MEDICATION_FIELDS.map((f) => f.wire).sort()).toEqual([...MEDICATION_MEMBERS].sort());
    expect(MEDICATION_FIELDS.findIndex((f) => f.key === 'dosingBySpecies')).toBeLessThan(2);
  });
});
