// The audio's way in: POST {scribe_url}/audio/generate-upload-url answers a presigned address,
// and PUT /storage/{key} takes the file there, as cloud storage would (S3-style XML errors).
import { SERVICE_OPERATIONS } from '../../shared/service/index.ts';
import type { UploadUrlResponseWire } from '../../shared/service/wire.ts';
import { ApiError, readBody, type Router } from '../http.ts';
import { TEMPLATES } from '../templates.ts';
import { PREFIX, schemas, serve, signedInUser, VERSIONED, type ServerParts } from './common.ts';
import { ownRecordingSession } from './recording-sessions.ts';

export function audioAndUploadRoutes(router: Router, parts: ServerParts): void {
  const { store, auth, uploads, jobs, counters } = parts;
  const state = store.state;

  serve(router, 'upload-url', async (ctx) => {
    const { user: account } = await signedInUser(auth, ctx);
    const body = await readBody(ctx.req, schemas.uploadUrl, VERSIONED);
    const recordingSession = ownRecordingSession(state, body.recording_session_public_id, account.organization_id);
    const auto = body.auto_scribe_template_public_id ?? null;
    if (auto !== null && !TEMPLATES.some((t) => t.public_id === auto))
      throw new ApiError(404, 'not_found', 'Template not found.');
    const answer: UploadUrlResponseWire = {
      url: uploads.create(parts.origin(), recordingSession.public_id, auto),
      message: 'Upload URL generated successfully',
    };
    return { body: answer };
  });

  // The upload's address is the sandbox's own (its stand-in for cloud storage); its method is the
  // published operation's.
  router.add(SERVICE_OPERATIONS.upload.method, `${PREFIX.storage}/:key`, async (ctx) => {
    const result = await uploads.put(ctx.req, ctx.params['key'] ?? '', ctx.url.searchParams);
    counters.uploads += 1;
    // The optional template of POST /audio/generate-upload-url: scribing starts by itself once
    // the audio is in.
    const auto = result.record.auto_scribe_template_public_id;
    const recordingSession = state.recording_sessions[result.record.recording_session_public_id];
    // One job per upload address: a PUT repeated to the same address (a client retrying a
    // cut-off upload) replaces the file but does not scribe it twice.
    if (auto && recordingSession) {
      const { created } = jobs.create({
        recordingSessionId: recordingSession.public_id,
        templateId: auto,
        organizationId: recordingSession.organization_id,
        idempotencyKey: `auto-scribe:${result.record.file_key}`,
      });
      if (created) counters.scribeRequests += 1;
    }
    return { status: 200, body: undefined, headers: { ETag: `"${result.sha256}"` } };
  });
}
