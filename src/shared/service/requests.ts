// Request bodies as the published service takes them (docs/service.md), as the sandbox checks them:
// strict where the OpenAPI document lists the members, so an unknown member is refused as a
// validating server would. The client builds the same shapes; the types below keep the two in
// step.
import { z } from 'zod';
import { MAX_DESCRIPTION, MAX_EMAIL, MAX_PATIENT_NAME, MAX_SECRET, MAX_URL } from '../limits.ts';

const email = z
  .string()
  .trim()
  .pipe(z.email({ error: 'must be an e-mail address' }).max(MAX_EMAIL, `must be at most ${MAX_EMAIL} characters`));
const uuid = z.uuid({ error: 'must be a UUID' });
const stringError = (issue: { input?: unknown }) =>
  issue.input === undefined ? 'Field required' : 'Input should be a valid string';
const required = (max: number) =>
  z
    .string({ error: stringError })
    .min(1, 'String should have at least 1 character')
    .max(max, `String should have at most ${max} characters`);
/** `YYYY-MM-DD`, a real calendar day. */
const isoDate = z
  .string({ error: stringError })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Input should be a valid date in the format YYYY-MM-DD')
  .refine((d) => {
    const t = Date.parse(`${d}T00:00:00Z`);
    return Number.isFinite(t) && new Date(t).toISOString().startsWith(d);
  }, 'Input should be a valid date');

export const requestSchemas = {
  /** `POST /auth/sign-in` and `POST /auth/login`. */
  signIn: z.strictObject({ email, password: required(MAX_SECRET) }),
  /** `POST /auth/refresh-token`: `token` is the refresh token. */
  refresh: z.strictObject({ token: required(8192) }),
  /**
   * `POST /recording-sessions/create`. `patient_name` names the patient spoken of in the audio; `session_date` is required
   * on the page and `description` in the OpenAPI document, so both are required here (the client
   * sends an empty description when there is none).
   */
  createRecordingSession: z.strictObject({
    patient_name: z
      .string({ error: stringError })
      .trim()
      .min(1, 'String should have at least 1 character')
      .max(MAX_PATIENT_NAME, `String should have at most ${MAX_PATIENT_NAME} characters`),
    description: z
      .string({ error: stringError })
      .max(MAX_DESCRIPTION, `String should have at most ${MAX_DESCRIPTION} characters`),
    session_date: isoDate,
  }),
  /** `POST /audio/generate-upload-url`. */
  uploadUrl: z.strictObject({
    recording_session_public_id: required(100),
    auto_scribe_template_public_id: z.string({ error: stringError }).min(1).max(100).optional(),
  }),
  /** `POST /scribe/request`. */
  scribeRequest: z.strictObject({ recording_session_public_id: required(100), template_public_id: required(100) }),
  /** `POST /ddx_agent_v2`, `/treatment_plan_agent_v2` and `/medication_agent_v2`. Emptiness and length are the agent's own checks (422). */
  agent: z.strictObject({ input: z.string({ error: stringError }) }),
  /** The fast agents take `message`. */
  fastAgent: z.strictObject({ message: z.string({ error: stringError }) }),
  /** `POST /chat_agent`. */
  chatAgent: z.strictObject({
    input: z.string({ error: stringError }),
    model: z.string({ error: stringError }).max(100).optional(),
  }),
  /** `PATCH /organizations/update-email-for-notification`. */
  notificationEmail: z.strictObject({ email }),
  /** `PATCH /webhook/status`. */
  webhookStatus: z.strictObject({
    event_type: required(100),
    is_active: z.boolean({ error: 'Input should be a valid boolean' }),
    organization_public_id: uuid,
  }),
  /** `PUT /webhook/update`: registers the clinic's endpoint and the secret the service signs with. */
  webhookUpdate: z.strictObject({
    event_type: required(100),
    webhook_url: z
      .string({ error: stringError })
      .max(MAX_URL)
      .pipe(z.url({ error: 'Input should be a valid URL' })),
    auth_token: required(MAX_SECRET),
  }),
} as const;

export type SignInRequest = z.input<typeof requestSchemas.signIn>;
export type RefreshRequest = z.input<typeof requestSchemas.refresh>;
export type CreateRecordingSessionRequest = z.input<typeof requestSchemas.createRecordingSession>;
export type UploadUrlRequest = z.input<typeof requestSchemas.uploadUrl>;
export type ScribeRequestBody = z.input<typeof requestSchemas.scribeRequest>;
export type AgentRequest = z.input<typeof requestSchemas.agent>;
export type FastAgentRequest = z.input<typeof requestSchemas.fastAgent>;
export type ChatAgentRequest = z.input<typeof requestSchemas.chatAgent>;
export type NotificationEmailRequest = z.input<typeof requestSchemas.notificationEmail>;
export type WebhookStatusRequest = z.input<typeof requestSchemas.webhookStatus>;
export type WebhookUpdateRequest = z.input<typeof requestSchemas.webhookUpdate>;
