// Every operation of the service in one table: its method, the base address it lives on, its path
// (with `{id}` parameters and the query it takes), and, where it has them, the schema of its
// request body and the tolerant reader of its answer. The client builds its requests from it, the
// sandbox registers its routes from it, and docs/service.md's table of operations is checked
// against it (test/shared/service/operations.test.ts), so a path is written here and nowhere else.
import type { z } from 'zod';
import { parseDdxResult, parseMedicationResult, parseTreatmentPlanResult } from './agents.ts';
import { parseLogin, parseMe, parseRefresh, parseSignIn } from './auth.ts';
import { chatRequestSchema, parseChatAnswer } from './chat.ts';
import type { Operation } from './errors.ts';
import { parseScribeListPage, parseRecordingSessionListPage } from './lists.ts';
import {
  parseOrganization,
  parseOrganizationUpdate,
  parseWebhookRegistration,
  parseWebhookStatusUpdate,
} from './organization.ts';
import { requestSchemas } from './requests.ts';
import {
  parseRecordingSession,
  parseScribeRecord,
  parseScribeRequest,
  parseTemplatesPage,
  parseUploadUrl,
} from './workflow.ts';

/**
 * The base addresses of the service (settings `serviceUrls`): the sign-in host, the scribing API
 * and the agents API. The three are kept apart and never assumed to be one.
 */
export type ServiceBase = 'agentsUrl' | 'scribeUrl' | 'agentsApiUrl';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH';

/** An operation on one of the service's own base addresses. */
export interface ApiOperationSpec {
  method: HttpMethod;
  base: ServiceBase;
  /** From the base address on; a `{name}` segment is a parameter (`/scribe/get/{id}`). */
  path: string;
  /** The query parameters it takes, in the order they are sent. */
  query?: readonly string[];
  /** The strict schema of its JSON body, as the sandbox checks it. */
  request?: z.ZodType;
  /** The tolerant reader of a 2xx answer's JSON body. */
  parse?: (body: unknown) => unknown;
}

/** The upload: cloud storage at the presigned address `POST /audio/generate-upload-url` answers. */
export interface PresignedOperationSpec {
  method: 'PUT';
  base: 'presigned';
}

export type OperationSpec = ApiOperationSpec | PresignedOperationSpec;

/**
 * The published operations: first those the app calls, keyed by their `Operation` name (in the
 * order of docs/service.md's table: the numbered ones, then the extras), then those it does not
 * call, which the sandbox serves so that a client can be tried against them.
 */
export const SERVICE_OPERATIONS = {
  'sign-in': {
    method: 'POST',
    base: 'agentsUrl',
    path: '/auth/sign-in',
    request: requestSchemas.signIn,
    parse: parseSignIn,
  },
  'refresh-token': {
    method: 'POST',
    base: 'scribeUrl',
    path: '/auth/refresh-token',
    request: requestSchemas.refresh,
    parse: parseRefresh,
  },
  login: { method: 'POST', base: 'scribeUrl', path: '/auth/login', request: requestSchemas.signIn, parse: parseLogin },
  'recording-session-create': {
    method: 'POST',
    base: 'scribeUrl',
    path: '/recording-sessions/create',
    request: requestSchemas.createRecordingSession,
    parse: parseRecordingSession,
  },
  templates: {
    method: 'GET',
    base: 'scribeUrl',
    path: '/templates/all',
    query: ['page', 'limit'],
    parse: parseTemplatesPage,
  },
  'upload-url': {
    method: 'POST',
    base: 'scribeUrl',
    path: '/audio/generate-upload-url',
    request: requestSchemas.uploadUrl,
    parse: parseUploadUrl,
  },
  upload: { method: 'PUT', base: 'presigned' },
  'scribe-request': {
    method: 'POST',
    base: 'scribeUrl',
    path: '/scribe/request',
    request: requestSchemas.scribeRequest,
    parse: parseScribeRequest,
  },
  'scribe-get': { method: 'GET', base: 'scribeUrl', path: '/scribe/get/{id}', parse: parseScribeRecord },
  'ddx-agent': {
    method: 'POST',
    base: 'agentsApiUrl',
    path: '/ddx_agent_v2',
    request: requestSchemas.agent,
    parse: parseDdxResult,
  },
  'treatment-plan-agent': {
    method: 'POST',
    base: 'agentsApiUrl',
    path: '/treatment_plan_agent_v2',
    request: requestSchemas.agent,
    parse: parseTreatmentPlanResult,
  },
  'notification-email': {
    method: 'PATCH',
    base: 'scribeUrl',
    path: '/organizations/update-email-for-notification',
    request: requestSchemas.notificationEmail,
    parse: parseOrganizationUpdate,
  },
  'webhook-status': {
    method: 'PATCH',
    base: 'scribeUrl',
    path: '/webhook/status',
    request: requestSchemas.webhookStatus,
    parse: parseWebhookStatusUpdate,
  },
  'users-me': { method: 'GET', base: 'scribeUrl', path: '/users/me', parse: parseMe },
  'organization-get': { method: 'GET', base: 'scribeUrl', path: '/organizations/get', parse: parseOrganization },
  'webhook-update': {
    method: 'PUT',
    base: 'scribeUrl',
    path: '/webhook/update',
    request: requestSchemas.webhookUpdate,
    parse: parseWebhookRegistration,
  },
  'medication-agent': {
    method: 'POST',
    base: 'agentsApiUrl',
    path: '/medication_agent_v2',
    request: requestSchemas.agent,
    parse: parseMedicationResult,
  },
  chat: { method: 'POST', base: 'agentsUrl', path: '/chat', request: chatRequestSchema, parse: parseChatAnswer },
  'scribe-all': {
    method: 'GET',
    base: 'scribeUrl',
    path: '/scribe/all',
    query: ['page', 'limit'],
    parse: parseScribeListPage,
  },
  'recording-sessions-all': {
    method: 'GET',
    base: 'scribeUrl',
    path: '/recording-sessions/all',
    query: ['page', 'limit'],
    parse: parseRecordingSessionListPage,
  },

  // Published, not called by the app: the sandbox serves them.
  'recording-session-get': { method: 'GET', base: 'scribeUrl', path: '/recording-sessions/get/{id}' },
  'chat-agent': { method: 'POST', base: 'agentsApiUrl', path: '/chat_agent', request: requestSchemas.chatAgent },
  'fast-ddx-agent': {
    method: 'POST',
    base: 'agentsApiUrl',
    path: '/fast_ddx_agent',
    request: requestSchemas.fastAgent,
  },
  'fast-treatment-plan-agent': {
    method: 'POST',
    base: 'agentsApiUrl',
    path: '/fast_treatment_plan_agent',
    request: requestSchemas.fastAgent,
  },
} as const satisfies Record<Operation, OperationSpec> & Record<string, OperationSpec>;

/** Every published operation's name: the app's `Operation`s and those only the sandbox serves. */
export type PublishedOperation = keyof typeof SERVICE_OPERATIONS;

/** The operations on the service's own base addresses (every one but the upload `PUT`). */
export type ApiOperation = {
  [K in PublishedOperation]: (typeof SERVICE_OPERATIONS)[K] extends ApiOperationSpec ? K : never;
}[PublishedOperation];

/** The app's operations whose answer the table reads. */
export type ParsedOperation = {
  [K in Operation]: (typeof SERVICE_OPERATIONS)[K] extends { parse: (body: unknown) => unknown } ? K : never;
}[Operation];

/** What an operation's table reader makes of its answer. */
export type OperationAnswer<O extends ParsedOperation> = ReturnType<(typeof SERVICE_OPERATIONS)[O]['parse']>;

/** An operation's entry; for the ones on the service's own addresses. */
export function apiOperation(name: ApiOperation): ApiOperationSpec {
  return SERVICE_OPERATIONS[name];
}

/** The `{name}` parameters of a path, in order (`/scribe/get/{id}`: `['id']`). */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([^}/]+)\}/g)].map((m) => m[1] as string);
}

/**
 * The path and query of one call of an operation: each `{name}` filled from `params`
 * (percent-encoded), then the query the table names, in its order, for each value given.
 */
export function operationTarget(
  name: ApiOperation,
  params: Readonly<Record<string, string>> = {},
  query: Readonly<Record<string, string | number>> = {},
): string {
  const spec = apiOperation(name);
  const path = spec.path.replace(/\{([^}/]+)\}/g, (_whole, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`${name}: the path parameter "${key}" is missing`);
    return encodeURIComponent(value);
  });
  const pairs = (spec.query ?? [])
    .filter((key) => query[key] !== undefined)
    .map((key) => `${key}=${encodeURIComponent(String(query[key]))}`);
  return pairs.length > 0 ? `${path}?${pairs.join('&')}` : path;
}
