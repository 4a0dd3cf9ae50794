// Where a consult is on its way from the microphone to a note, in the vet's words. The engine
// works out the stage (src/main/core/consults/stage.ts) and sends it with the consult; this
// module only chooses the words for it, from the stage and the job's facts (its progress, what
// it waits for, the service's own word). Pure, so every stage's words are tested.
import { OVERDUE_CHECK_MINUTES } from '../../../shared/published-service.ts';
import type { ConsultInfo } from '../../../shared/ipc.ts';
import type { AskedBy, DocumentInfo } from '../../../shared/jobs.ts';
import { scribeStatusKind } from '../../../shared/service/status-kind.ts';
import { PATIENT_NAME_WAITING } from './patient-name.ts';

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

/** Minutes as a vet says them: "1 minute", "30 minutes", "2 hours", "90 minutes". */
export function minutesWords(minutes: number): string {
  if (minutes >= 60 && minutes % 60 === 0) return minutes === 60 ? '1 hour' : `${minutes / 60} hours`;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

export { OVERDUE_CHECK_MINUTES };

/** The sentence for a note the service has not finished in the time the app waits. */
export function overdueText(overdueMinutes: number, what: 'note' | 'document' = 'note'): string {
  return `The service has not finished this ${what} after ${minutesWords(overdueMinutes)}. It is still being checked every ${minutesWords(OVERDUE_CHECK_MINUTES)}.`;
}

export interface StatusOptions {
  /** Settings' scribeOverdueMinutes: the wait after which a note counts as late. */
  overdueMinutes?: number;
}

const DEFAULT_OVERDUE_MINUTES = 30;

/** Whether the consult waits for the patient's name before it can go to the service (the engine says). */
export function needsPatientName(consult: ConsultInfo): boolean {
  return consult.needsPatientName;
}

/** The published statuses of a scribe job (`GET /scribe/get/{id}`, docs/service.md) in the vet's words. */
function scribeWords(serviceStatus: string | null, what: 'note' | 'document' = 'note'): string {
  const status = serviceStatus?.trim() ?? '';
  const word = status.toLowerCase();
  if (status === '' || word === 'requested') return `Sent — the service has received it and will start the ${what}`;
  if (word === 'scribing') return `Scribing — the service is writing the ${what}`;
  if (word === 'scribed') return `Written — collecting the ${what} from the service`;
  switch (scribeStatusKind(status)) {
    case 'queued':
      return `Sent — the service has received it and will start the ${what}`;
    case 'processing':
      return `Scribing — the service is writing the ${what}`;
    case 'completed':
      return `Written — collecting the ${what} from the service`;
    default:
      // Any other word is the service's own and is shown as it is.
      return `Scribing — the service says: ${status}`;
  }
}

/** The consult's stage, as the engine worked it out, in the vet's words. */
export function consultStatus(consult: ConsultInfo, options: StatusOptions = {}): ConsultStatus {
  const { recording, job, stage } = consult;
  switch (stage) {
    case 'recording':
      return { text: 'Recording…', badge: 'Recording', tone: 'progress' };
    case 'paused':
      return { text: 'Recording… (paused)', badge: 'Paused', tone: 'progress' };
    case 'claim': {
      const by = recording.recordedBy;
      return by
        ? {
            text: `Recorded by ${by.name || by.email} under another service — send it as yours on this one?`,
            badge: 'Needs you',
            tone: 'warning',
          }
        : { text: 'Recorded while no one was signed in — send it as yours?', badge: 'Needs you', tone: 'warning' };
    }
    case 'recovered':
      return {
        text: consult.needsPatientName
          ? "Recovered after the app closed — add the patient's name to send it"
          : 'Recovered after the app closed',
        badge: 'Needs you',
        tone: 'warning',
      };
    case 'needs-name':
      return { text: PATIENT_NAME_WAITING, badge: 'Needs you', tone: 'warning' };
    case 'needs-template':
      return { text: 'Choose a template to send', badge: 'Needs you', tone: 'warning' };
    case 'ready':
      return { text: 'Note ready', badge: 'Ready', tone: 'done' };
    case 'failed':
      return {
        text: `Failed: ${job?.error?.message ?? 'the service gave no reason.'}`,
        badge: 'Failed',
        tone: 'error',
      };
    case 'waiting':
      return waitingStatus(consult);
    case 'preparing':
      return { text: 'Getting ready to send…', badge: 'Working', tone: 'progress' };
    case 'upload': {
      if (!job || job.state !== 'upload_url' || job.bytesSent <= 0 || job.bytesTotal <= 0)
        return { text: 'Waiting to upload', badge: 'Working', tone: 'progress' };
      const progress = Math.min(1, job.bytesSent / job.bytesTotal);
      return { text: `Uploading ${Math.floor(progress * 100)}%`, badge: 'Uploading', tone: 'progress', progress };
    }
    case 'uploaded':
      return { text: 'Uploaded — asking for the note…', badge: 'Working', tone: 'progress' };
    case 'late':
      return { text: overdueText(options.overdueMinutes ?? DEFAULT_OVERDUE_MINUTES), badge: 'Late', tone: 'warning' };
    case 'scribing':
      return { text: scribeWords(job?.serviceStatus ?? null), badge: 'Scribing', tone: 'progress' };
  }
}

/** What a held-up consult waits for (the job's `waitingFor`), in words. */
function waitingStatus({ recording, job }: ConsultInfo): ConsultStatus {
  switch (job?.waitingFor) {
    case 'network':
      // The clinic's proxy or certificate: the sentence says what to ask IT; the consult waits.
      if (job.waitingReason)
        return {
          text: `Waiting — ${job.waitingReason} The consult is kept and ${retryWhen(job.nextRetryAt)}.`,
          badge: 'Waiting',
          tone: 'warning',
        };
      return { text: `Waiting for the network — ${retryWhen(job.nextRetryAt)}`, badge: 'Waiting', tone: 'warning' };
    case 'sign-in':
      return { text: 'Waiting for sign-in', badge: 'Waiting', tone: 'warning' };
    case 'owner': {
      // Another account is signed in: this consult goes with its own account's sign-in only, or
      // with that of the vet who asked again.
      const who = job.askedBy ? askerName(job.askedBy) : ownerName(recording);
      return {
        text: `Waiting for ${who} to sign in: it is sent with their account only`,
        badge: 'Waiting',
        tone: 'warning',
      };
    }
    case 'claim':
      return { text: 'Waiting for a vet to send it as theirs', badge: 'Waiting', tone: 'warning' };
    case 'service':
      return { text: `The service is busy — ${retryWhen(job.nextRetryAt)}`, badge: 'Waiting', tone: 'warning' };
    default:
      return { text: 'Waiting', badge: 'Waiting', tone: 'warning' };
  }
}

// Durations have one format on every screen (duration.ts); the consults' screens import it from here.
export { formatDuration } from './duration.ts';

// One formatter for every row: `toLocaleTimeString` makes one per call.
const TIME_OF_DAY = new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit' });

/** HH:MM of a moment, local time. */
export function timeOfDay(iso: string): string {
  return TIME_OF_DAY.format(new Date(iso));
}

export const NO_PATIENT_NAME = 'No patient name';
const TITLE_DETAIL_MAX = 80;

/**
 * What a consult is called: the name the vet listed it under after sending it, else its patient
 * and the visit ("Bella — Vomiting 2 days"). A consult recorded before the app asked for the
 * patient says so, with the label it was given then.
 */
export function consultTitle(recording: {
  patientName: string | null;
  description: string | null;
  label: string | null;
  listName?: string | null;
}): string {
  const renamed = recording.listName?.trim().replace(/\s+/g, ' ');
  if (renamed) return renamed;
  const name = recording.patientName?.trim() || NO_PATIENT_NAME;
  const detail = (
    recording.description?.trim() ||
    (recording.patientName?.trim() ? '' : recording.label?.trim()) ||
    ''
  ).replace(/\s+/g, ' ');
  if (!detail) return name;
  return `${name} — ${detail.length > TITLE_DETAIL_MAX ? `${detail.slice(0, TITLE_DETAIL_MAX - 1).trimEnd()}…` : detail}`;
}

/** The vet who asked for a request on a consult (a colleague's document, Ask again), in words. */
export function askerName(asker: AskedBy): string {
  return asker.name || asker.email;
}

/** The vet who recorded a consult, in words. */
export function ownerName(recording: ConsultInfo['recording']): string {
  return recording.recordedBy?.name || recording.recordedBy?.email || 'the vet who recorded it';
}

/**
 * Where one more document of a consult is (discharge instructions after the note), in the vet's
 * words: it waits its turn behind the note and the documents asked for before it, then is asked
 * of the service for the consult's recording, as the note was.
 */
export function documentStatus(
  document: DocumentInfo,
  consult: ConsultInfo,
  options: StatusOptions = {},
): ConsultStatus {
  if (document.state === 'completed') return { text: 'Ready', badge: 'Ready', tone: 'done' };
  if (document.state === 'failed')
    return {
      text: `Could not be written: ${document.error?.message ?? 'the service gave no reason.'}`,
      badge: 'Failed',
      tone: 'error',
    };
  switch (document.waitingFor) {
    case 'turn':
      return {
        text:
          consult.job?.state === 'completed'
            ? 'Waiting for the document asked for before it'
            : 'Waiting for the note to be finished; it is asked for right after',
        badge: 'Waiting',
        tone: 'progress',
      };
    case 'network':
      return {
        text: 'Waiting for the network — it will be asked for when the service can be reached',
        badge: 'Waiting',
        tone: 'warning',
      };
    case 'sign-in':
      return { text: 'Waiting for sign-in', badge: 'Waiting', tone: 'warning' };
    case 'owner':
      // The vet who asked for it, whose sign-in alone it goes with.
      return {
        text: `Waiting for ${document.askedBy ? askerName(document.askedBy) : ownerName(consult.recording)} to sign in: it is asked for with their account only`,
        badge: 'Waiting',
        tone: 'warning',
      };
    case 'claim':
      return { text: 'Waiting for a vet to send the consult as theirs', badge: 'Waiting', tone: 'warning' };
    case 'service':
      return { text: 'The service is busy — it will be asked for again soon', badge: 'Waiting', tone: 'warning' };
    case null:
      break;
  }
  if (document.state === 'scribe_requested') {
    if (document.overdue)
      return {
        text: overdueText(options.overdueMinutes ?? DEFAULT_OVERDUE_MINUTES, 'document'),
        badge: 'Late',
        tone: 'warning',
      };
    return { text: scribeWords(document.serviceStatus, 'document'), badge: 'Writing', tone: 'progress' };
  }
  return { text: 'Asking the service for it…', badge: 'Working', tone: 'progress' };
}
