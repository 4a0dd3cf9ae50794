// Where a consult is on its way from the microphone to a note, in the vet's words. Derived
// from the recording and its job as main reports them; pure, so every state is tested.
import type { ConsultInfo } from '../../../../shared/ipc.ts';
import { scribeStatusKind } from '../../../../shared/service/status-kind.ts';

export type StatusTone = 'progress' | 'done' | 'error' | 'warning';

export interface ConsultStatus {
  /** One sentence, the whole state: never colour alone. */
  text: string;
  /** A word or two for the badge beside the text. */
  badge: string;
  tone: StatusTone;
  /** Upload progress from 0 to 1, while the audio is being sent. */
  progress?: number;
}

/** HH:MM:SS in the local time zone. */
export function clockTime(epochMs: number): string {
  const d = new Date(epochMs);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

function retryWhen(nextRetryAt: number | null): string {
  return nextRetryAt === null ? 'will retry soon' : `will retry at ${clockTime(nextRetryAt)}`;
}

export function consultStatus({ recording, job }: ConsultInfo): ConsultStatus {
  if (recording.state === 'recording') return { text: 'Recording…', badge: 'Recording', tone: 'progress' };
  if (recording.state === 'paused') return { text: 'Recording… (paused)', badge: 'Paused', tone: 'progress' };
  if (!job) {
    if (recording.state === 'recovered') return { text: 'Recovered after the app closed', badge: 'Needs you', tone: 'warning' };
    return { text: 'Choose a template to send', badge: 'Needs you', tone: 'warning' };
  }
  if (job.state === 'completed') return { text: 'Note ready', badge: 'Ready', tone: 'done' };
  if (job.state === 'failed') {
    return { text: `Failed: ${job.error?.message ?? 'the service gave no reason.'}`, badge: 'Failed', tone: 'error' };
  }
  // A job that is held up says why before it says where it is.
  switch (job.waitingFor) {
    case 'network':
      return { text: `Waiting for the network — ${retryWhen(job.nextRetryAt)}`, badge: 'Waiting', tone: 'warning' };
    case 'sign-in':
      return { text: 'Waiting for sign-in', badge: 'Waiting', tone: 'warning' };
    case 'service':
      return { text: `The service is busy — ${retryWhen(job.nextRetryAt)}`, badge: 'Waiting', tone: 'warning' };
    case null:
      break;
  }
  switch (job.state) {
    case 'recorded':
      return { text: 'Creating session…', badge: 'Working', tone: 'progress' };
    case 'session_created':
      return { text: 'Waiting to upload', badge: 'Working', tone: 'progress' };
    case 'upload_url': {
      if (job.bytesSent <= 0 || job.bytesTotal <= 0) return { text: 'Waiting to upload', badge: 'Working', tone: 'progress' };
      const progress = Math.min(1, job.bytesSent / job.bytesTotal);
      return { text: `Uploading ${Math.floor(progress * 100)}%`, badge: 'Uploading', tone: 'progress', progress };
    }
    case 'uploaded':
      return { text: 'Uploaded — asking for the note…', badge: 'Working', tone: 'progress' };
    case 'scribe_requested': {
      const status = job.serviceStatus?.trim() ?? '';
      // Words the app knows need no echo; any other is the service's own and shown as it is.
      const text = status !== '' && scribeStatusKind(status) === 'unknown' ? `Scribing… (service says: ${status})` : 'Scribing…';
      return { text, badge: 'Scribing', tone: 'progress' };
    }
  }
}

/** m:ss, or h:mm:ss past the hour. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** HH:MM of a moment, local time. */
export function timeOfDay(iso: string): string {
  return new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/** What a consult is called: its label, or the time it started. */
export function consultTitle(recording: { label: string | null; startedAt: string }): string {
  return recording.label?.trim() || `Consult at ${timeOfDay(recording.startedAt)}`;
}
