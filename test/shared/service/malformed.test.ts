// Every operation with a JSON answer, fed answers that are not its shape: each must fail with
// a ServiceResponseError naming the operation, never crash nor return something half-made.
import { describe, expect, it } from 'vitest';
import {
  EXTRA_OPERATIONS,
  OPERATIONS,
  parseChatAnswer,
  parseDdxResult,
  parseLogin,
  parseMe,
  parseMedicationResult,
  parseOrganization,
  parseOrganizationUpdate,
  parseWebhookRegistration,
  parseRecordingSession,
  parseRefresh,
  parseScribeRecord,
  parseScribeRequest,
  parseSignIn,
  parseTemplatesPage,
  parseTreatmentPlanResult,
  parseUploadUrl,
  parseWebhookStatusUpdate,
  ServiceResponseError,
  type Operation,
} from '../../../src/shared/service/index.ts';
import { parseScribeListPage, parseRecordingSessionListPage } from '../../../src/shared/service/lists.ts';

// The PUT to the presigned address answers storage's own body, which is not read.
const PARSERS: Record<Exclude<Operation, 'upload'>, (body: unknown) => unknown> = {
  'sign-in': (b) => parseSignIn(b),
  'refresh-token': parseRefresh,
  login: parseLogin,
  'recording-session-create': parseRecordingSession,
  templates: parseTemplatesPage,
  'upload-url': parseUploadUrl,
  'scribe-request': parseScribeRequest,
  'scribe-get': parseScribeRecord,
  'ddx-agent': parseDdxResult,
  'treatment-plan-agent': parseTreatmentPlanResult,
  'notification-email': parseOrganizationUpdate,
  'webhook-status': parseWebhookStatusUpdate,
  'users-me': parseMe,
  'organization-get': parseOrganization,
  'webhook-update': parseWebhookRegistration,
  'medication-agent': parseMedicationResult,
  chat: parseChatAnswer,
  'scribe-all': parseScribeListPage,
  'recording-sessions-all': parseRecordingSessionListPage,
};

// The answer as a whole is wrong (field ''), or one member of it is (a field is named).
const MALFORMED: [string, unknown, 'answer' | 'field', RegExp][] = [
  ['undefined (an empty body)', undefined, 'answer', /the answer is missing$/],
  ['null', null, 'answer', /the answer must be an object, got null$/],
  ['a string', 'OK', 'answer', /the answer must be an object, got string$/],
  ['a number', 200, 'answer', /the answer must be an object, got number$/],
  ['a boolean', true, 'answer', /the answer must be an object, got boolean$/],
  ['an empty object', {}, 'field', /is missing$/],
  [
    'an envelope with null data',
    { message: 'ok', data: null },
    'field',
    /is missing$|"data" must be an array, got null$/,
  ],
  [
    'an envelope with empty data',
    { message: 'ok', data: {} },
    'field',
    /field "data\.[^"]+"( \(or [^)]+\))? is missing$/,
  ],
  [
    'an envelope with a string as data',
    { message: 'ok', data: 'done' },
    'field',
    /is missing$|"data" must be an array, got string$/,
  ],
];

describe('malformed answers', () => {
  it('cover every operation but the upload PUT, and the published extras', () => {
    expect(Object.keys(PARSERS).sort()).toEqual(
      [...OPERATIONS.filter((o) => o !== 'upload'), ...EXTRA_OPERATIONS].sort(),
    );
  });

  for (const [operation, parse] of Object.entries(PARSERS)) {
    it.each(MALFORMED)(`${operation}: %s`, (_name, body, kind, problem) => {
      let caught: unknown;
      try {
        parse(body);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(ServiceResponseError);
      const e = caught as ServiceResponseError;
      expect(e.operation).toBe(operation);
      expect(e.message).toContain(`for ${operation}: `);
      expect(e.message).toMatch(problem);
      if (kind === 'answer') expect(e.field).toBe('');
      else {
        expect(e.field).not.toBe('');
        expect(e.message).toContain(`field "${e.field}"`);
      }
    });

    it(`${operation}: an array fails too, unless it is the templates list`, () => {
      if (operation === 'templates') {
        expect(parse([])).toEqual({ items: [] });
        return;
      }
      // The organization's lists are read from a bare array too (a list of items, no paging said).
      if (operation === 'scribe-all' || operation === 'recording-sessions-all') {
        expect(parse([])).toEqual({ items: [], hasNext: undefined });
        return;
      }
      expect(() => parse([{ public_id: 'x' }])).toThrow(`for ${operation}: the answer must be an object, got array`);
    });
  }
});
