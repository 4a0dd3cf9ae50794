// The service's operations (docs/service.md) over undici (the upload over node:http: upload.ts).
// Base addresses come from settings at each call; every call sends X-API-Version and has a
// time-out; the upload is streamed from disk with progress and a stall time-out. Answers go through
// the shared tolerant parsers, so a malformed answer becomes a ServiceError('invalid_answer')
// naming the field.
import { stat } from 'node:fs/promises';
import { errors as undiciErrors, request, type Dispatcher } from 'undici';
import {
  API_VERSION,
  API_VERSION_HEADER,
  parseDdxResult,
  parseLogin,
  parseMe,
  parseMedicationResult,
  parseOrganization,
  parseWebhookRegistration,
  parseOrganizationUpdate,
  parseRecordingSession,
  parseRefresh,
  parseScribeRecord,
  parseScribeRequest,
  parseSignIn,
  parseTemplatesPage,
  parseTreatmentPlanResult,
  parseUploadUrl,
  parseWebhookStatusUpdate,
  serviceErrorCode,
  serviceErrorMessage,
  ServiceResponseError,
  storageError,
  type CreateSessionRequest,
  type ScribeRequestBody,
  type UploadUrlRequest,
  type WebhookUpdateRequest,
} from '../../shared/service/index.ts';
import { parseRetryAfter, ServiceError } from './service-errors.ts';
import { connectionWords, describeNetworkFailure, Network, ProxySettingsError, type Route } from './network.ts';
import { putFile, PutFileError } from './upload.ts';

export interface ServiceUrls {
  agentsUrl: string;
  scribeUrl: string;
  agentsApiUrl: string;
}

export { API_VERSION } from '../../shared/service/index.ts';

export interface ServiceClientOptions {
  urls: () => ServiceUrls;
  /** Time-out of an ordinary call, in ms. */
  timeoutMs?: number;
  /** An upload that makes no progress for this long is abandoned, in ms. */
  uploadStallMs?: number;
  /** The route to the service: the computer's proxy and the roots it trusts (network.ts). */
  network?: Network;
  /** Debug lines: operation, status, time. Never a header or a body. */
  log?: (line: string) => void;
}

export interface UploadProgress {
  sent: number;
  total: number;
}

type Base = keyof ServiceUrls;
interface CallSpec {
  operation: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  base: Base;
  path: string;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

export class ServiceClient {
  private readonly options: Required<Omit<ServiceClientOptions, 'network' | 'log'>> & Pick<ServiceClientOptions, 'log'>;
  readonly network: Network;

  constructor(options: ServiceClientOptions) {
    this.options = { timeoutMs: 30_000, uploadStallMs: 60_000, ...options };
    this.network = options.network ?? new Network();
  }

  /** The route for an address; proxy settings that cannot be used are a network failure (the queue waits). */
  private async routeFor(operation: string, url: string): Promise<Route> {
    try {
      return await this.network.route(url);
    } catch (e) {
      if (e instanceof ProxySettingsError)
        throw new ServiceError('network', operation, e.message, { code: 'proxy_settings', cause: e });
      throw e;
    }
  }

  private async call<T>(spec: CallSpec, parse: (body: unknown) => T): Promise<T> {
    const url = joinUrl(this.options.urls()[spec.base], spec.path);
    const headers: Record<string, string> = {
      accept: 'application/json',
      [API_VERSION_HEADER]: API_VERSION,
      ...spec.headers,
    };
    if (spec.token) headers['authorization'] = `Bearer ${spec.token}`;
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers['content-type'] = 'application/json';
    }
    const route = await this.routeFor(spec.operation, url);
    const started = Date.now();
    // undici's own time-outs limit silence, not the call: an answer that trickles in a byte at a
    // time would never end. The deadline limits the whole call.
    const deadline = AbortSignal.timeout(this.options.timeoutMs);
    let answer: Dispatcher.ResponseData;
    let text: string;
    try {
      answer = await request(url, {
        method: spec.method,
        headers,
        body,
        signal: spec.signal ? AbortSignal.any([spec.signal, deadline]) : deadline,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        dispatcher: this.network.dispatcher(route),
      });
      text = await answer.body.text();
    } catch (e) {
      if (deadline.aborted && !spec.signal?.aborted) {
        throw new ServiceError('timeout', spec.operation, `The service did not answer ${spec.operation} in time.`, {
          cause: e,
        });
      }
      throw this.transportError(spec.operation, e, url, route);
    }
    this.options.log?.(`${spec.operation}: ${spec.method} ${answer.statusCode} in ${Date.now() - started} ms`);
    let json: unknown;
    try {
      json = text.trim() === '' ? undefined : (JSON.parse(text) as unknown);
    } catch {
      json = undefined;
      if (answer.statusCode < 300) {
        throw new ServiceError(
          'invalid_answer',
          spec.operation,
          `Unexpected answer from the service for ${spec.operation}: the body is not JSON.`,
          {
            status: answer.statusCode,
          },
        );
      }
    }
    if (answer.statusCode >= 300) {
      throw new ServiceError('http', spec.operation, serviceErrorMessage(json, text, answer.statusCode), {
        status: answer.statusCode,
        code: serviceErrorCode(json),
        retryAfterMs: parseRetryAfter(answer.headers['retry-after']),
      });
    }
    try {
      return parse(json);
    } catch (e) {
      if (e instanceof ServiceResponseError) {
        throw new ServiceError('invalid_answer', spec.operation, e.message, { status: answer.statusCode, cause: e });
      }
      throw e;
    }
  }

  private transportError(operation: string, e: unknown, url: string, route: Route): ServiceError {
    if (e instanceof ServiceError) return e;
    const failure = describeNetworkFailure(e, url, route);
    if (failure) return new ServiceError('network', operation, failure.message, { code: failure.code, cause: e });
    const err = e as Error & { code?: string };
    if (err.name === 'AbortError' || err.code === 'UND_ERR_ABORTED') {
      return new ServiceError('aborted', operation, `${operation} was cancelled.`, { cause: e });
    }
    if (
      e instanceof undiciErrors.HeadersTimeoutError ||
      e instanceof undiciErrors.BodyTimeoutError ||
      err.code === 'UND_ERR_CONNECT_TIMEOUT'
    ) {
      return new ServiceError('timeout', operation, `The service did not answer ${operation} in time.`, { cause: e });
    }
    return new ServiceError(
      'network',
      operation,
      `Could not reach the service for ${operation}: ${connectionWords(e, url) ?? (err.message || err.code || 'network error')}`.replace(
        /([^.])$/,
        '$1.',
      ),
      { cause: e },
    );
  }

  // `POST /auth/sign-in`, or `POST /auth/login` on the scribing API when the setting asks for it,
  // whose published answer may hold only the tokens: the session then asks /users/me for the user.
  signIn(email: string, password: string, { viaScribeLogin = false } = {}) {
    return viaScribeLogin
      ? this.call(
          { operation: 'login', method: 'POST', base: 'scribeUrl', path: '/auth/login', body: { email, password } },
          parseLogin,
        )
      : this.call(
          { operation: 'sign-in', method: 'POST', base: 'agentsUrl', path: '/auth/sign-in', body: { email, password } },
          parseSignIn,
        );
  }

  /** `GET /users/me`: who the token belongs to (after /auth/login, and the check at launch). */
  me(token: string) {
    return this.call({ operation: 'users-me', method: 'GET', base: 'scribeUrl', path: '/users/me', token }, parseMe);
  }

  // `POST /auth/refresh-token`. The bearer is the (usually expired) access token; the body carries the refresh token.
  refresh(accessToken: string, refreshToken: string) {
    return this.call(
      {
        operation: 'refresh-token',
        method: 'POST',
        base: 'scribeUrl',
        path: '/auth/refresh-token',
        token: accessToken,
        body: { token: refreshToken },
      },
      parseRefresh,
    );
  }

  /** `POST /recording-sessions/create`: the patient's name, the visit description (always sent, '' if none) and the local date. */
  createSession(
    token: string,
    input: { patientName: string; description: string; sessionDate: string },
    signal?: AbortSignal,
  ) {
    const body: CreateSessionRequest = {
      patient_name: input.patientName,
      description: input.description,
      session_date: input.sessionDate,
    };
    return this.call(
      {
        operation: 'create-session',
        method: 'POST',
        base: 'scribeUrl',
        path: '/recording-sessions/create',
        token,
        body,
        signal,
      },
      parseRecordingSession,
    );
  }

  /** `GET /templates/all`: one page. */
  templates(token: string, page = 1, limit = 50) {
    return this.call(
      {
        operation: 'templates',
        method: 'GET',
        base: 'scribeUrl',
        path: `/templates/all?page=${page}&limit=${limit}`,
        token,
      },
      parseTemplatesPage,
    );
  }

  /** `POST /audio/generate-upload-url`: the session only (and a template, when scribing should start by itself after the upload). */
  uploadUrl(token: string, input: { sessionId: string; autoScribeTemplateId?: string }, signal?: AbortSignal) {
    const body: UploadUrlRequest = {
      recording_session_public_id: input.sessionId,
      ...(input.autoScribeTemplateId ? { auto_scribe_template_public_id: input.autoScribeTemplateId } : {}),
    };
    return this.call(
      {
        operation: 'upload-url',
        method: 'POST',
        base: 'scribeUrl',
        path: '/audio/generate-upload-url',
        token,
        body,
        signal,
      },
      parseUploadUrl,
    );
  }

  /**
   * `PUT <presigned url>`: streams the file to the presigned address, reporting progress; never reads it whole.
   * A null content type sends none, as `curl -T` does: an address signed without one refuses a
   * request that carries a header it did not sign.
   */
  async upload(
    uploadUrl: string,
    filePath: string,
    contentType: string | null,
    {
      onProgress,
      signal,
      headers = {},
    }: { onProgress?: (p: UploadProgress) => void; signal?: AbortSignal; headers?: Record<string, string> } = {},
  ): Promise<void> {
    const operation = 'upload';
    const { size } = await stat(filePath);
    let url: URL;
    try {
      url = new URL(uploadUrl);
    } catch (e) {
      throw new ServiceError(
        'invalid_answer',
        operation,
        `The upload address given by the service is not a URL: "${uploadUrl.slice(0, 200)}".`,
        { cause: e },
      );
    }
    const route = await this.routeFor(operation, uploadUrl);
    const started = Date.now();
    let answer;
    try {
      answer = await putFile(url, filePath, size, {
        agent: this.network.uploadAgent(route),
        secureContext: url.protocol === 'https:' ? this.network.secureContext : undefined,
        headers: { ...(contentType ? { 'content-type': contentType } : {}), ...headers },
        onProgress: (sent, total) => onProgress?.({ sent, total }),
        signal,
        stallMs: this.options.uploadStallMs,
        answerMs: this.options.timeoutMs,
      });
    } catch (e) {
      if (e instanceof PutFileError) {
        if (e.kind === 'aborted')
          throw new ServiceError('aborted', operation, `${operation} was cancelled.`, { cause: e });
        if (e.kind === 'stalled')
          throw new ServiceError(
            'timeout',
            operation,
            `The upload made no progress for ${Math.round(this.options.uploadStallMs / 1000)} s.`,
            { cause: e },
          );
        if (e.kind === 'no_answer')
          throw new ServiceError('timeout', operation, `The service did not answer ${operation} in time.`, {
            cause: e,
          });
      }
      const failure = describeNetworkFailure(e, uploadUrl, route);
      if (failure) throw new ServiceError('network', operation, failure.message, { code: failure.code, cause: e });
      throw new ServiceError(
        'network',
        operation,
        `Could not reach the service for ${operation}: ${connectionWords(e, uploadUrl) ?? ((e as Error).message || 'network error')}`.replace(
          /([^.])$/,
          '$1.',
        ),
        { cause: e },
      );
    }
    this.options.log?.(`${operation}: PUT ${answer.status}, ${size} bytes in ${Date.now() - started} ms`);
    if (answer.status >= 300) {
      // Cloud storage answers in XML (docs/service.md, "Upload"); its code decides renew or stop.
      const storage = storageError(answer.text);
      if (storage) {
        const words = storage.message.replace(/[.\s]+$/, '');
        throw new ServiceError(
          'http',
          operation,
          `The storage service refused the upload${words ? `: ${words}` : ''} (${storage.code}).`,
          {
            status: answer.status,
            code: storage.code,
            retryAfterMs: parseRetryAfter(answer.headers['retry-after']),
          },
        );
      }
      let json: unknown;
      try {
        json = JSON.parse(answer.text) as unknown;
      } catch {
        json = undefined;
      }
      throw new ServiceError('http', operation, serviceErrorMessage(json, answer.text, answer.status), {
        status: answer.status,
        code: serviceErrorCode(json),
        retryAfterMs: parseRetryAfter(answer.headers['retry-after']),
      });
    }
  }

  /** `POST /scribe/request`: the two documented fields; the Idempotency-Key lets a resend after a lost answer find the first record. */
  requestScribe(
    token: string,
    input: { sessionId: string; templateId: string; idempotencyKey: string },
    signal?: AbortSignal,
  ) {
    const body: ScribeRequestBody = {
      recording_session_public_id: input.sessionId,
      template_public_id: input.templateId,
    };
    return this.call(
      {
        operation: 'scribe-request',
        method: 'POST',
        base: 'scribeUrl',
        path: '/scribe/request',
        token,
        headers: { 'idempotency-key': input.idempotencyKey },
        body,
        signal,
      },
      parseScribeRequest,
    );
  }

  /** `GET /scribe/get/{id}`. */
  getScribe(token: string, id: string, signal?: AbortSignal) {
    return this.call(
      {
        operation: 'scribe-get',
        method: 'GET',
        base: 'scribeUrl',
        path: `/scribe/get/${encodeURIComponent(id)}`,
        token,
        signal,
      },
      parseScribeRecord,
    );
  }

  /** `POST /ddx_agent_v2`. */
  ddx(token: string, input: string, signal?: AbortSignal) {
    return this.call(
      {
        operation: 'ddx-agent',
        method: 'POST',
        base: 'agentsApiUrl',
        path: '/ddx_agent_v2',
        token,
        body: { input },
        signal,
      },
      parseDdxResult,
    );
  }

  /** `POST /treatment_plan_agent_v2`. */
  treatmentPlan(token: string, input: string, signal?: AbortSignal) {
    return this.call(
      {
        operation: 'treatment-plan-agent',
        method: 'POST',
        base: 'agentsApiUrl',
        path: '/treatment_plan_agent_v2',
        token,
        body: { input },
        signal,
      },
      parseTreatmentPlanResult,
    );
  }

  /** `POST /medication_agent_v2`: the input names a drug and a species. */
  medication(token: string, input: string, signal?: AbortSignal) {
    return this.call(
      {
        operation: 'medication-agent',
        method: 'POST',
        base: 'agentsApiUrl',
        path: '/medication_agent_v2',
        token,
        body: { input },
        signal,
      },
      parseMedicationResult,
    );
  }

  /** `GET /organizations/get`: the organization, with the notification address in force. */
  organization(token: string) {
    return this.call(
      { operation: 'organization-get', method: 'GET', base: 'scribeUrl', path: '/organizations/get', token },
      parseOrganization,
    );
  }

  /**
   * `PUT /webhook/update`: the clinic's endpoint and the secret the service signs with. Only the
   * operation is logged; a refusal that quotes the secret (a service or proxy echoing the body)
   * has it taken out of the message before anyone can show or log it.
   */
  async registerWebhook(token: string, input: { url: string; secret: string }) {
    const body: WebhookUpdateRequest = { event_type: 'scribe', webhook_url: input.url, auth_token: input.secret };
    try {
      return await this.call(
        { operation: 'webhook-update', method: 'PUT', base: 'scribeUrl', path: '/webhook/update', token, body },
        parseWebhookRegistration,
      );
    } catch (e) {
      if (e instanceof ServiceError && input.secret !== '' && e.message.includes(input.secret)) {
        throw new ServiceError(e.kind, e.operation, e.message.split(input.secret).join('[secret]'), {
          status: e.status,
          code: e.code,
          retryAfterMs: e.retryAfterMs,
        });
      }
      throw e;
    }
  }

  /** `PATCH /organizations/update-email-for-notification`. */
  updateNotificationEmail(token: string, email: string) {
    return this.call(
      {
        operation: 'notification-email',
        method: 'PATCH',
        base: 'scribeUrl',
        path: '/organizations/update-email-for-notification',
        token,
        body: { email },
      },
      parseOrganizationUpdate,
    );
  }

  /** `PATCH /webhook/status`. */
  setWebhookStatus(token: string, input: { eventType: string; active: boolean; organizationId: string }) {
    return this.call(
      {
        operation: 'webhook-status',
        method: 'PATCH',
        base: 'scribeUrl',
        path: '/webhook/status',
        token,
        body: { event_type: input.eventType, is_active: input.active, organization_public_id: input.organizationId },
      },
      parseWebhookStatusUpdate,
    );
  }
}
