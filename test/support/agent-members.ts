// The members of one set of the agents' details as the service publishes them, written once for
// the tests: the app's table of fields (src/shared/service/fields.ts) is checked against these,
// and so is every answer the sandbox writes, so neither can drop or rename a member unnoticed.
import type { DdxSetWire, MedicationSetWire, TreatmentPlanSetWire } from '../../src/shared/service/index.ts';

/** `POST /ddx_agent_v2`: one differential of the Differential Diagnosis Details. */
export const DDX_MEMBERS: (keyof DdxSetWire)[] = [
  'name',
  'cause_etiology',
  'commonly_confused_with',
  'diagnosis_rule_outs',
  'prognosis',
  'risk_factors_predispositions',
  'symptoms_clinical_signs',
];

/** `POST /treatment_plan_agent_v2`: one plan of the Treatment Plan Details, in the published order. */
export const TREATMENT_PLAN_MEMBERS: (keyof TreatmentPlanSetWire)[] = [
  'diagnosis_name',
  'treatment_plan_name',
  'treatment_goal',
  'medications',
  'dietary_management',
  'lifestyle_modifications',
  'symptom_management',
  'non-surgical_options',
  'possible_surgical_options',
  'preventative_options',
  'regular_veterinary_monitoring',
  'owner_education',
];

/** `POST /medication_agent_v2`: one drug's card of the Medication Details. */
export const MEDICATION_MEMBERS: (keyof MedicationSetWire)[] = [
  'drug_name_and_classification',
  'indications_and_uses',
  'pharmacology_and_mechanism_of_action',
  'dosing_by_species',
  'administration_and_route',
  'contraindications',
  'precautions_and_warnings',
  'adverse_effects',
  'drug_interactions',
  'monitoring_parameters',
  'overdose_information',
  'withdrawal_times',
  'client_information',
  'notes',
];
