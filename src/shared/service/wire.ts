// Answers as the sandbox writes them (snake_case, SPEC section 2 and DESIGN.md's table), so the
// sandbox and the client's parsers are checked against one definition at compile time. The
// parsers accept more than this (see envelope.ts); the sandbox must produce exactly this.

/** Rows 4-6, 8, 9, 12, 13 wrap their resource. */
export interface EnvelopeWire<T> {
  message: string;
  data: T;
}

/** SPEC 2.1. */
export interface UserWire {
  id: string;
  email: string;
  name: string;
  organization_id: string;
}

/** SPEC 2.3: the refresh answer names the user's fields differently. */
export interface RefreshUserWire {
  public_id: string;
  email: string;
  name: string;
  organization_public_id: string;
}

/** Rows 1 and 3: SPEC 2.2. */
export interface SignInResponseWire {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_at: number;
  refresh_expires_at: number;
  user: UserWire;
}

/** Row 2: SPEC 2.3 with the members its text and sample carry. */
export interface RefreshResponseWire {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_at: number;
  refresh_expires_at: number;
  user: RefreshUserWire;
}

/** Row 4. */
export type CreateSessionResponseWire = EnvelopeWire<{ public_id: string; created_at: string; name?: string | null }>;

export interface TemplateWire {
  public_id: string;
  name: string;
  description: string;
  sections?: string[];
}

/** Row 5. */
export type TemplatesResponseWire = EnvelopeWire<{ items: TemplateWire[]; page: number; limit: number; total: number }>;

/** Row 6. */
export type UploadUrlResponseWire = EnvelopeWire<{ upload_url: string; file_key: string; expires_at: number }>;

export type ScribeStatusWire = 'queued' | 'processing' | 'completed' | 'failed';

/** Row 8. */
export type ScribeRequestResponseWire = EnvelopeWire<{ public_id: string; status: ScribeStatusWire }>;

export interface ScribeRecordWire {
  public_id: string;
  status: ScribeStatusWire;
  /** Present once completed. */
  note?: string;
  /** Present once failed. */
  error?: string;
}

/** Row 9. */
export type ScribeGetResponseWire = EnvelopeWire<ScribeRecordWire>;

/** SPEC 2.6, one set of Differential Diagnosis Details. */
export interface DdxSetWire {
  name: string;
  cause_etiology: string;
  commonly_confused_with: string;
  diagnosis_rule_outs: string;
  prognosis: string;
  risk_factors_predispositions: string;
  symptoms_clinical_signs: string;
}

/** Row 10: SPEC 2.6; the details in the sample's map form, label -> set. */
export interface DdxResponseWire {
  status: boolean;
  reason: string;
  response: {
    'Differential Diagnosis Details': Record<string, DdxSetWire>;
    'Plain English Concise': string;
    'Plain English Summary': string;
  } | null;
}

/** SPEC 2.7, one set of Treatment Plan Details. */
export interface TreatmentPlanSetWire {
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

/** Row 11: SPEC 2.7; the details in the sample's map form. */
export interface TreatmentPlanResponseWire {
  status: boolean;
  reason: string;
  response: {
    'Treatment Plan Details': Record<string, TreatmentPlanSetWire>;
    'Plain English Concise': string;
    'Plain English Summary': string;
  } | null;
}

/** SPEC 2.4. */
export interface OrganizationWire {
  public_id: string;
  name: string;
  description: string;
  has_slack_bot_token: boolean;
  slack_channel: string | null;
  email_notification: string | null;
  is_active: boolean;
}

/** Row 12. */
export type OrganizationUpdateResponseWire = EnvelopeWire<OrganizationWire>;

/** SPEC 2.5. */
export interface WebhookWire {
  public_id: string;
  event_type: string;
  is_active: boolean;
  organization_public_id: string;
}

/** Row 13. */
export type WebhookStatusResponseWire = EnvelopeWire<WebhookWire>;

/** Every error answer of the sandbox. */
export interface ErrorBodyWire {
  detail: string;
  code: string;
}
