// Scribing: POST {scribe_url}/scribe/request starts a job (an Idempotency-Key makes a repeat
// answer the same record), GET /scribe/get/{id} answers it with the note once scribed, and
// GET /scribe/all lists the organization's jobs.
import { sectionsFromCategories, sectionsToRtf } from '../../shared/note/index.ts';
import type { ScribeListItemWire, ScribeRecordWire, ScribeRequestResponseWire } from '../../shared/service/wire.ts';
import { ApiError, readBody, type Router } from '../http.ts';
import { scribeStatus } from '../scribe-jobs.ts';
import type { ScribeRecord } from '../state.ts';
import { listPage, schemas, serve, signedInUser, VERSIONED, type ServerParts } from './common.ts';

/** The record GET /scribe/get/{id} answers; the note (categories and RTF) once scribed. */
export function scribeRecordJson(record: ScribeRecord, now = Date.now()): ScribeRecordWire & { error?: string } {
  const status = scribeStatus(record, now);
  const scribed = status === 'scribed' && record.categories !== null;
  return {
    public_id: record.public_id,
    transcript_public_id: status === 'requested' ? null : `tr-${record.public_id}`,
    template_public_id: record.template_public_id,
    // 'failed' is the sandbox's own word for audio it cannot read; the service publishes none.
    status: status as ScribeRecordWire['status'],
    categories_output: scribed ? record.categories! : [],
    rtf_output: scribed
      ? sectionsToRtf(sectionsFromCategories(record.categories!), { patientName: null, date: null })
      : null,
    ...(status === 'failed' && record.error ? { error: record.error } : {}),
  };
}

export function scribeRoutes(router: Router, parts: ServerParts): void {
  const { store, auth, jobs, counters } = parts;
  const state = store.state;

  serve(router, 'scribe-request', async (ctx) => {
    const { user: account } = await signedInUser(auth, ctx);
    const body = await readBody(ctx.req, schemas.scribeRequest, VERSIONED);
    const key = ctx.req.headers['idempotency-key'];
    const { record, created } = jobs.create({
      recordingSessionId: body.recording_session_public_id,
      templateId: body.template_public_id,
      organizationId: account.organization_id,
      idempotencyKey: typeof key === 'string' && key.trim() ? key.trim().slice(0, 200) : null,
    });
    if (created) counters.scribeRequests += 1;
    else counters.scribeReplays += 1;
    const answer: ScribeRequestResponseWire = { public_id: record.public_id, message: 'Scribe requested successfully' };
    return { body: answer };
  });

  serve(router, 'scribe-get', async (ctx) => {
    const { user: account } = await signedInUser(auth, ctx);
    const record = state.scribes[ctx.params['id'] ?? ''];
    if (!record || record.organization_id !== account.organization_id)
      throw new ApiError(404, 'not_found', 'Scribe not found.');
    return { body: scribeRecordJson(record) };
  });

  serve(router, 'scribe-all', async (ctx) => {
    const { user: account } = await signedInUser(auth, ctx);
    const own: ScribeListItemWire[] = Object.values(state.scribes)
      .filter((x) => x.organization_id === account.organization_id)
      .sort((a, b) => b.created_at.localeCompare(a.created_at))
      .map((x) => ({
        public_id: x.public_id,
        updated_at: new Date(Math.min(Date.now(), Math.max(Date.parse(x.created_at), x.finish_at))).toISOString(),
        transcript_public_id: scribeStatus(x) === 'requested' ? null : `tr-${x.public_id}`,
        template_public_id: x.template_public_id,
        organization_public_id: x.organization_id,
        status: scribeStatus(x) as ScribeListItemWire['status'],
      }));
    return {
      body: listPage(own, ctx.url, parts.options, (i) => ({
        public_id: `bulk-scribe-${i}`,
        updated_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
        transcript_public_id: null,
        template_public_id: 'bulk-template',
        organization_public_id: account.organization_id,
        status: 'scribed' as const,
      })),
    };
  });
}
