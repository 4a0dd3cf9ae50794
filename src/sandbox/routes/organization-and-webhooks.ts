// The organization and its webhooks on {scribe_url}: GET /organizations/get,
// PATCH /organizations/update-email-for-notification, PUT /webhook/update (registers the
// endpoint and secret deliveries go to) and PATCH /webhook/status.
import type {
  OrganizationGetResponseWire,
  OrganizationUpdateResponseWire,
  OrganizationWire,
  WebhookStatusResponseWire,
  WebhookUpdateResponseWire,
  WebhookWire,
} from '../../shared/service/wire.ts';
import { ApiError, readBody, type Router } from '../http.ts';
import type { OrganizationRecord, WebhookRecord } from '../state.ts';
import { schemas, serve, signedInUser, type ServerParts } from './common.ts';

function organizationJson(org: OrganizationRecord): OrganizationWire {
  const { public_id, name, description, has_slack_bot_token, slack_channel, email_notification, is_active } = org;
  return { public_id, name, description, has_slack_bot_token, slack_channel, email_notification, is_active };
}

/** A webhook as answered: without its `webhook_url` and `auth_token`, which are never answered back. */
function webhookJson(hook: WebhookRecord): WebhookWire {
  const { public_id, event_type, is_active, organization_public_id } = hook;
  return { public_id, event_type, is_active, organization_public_id };
}

export function organizationAndWebhookRoutes(router: Router, parts: ServerParts): void {
  const { store, auth } = parts;
  const state = store.state;

  serve(router, 'organization-get', async (ctx) => {
    const { user: account } = await signedInUser(auth, ctx);
    const org = state.organizations.find((o) => o.public_id === account.organization_id);
    if (!org) throw new ApiError(404, 'not_found', 'Organization not found.');
    const { is_active: _active, ...published } = organizationJson(org);
    const answer: OrganizationGetResponseWire = published;
    return { body: answer };
  });

  serve(router, 'webhook-update', async (ctx) => {
    const { user: account } = await signedInUser(auth, ctx);
    const body = await readBody(ctx.req, schemas.webhookUpdate);
    let hook = state.webhooks.find(
      (w) => w.organization_public_id === account.organization_id && w.event_type === body.event_type,
    );
    if (!hook) {
      hook = {
        public_id: crypto.randomUUID(),
        event_type: body.event_type,
        is_active: true,
        organization_public_id: account.organization_id,
      };
      state.webhooks.push(hook);
    }
    hook.webhook_url = body.webhook_url;
    hook.auth_token = body.auth_token;
    hook.is_active = true;
    store.save();
    const answer: WebhookUpdateResponseWire = { message: 'Webhook updated successfully', data: webhookJson(hook) };
    return { body: answer };
  });

  serve(router, 'notification-email', async (ctx) => {
    const { user: account } = await signedInUser(auth, ctx);
    const body = await readBody(ctx.req, schemas.notificationEmail);
    const org = state.organizations.find((o) => o.public_id === account.organization_id);
    if (!org) throw new ApiError(404, 'not_found', 'Your organization no longer exists.');
    org.email_notification = body.email;
    store.save();
    const answer: OrganizationUpdateResponseWire = {
      message: 'Notification e-mail updated',
      data: organizationJson(org),
    };
    return { body: answer };
  });

  serve(router, 'webhook-status', async (ctx) => {
    const { user: account } = await signedInUser(auth, ctx);
    const body = await readBody(ctx.req, schemas.webhookStatus);
    if (body.organization_public_id !== account.organization_id) {
      throw new ApiError(403, 'forbidden', 'You may change the webhooks of your own organization only.');
    }
    const hook = state.webhooks.find(
      (w) => w.organization_public_id === body.organization_public_id && w.event_type === body.event_type,
    );
    if (!hook)
      throw new ApiError(404, 'not_found', `No webhook for event type "${body.event_type}" in your organization.`);
    hook.is_active = body.is_active;
    store.save();
    const answer: WebhookStatusResponseWire = {
      message: `Webhook ${body.is_active ? 'activated' : 'deactivated'}`,
      data: webhookJson(hook),
    };
    return { body: answer };
  });
}
