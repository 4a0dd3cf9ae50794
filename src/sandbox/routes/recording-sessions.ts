// Recording sessions: POST {scribe_url}/recording-sessions/create, GET /recording-sessions/all
// and GET /recording-sessions/get/{id}, each limited to the caller's organization.
import type { RecordingSessionWire } from '../../shared/service/wire.ts';
import { ApiError, readBody, type Router } from '../http.ts';
import type { SandboxState, RecordingSessionRecord } from '../state.ts';
import { listPage, schemas, serve, signedInUser, VERSIONED, type ServerParts } from './common.ts';

function recordingSessionJson(recordingSession: RecordingSessionRecord): RecordingSessionWire {
  return {
    public_id: recordingSession.public_id,
    updated_at: recordingSession.updated_at,
    patient_name: recordingSession.patient_name,
    description: recordingSession.description,
    organization_public_id: recordingSession.organization_id,
  };
}

/** A session of the caller's organization; 404 for any other, as for one that does not exist. */
export function ownRecordingSession(state: SandboxState, id: string, organizationId: string): RecordingSessionRecord {
  const recordingSession = state.recording_sessions[id];
  if (!recordingSession || recordingSession.organization_id !== organizationId)
    throw new ApiError(404, 'not_found', 'Recording session not found.');
  return recordingSession;
}

export function recordingSessionRoutes(router: Router, parts: ServerParts): void {
  const { store, auth } = parts;
  const state = store.state;

  serve(router, 'recording-session-create', async (ctx) => {
    const { user: account } = await signedInUser(auth, ctx);
    const body = await readBody(ctx.req, schemas.createRecordingSession, VERSIONED);
    const now = new Date().toISOString();
    const recordingSession: RecordingSessionRecord = {
      public_id: crypto.randomUUID(),
      patient_name: body.patient_name,
      description: body.description,
      session_date: body.session_date,
      created_at: now,
      updated_at: now,
      organization_id: account.organization_id,
      user_id: account.id,
      last_upload_key: null,
    };
    state.recording_sessions[recordingSession.public_id] = recordingSession;
    store.save();
    return { body: recordingSessionJson(recordingSession) };
  });

  serve(router, 'recording-sessions-all', async (ctx) => {
    const { user: account } = await signedInUser(auth, ctx);
    const own = Object.values(state.recording_sessions)
      .filter((x) => x.organization_id === account.organization_id)
      .sort((a, b) => b.created_at.localeCompare(a.created_at))
      .map(recordingSessionJson);
    return {
      body: listPage(own, ctx.url, parts.options, (i) => ({
        public_id: `bulk-session-${i}`,
        updated_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
        patient_name: `Bulk patient ${i}`,
        description: '',
        organization_public_id: account.organization_id,
      })),
    };
  });

  serve(router, 'recording-session-get', async (ctx) => {
    const { user: account } = await signedInUser(auth, ctx);
    return { body: recordingSessionJson(ownRecordingSession(state, ctx.params['id'] ?? '', account.organization_id)) };
  });
}
