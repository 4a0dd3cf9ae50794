// Request bodies as the sandbox accepts them (DESIGN.md, "The service contract"): strict, so
// an unknown member is refused as a real validating server would. The client builds the same
// shapes; the types below keep the two in step.
import { z } from 'zod';

const email = z.string().trim().pipe(z.email({ error: 'must be an e-mail address' }).max(254, 'must be at most 254 characters'));
const uuid = z.uuid({ error: 'must be a UUID' });
const stringError = (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : 'must be a string');
const required = (max: number) => z.string({ error: stringError }).min(1, 'is required').max(max, `must be at most ${max} characters`);

export const requestSchemas = {
  /** Rows 1 and 3. */
  signIn: z.strictObject({ email, password: required(1024) }),
  /** Row 2: `token` is the refresh token. */
  refresh: z.strictObject({ token: required(8192) }),
  /** Row 4. */
  createSession: z.strictObject({ name: z.string().max(200, 'must be at most 200 characters').optional() }),
  /** Row 6. */
  uploadUrl: z.strictObject({
    recording_session_public_id: uuid,
    file_name: required(255),
    content_type: z.string().max(200).regex(/^audio\/[\w.+-]+(\s*;.*)?$/i, 'must be an audio/* content type'),
  }),
  /** Row 8. */
  scribeRequest: z.strictObject({ recording_session_public_id: uuid, template_public_id: required(100), file_key: required(1000) }),
  /** Rows 10 and 11. Emptiness and length are the agent's own checks (422), not the body's shape. */
  agent: z.strictObject({ input: z.string({ error: stringError }) }),
  /** Row 12. */
  notificationEmail: z.strictObject({ email }),
  /** Row 13. */
  webhookStatus: z.strictObject({ event_type: required(100), is_active: z.boolean({ error: 'must be true or false' }), organization_public_id: uuid }),
} as const;

export type SignInRequest = z.input<typeof requestSchemas.signIn>;
export type RefreshRequest = z.input<typeof requestSchemas.refresh>;
export type CreateSessionRequest = z.input<typeof requestSchemas.createSession>;
export type UploadUrlRequest = z.input<typeof requestSchemas.uploadUrl>;
export type ScribeRequestBody = z.input<typeof requestSchemas.scribeRequest>;
export type AgentRequest = z.input<typeof requestSchemas.agent>;
export type NotificationEmailRequest = z.input<typeof requestSchemas.notificationEmail>;
export type WebhookStatusRequest = z.input<typeof requestSchemas.webhookStatus>;
