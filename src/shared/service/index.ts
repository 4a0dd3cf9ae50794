// The service contract (SPEC.md sections 2 and 4): tolerant readers of its answers, the
// request bodies it takes, and the wire shapes the sandbox writes.
export { OPERATIONS, operationRow, ServiceResponseError, serviceErrorCode, serviceErrorMessage, type Operation } from './errors.ts';
export { decodeJwtExpiry, parseRefresh, parseSignIn, type RefreshResult, type SignInResult, type TokenSet, type User } from './auth.ts';
export {
  parseRecordingSession,
  parseScribeRecord,
  parseScribeRequest,
  parseTemplatesPage,
  parseUploadUrl,
  scribeStatusKind,
  type RecordingSession,
  type ScribeRecord,
  type ScribeRequest,
  type ScribeStatusKind,
  type Template,
  type TemplatesPage,
  type UploadUrl,
} from './workflow.ts';
export {
  CONCISE,
  DDX_DETAILS,
  DDX_FIELDS,
  parseDdxResult,
  parseTreatmentPlanResult,
  SUMMARY,
  TREATMENT_DETAILS,
  TREATMENT_FIELDS,
  type DdxDiagnosis,
  type DdxFieldKey,
  type DdxResult,
  type FieldSpec,
  type TreatmentFieldKey,
  type TreatmentPlan,
  type TreatmentPlanResult,
} from './agents.ts';
export {
  parseOrganizationUpdate,
  parseWebhookStatusUpdate,
  type Organization,
  type OrganizationUpdate,
  type Webhook,
  type WebhookStatusUpdate,
} from './organization.ts';
export {
  requestSchemas,
  type AgentRequest,
  type CreateSessionRequest,
  type NotificationEmailRequest,
  type RefreshRequest,
  type ScribeRequestBody,
  type SignInRequest,
  type UploadUrlRequest,
  type WebhookStatusRequest,
} from './requests.ts';
export type * from './wire.ts';
