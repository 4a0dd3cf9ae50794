// Answers as the published service writes them (docs/service.md; snake_case), so
// the sandbox and the client's parsers are checked against one definition at compile time.
// The parsers accept more than this (see envelope.ts); the sandbox must produce exactly this.

/** `PATCH /organizations/update-email-for-notification`, `PATCH /webhook/status` and `PUT /webhook/update` wrap their resource. */
export interface EnvelopeWire<T> {
  message: string;
  data: T;
}

/** The user of `POST /auth/sign-in`. */
export interface UserWire {
  id: string;
  email: string;
  name: string;
  organization_id: string;
}

/** The user of `GET /users/me`, of the refresh and of `/auth/login`'s reference page: the same user under other names. */
export interface PublicUserWire {
  public_id: string;
  email: string;
  name: string;
  organization_public_id: string;
}

/** `POST /auth/sign-in`. */
export interface SignInResponseWire {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_at: number;
  refresh_expires_at: number;
  user: UserWire;
}

/**
 * `POST {scribe_url}/auth/login`: the OpenAPI answer is the three token members only;
 * the page adds expiry and the user under its public names. The sandbox writes the OpenAPI
 * form, the strictest a client can meet (expiry from the JWT, the user from /users/me).
 */
export interface LoginResponseWire {
  access_token: string;
  refresh_token: string;
  token_type: string;
}

/** `POST /auth/refresh-token`: the formal schema is the three token members; text and sample add the rest. */
export interface RefreshResponseWire {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_at?: number;
  refresh_expires_at?: number;
  user?: PublicUserWire;
}

/** A page of a published list (templates, scribes, recording sessions): no total. */
export interface PageWire<T> {
  items: T[];
  has_next: boolean;
  current_page: number;
  items_per_page: number;
}

/** `POST /recording-sessions/create`'s answer, and the items of `/recording-sessions/all` and `/get/{id}`: a bare object. */
export interface RecordingSessionWire {
  public_id: string;
  updated_at: string;
  patient_name: string;
  description: string;
  organization_public_id: string;
}

export interface TemplateWire {
  public_id: string;
  name: string;
  description: string;
}

/** `GET /templates/all`. */
export type TemplatesResponseWire = PageWire<TemplateWire>;

/** `POST /audio/generate-upload-url`: no file key and no expiry are given (a presigned URL may carry its own). */
export interface UploadUrlResponseWire {
  url: string;
  message: string;
}

/** The published status words of a scribe record. No failure status is published. */
export type ScribeStatusWire = 'requested' | 'scribing' | 'scribed';

/** `POST /scribe/request`. */
export interface ScribeRequestResponseWire {
  public_id: string;
  message: string;
}

/**
 * One object of `categories_output`. Its members are not published: the sandbox writes a
 * heading and a text; a client must read other members tolerantly.
 */
export interface CategoryWire {
  category: string;
  content: string;
}

/** `GET /scribe/get/{id}`: `categories_output` and `rtf_output` are empty until the status is `scribed`. */
export interface ScribeRecordWire {
  public_id: string;
  transcript_public_id: string | null;
  template_public_id: string;
  status: ScribeStatusWire;
  categories_output: CategoryWire[];
  rtf_output: string | null;
}

/** The items of `GET /scribe/all`. */
export interface ScribeListItemWire {
  public_id: string;
  updated_at: string;
  transcript_public_id: string | null;
  template_public_id: string;
  organization_public_id: string;
  status: ScribeStatusWire;
}

/** `POST /ddx_agent_v2`, one set of Differential Diagnosis Details. */
export interface DdxSetWire {
  name: string;
  cause_etiology: string;
  commonly_confused_with: string;
  diagnosis_rule_outs: string;
  prognosis: string;
  risk_factors_predispositions: string;
  symptoms_clinical_signs: string;
}

/** `POST /ddx_agent_v2`: the details in the sample's map form, label -> set. */
export interface DdxResponseWire {
  status: boolean;
  reason: string;
  response: {
    'Differential Diagnosis Details': Record<string, DdxSetWire>;
    'Plain English Concise': string;
    'Plain English Summary': string;
  } | null;
}

/** `POST /treatment_plan_agent_v2`, one set of Treatment Plan Details. */
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

/** `POST /treatment_plan_agent_v2`: the details in the sample's map form. */
export interface TreatmentPlanResponseWire {
  status: boolean;
  reason: string;
  response: {
    'Treatment Plan Details': Record<string, TreatmentPlanSetWire>;
    'Plain English Concise': string;
    'Plain English Summary': string;
  } | null;
}

/** `POST /medication_agent_v2`, one set of Medication Details. */
export interface MedicationSetWire {
  drug_name_and_classification: string;
  indications_and_uses: string;
  pharmacology_and_mechanism_of_action: string;
  dosing_by_species: string;
  administration_and_route: string;
  contraindications: string;
  precautions_and_warnings: string;
  adverse_effects: string;
  drug_interactions: string;
  monitoring_parameters: string;
  overdose_information: string;
  withdrawal_times: string;
  client_information: string;
  notes: string;
}

/** `POST /medication_agent_v2`: the details as a map, drug -> set. */
export interface MedicationResponseWire {
  status: boolean;
  reason: string;
  response: {
    'Medication Details': Record<string, MedicationSetWire>;
    'Plain English Concise': string;
    'Plain English Summary': string;
  } | null;
}

/** `POST /chat_agent`: the summaries come under `reason`. */
export interface ChatAgentResponseWire {
  status: boolean;
  reason: { 'Plain English Concise': string; 'Plain English Summary': string };
}

/** The organization, as `PATCH /organizations/update-email-for-notification` answers it. */
export interface OrganizationWire {
  public_id: string;
  name: string;
  description: string;
  has_slack_bot_token: boolean;
  slack_channel: string | null;
  email_notification: string | null;
  is_active: boolean;
}

/** `GET /organizations/get`: the organization without is_active. */
export type OrganizationGetResponseWire = Omit<OrganizationWire, 'is_active'>;

/** `PATCH /organizations/update-email-for-notification`. */
export type OrganizationUpdateResponseWire = EnvelopeWire<OrganizationWire>;

/** A webhook, as `PATCH /webhook/status` and `PUT /webhook/update` answer it. */
export interface WebhookWire {
  public_id: string;
  event_type: string;
  is_active: boolean;
  organization_public_id: string;
}

/** `PATCH /webhook/status` and `PUT /webhook/update`. */
export type WebhookStatusResponseWire = EnvelopeWire<WebhookWire>;
export type WebhookUpdateResponseWire = EnvelopeWire<WebhookWire>;

/** A FastAPI validation error (422). */
export interface ValidationErrorWire {
  detail: { loc: (string | number)[]; msg: string; type: string }[];
}

/** Every other FastAPI error. */
export interface ErrorBodyWire {
  detail: string;
}

/** The documented alternative error shape. */
export interface AltErrorBodyWire {
  error: number;
  message: string;
}

/** A webhook delivery of a `scribe` event: three per scribe request. */
export interface ScribeEventWire {
  public_id: string;
  recording_session_public_id: string;
  status: ScribeStatusWire;
  event_type: 'scribe';
  /** Only on the last delivery (`scribed`). */
  categories_output?: CategoryWire[];
  /** Only on the last delivery (`scribed`), in place of the RTF of `GET /scribe/get/{id}`. */
  html_output?: string;
}
