// A consult as main describes it to the window (RecordingInfo and JobInfo), for tests of the
// pure functions and components that read one: every field set, the test's own on top, and the
// stage worked out by the engine.
import { withAccess } from '../../../src/main/core/consults/access.ts';
import { consultInfo } from '../../../src/main/core/consults/stage.ts';
import type { ConsultInfo, RecordingInfo } from '../../../src/shared/ipc.ts';
import type { JobInfo } from '../../../src/shared/jobs.ts';

export const recording = (patch: Partial<RecordingInfo> = {}): RecordingInfo => ({
  id: '2026-03-05T10-42-00Z-abcdef',
  startedAt: '2026-03-05T10:42:00.000Z',
  finishedAt: '2026-03-05T10:50:00.000Z',
  durationMs: 480_000,
  mimeType: 'audio/webm;codecs=opus',
  label: null,
  patientName: 'Bella',
  description: null,
  templateId: null,
  state: 'finished',
  bytes: 1000,
  recordedBy: null,
  consentAt: null,
  listName: null,
  ...patch,
});

export const job = (patch: Partial<JobInfo> = {}): JobInfo => ({
  recordingId: '2026-03-05T10-42-00Z-abcdef',
  templateId: 'tpl',
  state: 'recorded',
  waitingFor: null,
  waitingReason: null,
  askedBy: null,
  bytesSent: 0,
  bytesTotal: 1000,
  serviceStatus: null,
  error: null,
  nextRetryAt: null,
  hasNote: false,
  edited: false,
  overdue: false,
  audioDeleted: false,
  createdAt: '2026-03-05T10:50:00.000Z',
  updatedAt: '2026-03-05T10:50:00.000Z',
  completedAt: null,
  documents: [],
  ...patch,
});

/**
 * A consult as the engine sends it: its stage worked out by the engine's own function, as for
 * every consult that crosses to the window; `claimable` as the gate adds it.
 */
export const consult = (
  r: RecordingInfo = recording(),
  j: JobInfo | null = null,
  { claimable = false }: { claimable?: boolean } = {},
): ConsultInfo => {
  const info = consultInfo(r, j);
  return claimable ? withAccess(info, 'claim') : info;
};
