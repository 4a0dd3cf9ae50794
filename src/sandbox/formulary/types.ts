// The shape of a drug in the sandbox's formulary, and the small helpers its entries are written with.
import type { MedicationSetWire } from '../../shared/service/wire.ts';

export type FormularySpecies = 'dog' | 'cat';

/**
 * One dose and when it is given: "0.1 mg/kg PO once daily". Most are per kilogram, so that the
 * answer can give the total for the weight asked about; a few are per animal, as the references
 * state them ("2.5 mg per cat"). Insulin is in IU, which the window's dose totals read.
 */
export interface Dose {
  amount: number | readonly [number, number];
  unit: 'mg' | 'µg' | 'IU';
  per: 'kg' | 'animal';
  how: string;
}

export interface Drug {
  name: string;
  /** Words that name the drug in a question (lowercase): generic names, common brand names. */
  names: readonly string[];
  card: MedicationSetWire;
  /** One plain sentence per species. */
  plain: Record<FormularySpecies, string>;
  /** The doses per species, or the one sentence that says the drug is not for that species. */
  doses: Record<FormularySpecies, readonly Dose[] | string>;
}

export const mgKg = (amount: Dose['amount'], how: string): Dose => ({ amount, unit: 'mg', per: 'kg', how });
export const ugKg = (amount: Dose['amount'], how: string): Dose => ({ amount, unit: 'µg', per: 'kg', how });
export const iuKg = (amount: Dose['amount'], how: string): Dose => ({ amount, unit: 'IU', per: 'kg', how });
export const each = (amount: Dose['amount'], unit: Dose['unit'], how: string): Dose => ({
  amount,
  unit,
  per: 'animal',
  how,
});

/** Companion animals are not food animals: the same words on every card. */
export const NO_WITHDRAWAL = 'Not applicable to companion animals.';
