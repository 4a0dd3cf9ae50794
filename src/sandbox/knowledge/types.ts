// The shape of the sandbox's curated knowledge: one record per condition, with every field of
// both agents' answers (SPEC 2.6 and 2.7) written out, and the clinical terms used to match
// a history against it.

/** The species the knowledge base covers. */
export type KbSpecies = 'dog' | 'cat';

/** The string fields of one Differential Diagnosis Details set (SPEC 2.6), wire names. */
export interface DdxSet {
  name: string;
  cause_etiology: string;
  commonly_confused_with: string;
  diagnosis_rule_outs: string;
  prognosis: string;
  risk_factors_predispositions: string;
  symptoms_clinical_signs: string;
}

/** The string fields of one Treatment Plan Details set (SPEC 2.7), wire names. */
export interface TreatmentSet {
  diagnosis_name: string;
  treatment_plan_name: string;
  treatment_goal: string;
  medications: string;
  dietary_management: string;
  lifestyle_modifications: string;
  symptom_management: string;
  'non-surgical_options': string;
  possible_surgical_options: string;
  preventative_options: string;
  regular_veterinary_monitoring: string;
  owner_education: string;
}

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
  ddx: DdxSet;
  treatment: TreatmentSet;
}
