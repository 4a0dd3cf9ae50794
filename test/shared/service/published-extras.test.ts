// The published operations beyond the numbered ones of docs/service.md that the app uses:
// /auth/login's token-only answer, /users/me, /organizations/get, /webhook/update, the medication
// agent, and the storage service's XML errors of the upload `PUT`.
import { describe, expect, it } from 'vitest';
import {
  parseLogin,
  parseMe,
  parseMedicationResult,
  parseOrganization,
  parseWebhookRegistration,
  ServiceResponseError,
  storageError,
  type MedicationResponseWire,
  type OrganizationGetResponseWire,
  type WebhookUpdateResponseWire,
} from '../../../src/shared/service/index.ts';

const jwt = (claims: object) =>
  `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2ln`;

describe('parseLogin (POST /auth/login as published)', () => {
  it('reads the OpenAPI answer, tokens only: expiry from the JWT, no user', () => {
    const access = jwt({ sub: 'u', exp: 1_795_600_000 });
    expect(parseLogin({ access_token: access, refresh_token: 'r.t.s', token_type: 'bearer' })).toEqual({
      accessToken: access,
      refreshToken: 'r.t.s',
      tokenType: 'bearer',
      expiresAt: 1_795_600_000,
    });
  });

  it("reads the page's answer with expiries and the user in the public_id names", () => {
    const answer = parseLogin({
      access_token: 'a.b.c',
      refresh_token: 'r.t.s',
      token_type: 'bearer',
      expires_at: 1_795_600_000,
      refresh_expires_at: 1_796_000_000,
      user: { public_id: 'u1', email: 'vet@clinic.test', name: 'Dr Vet', organization_public_id: 'o1' },
    });
    expect(answer.user).toEqual({ id: 'u1', email: 'vet@clinic.test', name: 'Dr Vet', organizationId: 'o1' });
    expect(answer.refreshExpiresAt).toBe(1_796_000_000);
  });

  it('still refuses an answer without a refresh token', () => {
    expect(() => parseLogin({ access_token: 'a.b.c' })).toThrow(/login: field "refresh_token" is missing/);
  });
});

describe('parseMe (GET /users/me)', () => {
  it('reads the published user, and the names of POST /auth/sign-in', () => {
    expect(
      parseMe({ public_id: 'u1', email: 'vet@clinic.test', name: 'Dr Vet', organization_public_id: 'o1' }),
    ).toEqual({
      id: 'u1',
      email: 'vet@clinic.test',
      name: 'Dr Vet',
      organizationId: 'o1',
    });
    expect(parseMe({ id: 'u2', email: 'b@clinic.test', name: null, organization_id: 'o2' })).toEqual({
      id: 'u2',
      email: 'b@clinic.test',
      name: '',
      organizationId: 'o2',
    });
  });

  it('names the missing organization', () => {
    expect(() => parseMe({ public_id: 'u1', email: 'vet@clinic.test' })).toThrow(ServiceResponseError);
    expect(() => parseMe({ public_id: 'u1', email: 'vet@clinic.test' })).toThrow(
      /users-me: field "organization_public_id"/,
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

describe('parseMedicationResult (POST /medication_agent_v2)', () => {
  const card = {
    drug_name_and_classification: 'Meloxicam, an NSAID (oxicam)',
    indications_and_uses: 'Pain and inflammation',
    dosing_by_species: 'Dog: 0.2 mg/kg once, then 0.1 mg/kg q24h. Cat: 0.05 mg/kg once.',
    contraindications: 'Renal disease, dehydration',
  };
  it('reads the map form drug -> card, concise and summary first', () => {
    const wire = {
      status: true,
      reason: 'Drug and species given',
      response: {
        'Plain English Concise': 'Meloxicam suits this dog.',
        'Plain English Summary': 'A daily anti-inflammatory.',
        'Medication Details': { Meloxicam: card },
      },
    } as unknown as MedicationResponseWire;
    const result = parseMedicationResult(wire);
    expect(result).toMatchObject({
      status: true,
      concise: 'Meloxicam suits this dog.',
      summary: 'A daily anti-inflammatory.',
    });
    expect(result.medications).toEqual([
      {
        label: 'Meloxicam',
        drugNameAndClassification: card.drug_name_and_classification,
        indicationsAndUses: card.indications_and_uses,
        dosingBySpecies: card.dosing_by_species,
        contraindications: card.contraindications,
      },
    ]);
  });

  it('reads a single card, labelled by its drug', () => {
    const result = parseMedicationResult({ status: true, reason: '', response: { 'Medication Details': card } });
    expect(result.medications[0]?.label).toBe('Meloxicam, an NSAID (oxicam)');
  });

  it('reads a refusal by its reason', () => {
    expect(parseMedicationResult({ status: false, reason: 'Name a drug and a species.' })).toEqual({
      status: false,
      reason: 'Name a drug and a species.',
      medications: [],
    });
  });

  it('names a card member of the wrong type', () => {
    expect(() =>
      parseMedicationResult({
        status: true,
        reason: '',
        response: { 'Medication Details': { Meloxicam: { dosing_by_species: 5 } } },
      }),
    ).toThrow(/medication-agent: field "response\["Medication Details"\]\.Meloxicam\.dosing_by_species"/);
  });
});

describe('storageError (the PUT to the presigned address, cloud-storage XML)', () => {
  it('reads the code and message of an expired address and of a bad signature', () => {
    const expired =
      '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message><RequestId>1</RequestId></Error>';
    expect(storageError(expired)).toEqual({ code: 'AccessDenied', message: 'Request has expired' });
    const bad =
      '<Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match the signature you provided. Check your key &amp; signing method.</Message></Error>';
    expect(storageError(bad)).toEqual({
      code: 'SignatureDoesNotMatch',
      message:
        'The request signature we calculated does not match the signature you provided. Check your key & signing method.',
    });
  });

  it('is not fooled by JSON, HTML or an Error without a code', () => {
    expect(storageError('{"detail":"Not authenticated"}')).toBeUndefined();
    expect(storageError('<html><body>502 Bad Gateway</body></html>')).toBeUndefined();
    expect(storageError('<Error><Message>no code</Message></Error>')).toBeUndefined();
    expect(storageError('<Error><Code>' + 'x'.repeat(5000) + '</Code></Error>')).toBeUndefined();
  });
});
