// The sandbox's formulary: the drugs a small-animal clinic uses most, with their doses for dogs
// and cats as the usual references (label, BSAVA and Plumb's formularies) state them. The
// sandbox is not a clinical service; every answer built from these says so.
import { ANTIMICROBIALS } from './antimicrobials.ts';
import { CALMING } from './calming.ts';
import { HORMONES_HEART } from './hormones-heart.ts';
import { PAIN } from './pain.ts';
import { PARASITICIDES } from './parasiticides.ts';
import type { Drug } from './types.ts';

export type { Dose, Drug, FormularySpecies } from './types.ts';

export const FORMULARY: readonly Drug[] = [...PAIN, ...CALMING, ...ANTIMICROBIALS, ...HORMONES_HEART, ...PARASITICIDES];

/** The drugs a text names, by generic or brand name, in the formulary's order. */
export function findDrugs(text: string): Drug[] {
  const lower = ` ${text.toLowerCase().replace(/[^a-z/\- ]+/g, ' ')} `;
  return FORMULARY.filter((d) => d.names.some((n) => lower.includes(` ${n} `) || lower.includes(` ${n}s `)));
}
