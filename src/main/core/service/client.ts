// The service's operations (docs/service.md), one method each, by area: sign-in and tokens, the
// consult's workflow (recording session, templates, upload address, the upload, scribe), the agents, the
// organization and its webhook. How a call travels is transport.ts (undici, the
// X-API-Version header, a time-out, the tolerant parsers); the upload's `PUT` over node:http
// is upload-file.ts. Each operation's method, base address, path and answer reader
// are its entry in the table of operations (src/shared/service/operations.ts).
import {
  API_VERSION_HEADER,
  CHAT_API_VERSION,
  parseScribeRecord,
  type ChatRequest,
  type CreateRecordingSessionRequest,
  type ScribeRequestBody,
  type UploadUrlRequest,
  type WebhookUpdateRequest,
} from '../../../shared/service/index.ts';
import { scribeRecordingSessionId } from '../../../shared/service/lists.ts';
import { ServiceError } from './errors.ts';
import { ServiceTransport } from './transport.ts';
import { uploadFile, type UploadProgress, type UploadRoute } from './upload-file.ts';

export { API_VERSION } from '../../../shared/service/index.ts';
export type { ServiceClientOptions, ServiceUrls } from './transport.ts';
export type { UploadProgress } from './upload-file.ts';

type UploadOptions = {
  onProgress?: (p: UploadProgress) => void;
  signal?: AbortSignal;
  headers?: Record<string, string>;
};

export class ServiceClient extends ServiceTransport {
  // `POST /auth/sign-in`, or `POST /auth/login` on the scribing API when the setting asks for it,
  // whose published answer may hold only the tokens: the session then asks /users/me for the user.
  signIn(email: string, password: string, { viaScribeLogin = false } = {}) {
    return viaScribeLogin
      ? this.call('login', { body: { email, password } })
      : this.call('sign-in', { body: { email, password } });
  }

  /** `GET /users/me`: who the token belongs to (after /auth/login, and the check at launch). */
  me(token: string) {
    return this.call('users-me', { token });
  }

  // `POST /auth/refresh-token`. The bearer is the (usually expired) access token; the body carries the refresh token.
  refresh(accessToken: string, refreshToken: string) {
    return this.call('refresh-token', { token: accessToken, body: { token: refreshToken } });
  }

  /** `POST /recording-sessions/create`: the patient's name, the visit description (always sent, '' if none) and the local date. */
  createRecordingSession(
    token: string,
    input: { patientName: string; description: string; recordingSessionDate: string },
    signal?: AbortSignal,
  ) {
    const body: CreateRecordingSessionRequest = {
      patient_name: input.patientName,
      description: input.description,
      session_date: input.recordingSessionDate,
    };
    return this.call('recording-session-create', { token, body, signal });
  }

  /** `GET /templates/all`: one page. */
  templates(token: string, page = 1, limit = 50) {
    return this.call('templates', { token, query: { page, limit } });
  }

  /** `POST /audio/generate-upload-url`: the recording session only (and a template, when scribing should start by itself after the upload). */
  uploadUrl(token: string, input: { recordingSessionId: string; autoScribeTemplateId?: string }, signal?: AbortSignal) {
    const body: UploadUrlRequest = {
      recording_session_public_id: input.recordingSessionId,
      ...(input.autoScribeTemplateId ? { auto_scribe_template_public_id: input.autoScribeTemplateId } : {}),
    };
    return this.call('upload-url', { token, body, signal });
  }

  /** `PUT <presigned url>`: the recording, streamed from disk (upload-file.ts). */
  upload(uploadUrl: string, filePath: string, contentType: string | null, options?: UploadOptions): Promise<void> {
    const via: UploadRoute = {
      network: this.network,
      routeFor: (operation, url) => this.routeFor(operation, url),
      stallMs: this.options.uploadStallMs,
      answerMs: this.options.timeoutMs,
      log: this.options.log,
    };
    return uploadFile(via, uploadUrl, filePath, contentType, options);
  }

  /** `POST /scribe/request`: the two documented fields; the Idempotency-Key lets a resend after a lost answer find the first record. */
  requestScribe(
    token: string,
    input: { recordingSessionId: string; templateId: string; idempotencyKey: string },
    signal?: AbortSignal,
  ) {
    const body: ScribeRequestBody = {
      recording_session_public_id: input.recordingSessionId,
      template_public_id: input.templateId,
    };
    return this.call('scribe-request', {
      token,
      headers: { 'idempotency-key': input.idempotencyKey },
      body,
      signal,
    });
  }

  /** `GET /scribe/get/{id}`. */
  getScribe(token: string, id: string, signal?: AbortSignal) {
    return this.call('scribe-get', { params: { id }, token, signal });
  }

  /** `POST /ddx_agent_v2`. The three agents take the same body, `{ input }`, on the agents' API. */
  ddx(token: string, input: string, signal?: AbortSignal) {
    return this.call('ddx-agent', { token, body: { input }, signal });
  }

  /** `POST /treatment_plan_agent_v2`. */
  treatmentPlan(token: string, input: string, signal?: AbortSignal) {
    return this.call('treatment-plan-agent', { token, body: { input }, signal });
  }

  /** `POST /medication_agent_v2`: the input names a drug and a species. */
  medication(token: string, input: string, signal?: AbortSignal) {
    return this.call('medication-agent', { token, body: { input }, signal });
  }

  /** `GET /organizations/get`: the organization, with the notification address in force. */
  organization(token: string) {
    return this.call('organization-get', { token });
  }

  /**
   * `PUT /webhook/update`: the clinic's endpoint and the secret the service signs with. Only the
   * operation is logged; a refusal that quotes the secret (a service or proxy echoing the body)
   * has it taken out of the message before anyone can show or log it.
   */
  async registerWebhook(token: string, input: { url: string; secret: string }) {
    const body: WebhookUpdateRequest = { event_type: 'scribe', webhook_url: input.url, auth_token: input.secret };
    try {
      return await this.call('webhook-update', { token, body });
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
    return this.call('notification-email', { token, body: { email } });
  }

  /** `PATCH /webhook/status`. */
  setWebhookStatus(token: string, input: { eventType: string; active: boolean; organizationId: string }) {
    return this.call('webhook-status', {
      token,
      body: { event_type: input.eventType, is_active: input.active, organization_public_id: input.organizationId },
    });
  }

  /**
   * `POST {agents_url}/chat`: one turn of a conversation with the clinical assistant. It is on
   * the sign-in host and takes its own version (0.2.0) in the same header as every other call.
   */
  chat(token: string, body: ChatRequest, signal?: AbortSignal) {
    return this.call('chat', { token, headers: { [API_VERSION_HEADER]: CHAT_API_VERSION }, body, signal });
  }

  /** `GET /scribe/all`: one page of the organization's scribes. */
  scribeList(token: string, page: number, limit: number, signal?: AbortSignal) {
    return this.call('scribe-all', { token, query: { page, limit }, signal });
  }

  /** `GET /recording-sessions/all`: one page of the organization's recording sessions. */
  recordingSessionList(token: string, page: number, limit: number, signal?: AbortSignal) {
    return this.call('recording-sessions-all', { token, query: { page, limit }, signal });
  }

  /** `GET /scribe/get/{id}`, with the recording session when the answer names it (not published). */
  getScribeWithRecordingSession(token: string, id: string, signal?: AbortSignal) {
    return this.callWith('scribe-get', { params: { id }, token, signal }, (body) => ({
      record: parseScribeRecord(body),
      recordingSessionId: scribeRecordingSessionId(body),
    }));
  }
}
