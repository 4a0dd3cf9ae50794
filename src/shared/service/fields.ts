// The fields of the two agents' answers, with the headings the window prints above them. No
// zod here: the window imports these, and the parsers that use them stay in main.
export interface FieldSpec<K extends string> {
  /** Member of the domain type. */
  key: K;
  /** Member name on the wire. */
  wire: string;
  /** What the UI prints above the field. */
  heading: string;
  /** Other wire names seen for the same member. */
  aliases?: readonly string[];
}

export const DDX_FIELDS = [
  { key: 'name', wire: 'name', heading: 'Diagnosis' },
  { key: 'symptomsClinicalSigns', wire: 'symptoms_clinical_signs', heading: 'Symptoms and clinical signs' },
  { key: 'causeEtiology', wire: 'cause_etiology', heading: 'Cause and etiology' },
  { key: 'riskFactorsPredispositions', wire: 'risk_factors_predispositions', heading: 'Risk factors and predispositions' },
  { key: 'diagnosisRuleOuts', wire: 'diagnosis_rule_outs', heading: 'Diagnosis and rule-outs' },
  { key: 'commonlyConfusedWith', wire: 'commonly_confused_with', heading: 'Commonly confused with' },
  { key: 'prognosis', wire: 'prognosis', heading: 'Prognosis' },
] as const satisfies readonly FieldSpec<string>[];

export const TREATMENT_FIELDS = [
  { key: 'diagnosisName', wire: 'diagnosis_name', heading: 'Diagnosis' },
  { key: 'treatmentPlanName', wire: 'treatment_plan_name', heading: 'Treatment plan' },
  { key: 'treatmentGoal', wire: 'treatment_goal', heading: 'Treatment goal' },
  { key: 'medications', wire: 'medications', heading: 'Medications' },
  { key: 'dietaryManagement', wire: 'dietary_management', heading: 'Dietary management' },
  { key: 'lifestyleModifications', wire: 'lifestyle_modifications', heading: 'Lifestyle modifications' },
  { key: 'symptomManagement', wire: 'symptom_management', heading: 'Symptom management' },
  // The spec spells this one with a hyphen; the underscore form is read too.
  { key: 'nonSurgicalOptions', wire: 'non-surgical_options', heading: 'Non-surgical options', aliases: ['non_surgical_options'] },
  { key: 'possibleSurgicalOptions', wire: 'possible_surgical_options', heading: 'Possible surgical options' },
  { key: 'preventativeOptions', wire: 'preventative_options', heading: 'Preventative options' },
  { key: 'regularVeterinaryMonitoring', wire: 'regular_veterinary_monitoring', heading: 'Regular veterinary monitoring' },
  { key: 'ownerEducation', wire: 'owner_education', heading: 'Owner education' },
] as const satisfies readonly FieldSpec<string>[];
