import { describe, expect, it } from 'vitest';
import {
  parseOrganization,
  parseOrganizationUpdate,
  parseWebhookRegistration,
  parseWebhookStatusUpdate,
  type OrganizationGetResponseWire,
  type OrganizationUpdateResponseWire,
  type WebhookStatusResponseWire,
  type WebhookUpdateResponseWire,
} from '../../../src/shared/service/index.ts';
import { expectFailure, fixture } from '../../support/service-answers.ts';

describe('parseOrganizationUpdate (PATCH /organizations/update-email-for-notification)', () => {
  it('reads { message, data: organization }', () => {
    expect(parseOrganizationUpdate(fixture('organization-update.json'))).toEqual({
      message: 'Notification e-mail updated',
      organization: {
        id: '0f8e3c2a-7d1b-4e6f-8a9c-1b2d3e4f5a6b',
        name: 'Riverside Veterinary Clinic',
        description: 'Small-animal practice',
        hasSlackBotToken: false,
        slackChannel: null,
        emailNotification: 'alerts@example-clinic.test',
        isActive: true,
      },
    });
  });

  it('agrees with the wire type the sandbox writes', () => {
    const wire: OrganizationUpdateResponseWire = {
      message: 'ok',
      data: {
        public_id: 'o',
        name: 'N',
        description: '',
        has_slack_bot_token: true,
        slack_channel: '#alerts',
        email_notification: null,
        is_active: false,
      },
    };
    expect(parseOrganizationUpdate(wire).organization).toEqual({
      id: 'o',
      name: 'N',
      hasSlackBotToken: true,
      slackChannel: '#alerts',
      emailNotification: null,
      isActive: false,
    });
  });

  it('reads a bare organization, with absent nullable fields as null', () => {
    expect(parseOrganizationUpdate({ id: 'o', name: 'N' })).toEqual({
      organization: { id: 'o', name: 'N', slackChannel: null, emailNotification: null },
    });
  });

  it('fails on a malformed answer', () => {
    const data = fixture('organization-update.json')['data'] as Record<string, unknown>;
    expectFailure(
      () => parseOrganizationUpdate(null),
      'notification-email',
      '',
      'for notification-email: the answer must be an object, got null',
    );
    expectFailure(
      () => parseOrganizationUpdate({ message: 'ok' }),
      'notification-email',
      'name',
      'field "name" is missing',
    );
    expectFailure(
      () => parseOrganizationUpdate({ message: 'ok', data: { ...data, public_id: null } }),
      'notification-email',
      'data.public_id',
      '(or "id") is missing',
    );
    expectFailure(
      () => parseOrganizationUpdate({ message: 'ok', data: { ...data, email_notification: 5 } }),
      'notification-email',
      'data.email_notification',
      'must be a string, got number',
    );
    expectFailure(
      () => parseOrganizationUpdate({ message: 'ok', data: { ...data, is_active: 'yes' } }),
      'notification-email',
      'data.is_active',
      'must be true or false, got string',
    );
    expectFailure(
      () => parseOrganizationUpdate({ message: 'ok', data: { ...data, name: undefined } }),
      'notification-email',
      'data.name',
      'field "data.name" is missing',
    );
  });
});

describe('parseWebhookStatusUpdate (PATCH /webhook/status)', () => {
  it('reads { message, data: webhook }', () => {
    expect(parseWebhookStatusUpdate(fixture('webhook-status.json'))).toEqual({
      message: 'Webhook deactivated',
      webhook: {
        id: '7e6d5c4b-3a2f-4e1d-9c8b-7a6f5e4d3c2b',
        eventType: 'scribe',
        isActive: false,
        organizationId: '0f8e3c2a-7d1b-4e6f-8a9c-1b2d3e4f5a6b',
      },
    });
  });

  it('agrees with the wire type the sandbox writes, and reads it bare', () => {
    const wire: WebhookStatusResponseWire = {
      message: 'Webhook activated',
      data: { public_id: 'w', event_type: 'scribe', is_active: true, organization_public_id: 'o' },
    };
    expect(parseWebhookStatusUpdate(wire).webhook.isActive).toBe(true);
    expect(parseWebhookStatusUpdate(wire.data)).toEqual({
      webhook: { id: 'w', eventType: 'scribe', isActive: true, organizationId: 'o' },
    });
  });

  it('fails on a malformed answer', () => {
    const data = fixture('webhook-status.json')['data'] as Record<string, unknown>;
    expectFailure(() => parseWebhookStatusUpdate('done'), 'webhook-status', '', 'must be an object, got string');
    expectFailure(
      () => parseWebhookStatusUpdate({ data: { ...data, is_active: undefined } }),
      'webhook-status',
      'data.is_active',
      'field "data.is_active" is missing',
    );
    expectFailure(
      () => parseWebhookStatusUpdate({ data: { ...data, is_active: 'false' } }),
      'webhook-status',
      'data.is_active',
      'must be true or false, got string',
    );
    expectFailure(
      () => parseWebhookStatusUpdate({ data: { ...data, event_type: ['scribe'] } }),
      'webhook-status',
      'data.event_type',
      'must be a string, got array',
    );
    expectFailure(
      () => parseWebhookStatusUpdate({ data: { ...data, organization_public_id: {} } }),
      'webhook-status',
      'data.organization_public_id',
      'must be a string, got object',
    );
  });
});

describe('parseOrganization (GET /organizations/get)', () => {
  it('reads the notification address in force', () => {
    const wire: OrganizationGetResponseWire = {
      public_id: 'o1',
      name: 'Riverside Vets',
      description: 'Small animals',
      has_slack_bot_token: false,
      slack_channel: null,
      email_notification: 'alerts@riverside.test',
    };
    expect(parseOrganization(wire)).toMatchObject({
      id: 'o1',
      name: 'Riverside Vets',
      emailNotification: 'alerts@riverside.test',
      slackChannel: null,
    });
    expect(parseOrganization({ ...wire, email_notification: '' }).emailNotification).toBeNull();
    expect(parseOrganization({ message: 'ok', data: wire }).id).toBe('o1');
  });
});

describe('parseWebhookRegistration (PUT /webhook/update)', () => {
  it('reads { message, data: webhook }; active unless it says not', () => {
    const wire: WebhookUpdateResponseWire = {
      message: 'Webhook updated',
      data: {
        public_id: 'w1',
        event_type: 'scribe',
        is_active: true,
        organization_public_id: 'o1',
      } as WebhookUpdateResponseWire['data'],
    };
    expect(parseWebhookRegistration(wire)).toEqual({
      message: 'Webhook updated',
      webhook: { id: 'w1', eventType: 'scribe', isActive: true, organizationId: 'o1' },
    });
    expect(parseWebhookRegistration({ data: { public_id: 'w1', event_type: 'scribe' } }).webhook.isActive).toBe(true);
    expect(
      parseWebhookRegistration({ data: { public_id: 'w1', event_type: 'scribe', is_active: false } }).webhook.isActive,
    ).toBe(false);
    expect(() => parseWebhookRegistration({ message: 'ok' })).toThrow(/webhook-update/);
  });
});
