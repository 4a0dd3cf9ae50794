// The organization and its webhook: `GET /organizations/get`,
// `PATCH /organizations/update-email-for-notification`, `PATCH /webhook/status` and
// `PUT /webhook/update` (docs/service.md). The three changes answer `{ message, data }`; the
// resource is also read bare.
import { z } from 'zod';
import { optionalId, isRecord, parseAnswer, publicId, publicIdOf, text } from './envelope.ts';

export interface Organization {
  id: string;
  name: string;
  description?: string;
  hasSlackBotToken?: boolean;
  /** null when unset. */
  slackChannel: string | null;
  /** The address that receives notifications; null when unset. */
  emailNotification: string | null;
  isActive?: boolean;
}

export interface Webhook {
  id: string;
  eventType: string;
  /** true: notifications for the event type are enabled. */
  isActive: boolean;
  organizationId?: string;
}

export interface OrganizationUpdate {
  message?: string;
  organization: Organization;
}

export interface WebhookStatusUpdate {
  message?: string;
  webhook: Webhook;
}

const nullableText = z
  .string()
  .nullish()
  .transform((v) => (v === undefined || v === null || v.trim() === '' ? null : v));

const organizationSchema = z
  .object({
    ...publicId,
    name: z.string(),
    description: text,
    has_slack_bot_token: z.boolean().nullish(),
    slack_channel: nullableText,
    email_notification: nullableText,
    is_active: z.boolean().nullish(),
  })
  .transform((w, ctx): Organization => {
    return {
      id: publicIdOf(w, ctx),
      name: w.name,
      ...(w.description !== undefined ? { description: w.description } : {}),
      ...(typeof w.has_slack_bot_token === 'boolean' ? { hasSlackBotToken: w.has_slack_bot_token } : {}),
      slackChannel: w.slack_channel,
      emailNotification: w.email_notification,
      ...(typeof w.is_active === 'boolean' ? { isActive: w.is_active } : {}),
    };
  });

/**
 * A webhook as `PATCH /webhook/status` answers it (`is_active` required) or as a registration's
 * answer names it, where a new registration is active unless it says not.
 */
function webhookSchema(isActive: z.ZodType<boolean | null | undefined>) {
  return z
    .object({
      ...publicId,
      event_type: z.string().trim().min(1, 'must not be empty'),
      is_active: isActive,
      organization_public_id: optionalId,
    })
    .transform((w, ctx): Webhook => ({
      id: publicIdOf(w, ctx),
      eventType: w.event_type,
      isActive: w.is_active ?? true,
      ...(w.organization_public_id ? { organizationId: w.organization_public_id } : {}),
    }));
}
const statusWebhookSchema = webhookSchema(z.boolean());
const registeredWebhookSchema = webhookSchema(z.boolean().nullish());

function messageOf(body: unknown): { message?: string } {
  const message = isRecord(body) ? body['message'] : undefined;
  return typeof message === 'string' && message.trim() !== '' ? { message } : {};
}

/** `PATCH /organizations/update-email-for-notification`: `{ message, data: organization }`. */
export function parseOrganizationUpdate(body: unknown): OrganizationUpdate {
  const organization = parseAnswer('notification-email', organizationSchema, body);
  return { ...messageOf(body), organization };
}

/** `PATCH /webhook/status`: `{ message, data: webhook }`. */
export function parseWebhookStatusUpdate(body: unknown): WebhookStatusUpdate {
  const webhook = parseAnswer('webhook-status', statusWebhookSchema, body);
  return { ...messageOf(body), webhook };
}

/** `GET /organizations/get`: the organization, bare or under `data`. */
export function parseOrganization(body: unknown): Organization {
  return parseAnswer('organization-get', organizationSchema, body);
}

/** `PUT /webhook/update`: `{ message, data: webhook }`. */
export function parseWebhookRegistration(body: unknown): WebhookStatusUpdate {
  const webhook = parseAnswer('webhook-update', registeredWebhookSchema, body);
  return { ...messageOf(body), webhook };
}
