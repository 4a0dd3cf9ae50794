// The fields of the agents' answers, with the headings the window prints above them. No
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
  {
    key: 'riskFactorsPredispositions',
    wire: 'risk_factors_predispositions',
    heading: 'Risk factors and predispositions',
  },
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
  // The service spells this one with a hyphen; the underscore form is read too.
  {
    key: 'nonSurgicalOptions',
    wire: 'non-surgical_options',
    heading: 'Non-surgical options',
    aliases: ['non_surgical_options'],
  },
  { key: 'possibleSurgicalOptions', wire: 'possible_surgical_options', heading: 'Possible surgical options' },
  { key: 'preventativeOptions', wire: 'preventative_options', heading: 'Preventative options' },
  {
    key: 'regularVeterinaryMonitoring',
    wire: 'regular_veterinary_monitoring',
    heading: 'Regular veterinary monitoring',
  },
  { key: 'petOwnerEducation', wire: 'owner_education', heading: 'Owner education' },
] as const satisfies readonly FieldSpec<string>[];

/** `POST /medication_agent_v2`, one drug's card (docs/service.md); dosing comes first for the vet. */
export const MEDICATION_FIELDS = [
  { key: 'drugNameAndClassification', wire: 'drug_name_and_classification', heading: 'Drug and class' },
  { key: 'dosingBySpecies', wire: 'dosing_by_species', heading: 'Dosing by species' },
  { key: 'indicationsAndUses', wire: 'indications_and_uses', heading: 'Indications and uses' },
  { key: 'administrationAndRoute', wire: 'administration_and_route', heading: 'Administration and route' },
  { key: 'contraindications', wire: 'contraindications', heading: 'Contraindications' },
  { key: 'precautionsAndWarnings', wire: 'precautions_and_warnings', heading: 'Precautions and warnings' },
  { key: 'adverseEffects', wire: 'adverse_effects', heading: 'Adverse effects' },
  { key: 'drugInteractions', wire: 'drug_interactions', heading: 'Drug interactions' },
  { key: 'monitoringParameters', wire: 'monitoring_parameters', heading: 'Monitoring' },
  { key: 'overdoseInformation', wire: 'overdose_information', heading: 'Overdose' },
  { key: 'withdrawalTimes', wire: 'withdrawal_times', heading: 'Withdrawal times' },
  {
    key: 'pharmacologyAndMechanismOfAction',
    wire: 'pharmacology_and_mechanism_of_action',
    heading: 'Pharmacology and mechanism of action',
  },
  { key: 'clientInformation', wire: 'client_information', heading: 'Information for the pet owner' },
  { key: 'notes', wire: 'notes', heading: 'Notes' },
] as const satisfies readonly FieldSpec<string>[];
