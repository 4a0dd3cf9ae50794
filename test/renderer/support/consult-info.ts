// A consult as main describes it to the window (RecordingInfo and JobInfo), for tests of the
// pure functions and components that read one: every field set, the test's own on top.
import type { RecordingInfo } from '../../../src/shared/ipc.ts';
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
