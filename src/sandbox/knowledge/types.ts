// The shape of the sandbox's curated knowledge: one record per condition, with every field of
// both agents' answers (`POST /ddx_agent_v2`, `/treatment_plan_agent_v2`) written out, and the clinical terms used to match
// a history against it.
import type { DdxSetWire, TreatmentPlanSetWire } from '../../shared/service/wire.ts';

/** The species the knowledge base covers. */
export type KbSpecies = 'dog' | 'cat';

/** One set of each agent's details, in their wire names (src/shared/service/wire.ts). */
export type DdxSet = DdxSetWire;
export type TreatmentSet = TreatmentPlanSetWire;

export interface Condition {
  /** Stable kebab-case id, e.g. 'feline-hyperthyroidism'. */
  id: string;
  /** The condition's usual name, e.g. 'Hyperthyroidism'. */
  name: string;
  /** Other names and abbreviations a vet may type, e.g. ['hyperthyroid', 'HT']. */
  aliases: string[];
  species: KbSpecies[];
  /**
   * Clinical terms that point to this condition, lowercase, each with a weight from 1 (weak,
   * common to many conditions, e.g. 'vomiting') to 3 (strong, e.g. 'palpable thyroid nodule').
   * Multi-word terms are matched as phrases.
   */
  signs: [term: string, weight: 1 | 2 | 3][];
  /** Signalment that raises the likelihood: words such as 'senior', 'large breed', 'female intact'. */
  predispositions: string[];
  /**
   * Signalment that rules the condition out: each entry a set of signalment words that must all
   * be stated or implied (['male'], ['spayed'], ['female', 'neutered'] for a pyometra).
   */
  ruledOutBy?: string[][];
  /** A disease chiefly of the young: in a patient of this many years or more it ranks far lower. */
  chieflyUnderYears?: number;
  ddx: DdxSet;
  treatment: TreatmentSet;
}
