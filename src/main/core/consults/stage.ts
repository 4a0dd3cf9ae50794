// Where a consult is on its way from the microphone to a note: worked out here, once, from the
// recording, its job and what the vet in front may do with it, and sent to the window with the
// consult (`stage`, `needsPatientName`). The window chooses the words; it never works out the
// state again, so every screen and the engine agree on it.
import type { ConsultInfo, ConsultStage, RecordingInfo } from '../../../shared/ipc.ts';
import type { JobInfo } from '../../../shared/jobs.ts';

/** Whether the consult waits for the patient's name before it can go to the service. */
export function needsPatientName(recording: RecordingInfo, job: JobInfo | null): boolean {
  if (recording.patientName?.trim()) return false;
  return (
    job === null || (job.state === 'failed' && job.error?.code === 'patient_name_required') || job.state === 'recorded'
  );
}

export function consultStage(recording: RecordingInfo, job: JobInfo | null, claimable: boolean): ConsultStage {
  if (recording.state === 'recording') return 'recording';
  if (recording.state === 'paused') return 'paused';
  // No one signed in here owns it yet: it is sent, and its note shown, only once a vet takes it.
  if (claimable) return 'claim';
  const nameMissing = needsPatientName(recording, job);
  if (!job) {
    if (recording.state === 'recovered') return 'recovered';
    return nameMissing ? 'needs-name' : 'needs-template';
  }
  if (job.state === 'completed') return 'ready';
  if (nameMissing) return 'needs-name';
  if (job.state === 'failed') return 'failed';
  // A job that is held up says why before it says where it is.
  if (job.waitingFor !== null) return 'waiting';
  switch (job.state) {
    case 'recorded':
      return 'preparing';
    case 'recording_session_created':
    case 'upload_url':
      return 'upload';
    case 'uploaded':
      return 'uploaded';
    case 'scribe_requested':
      return job.overdue ? 'late' : 'scribing';
  }
}

/** A consult as the window gets it, before what the vet in front may do with it is added. */
export function consultInfo(recording: RecordingInfo, job: JobInfo | null): ConsultInfo {
  return {
    recording,
    job,
    stage: consultStage(recording, job, false),
    needsPatientName: needsPatientName(recording, job),
  };
}
