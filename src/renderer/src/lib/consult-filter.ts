// Finding a consult: by words (main searches the patient, the visit and the note), by day and
// by where it is on its way to a note. The state filter reads the same status the row shows.
import { clinicMatches, type ClinicConsult } from '../../../shared/clinic.ts';
import type { ConsultInfo } from '../../../shared/ipc.ts';
import { scribeStatusKind } from '../../../shared/service/status-kind.ts';
import { consultStatus, type ConsultStatus } from './consult-status.ts';
import { dayKey, dayRange } from './days.ts';

export const STATE_FILTERS = [
  { value: 'all', label: 'Any state' },
  { value: 'needs-you', label: 'Needs you' },
  { value: 'on-the-way', label: 'On the way' },
  { value: 'ready', label: 'Note ready' },
  { value: 'failed', label: 'Failed' },
] as const;

export type StateFilter = (typeof STATE_FILTERS)[number]['value'];

export interface ConsultFilter {
  /** Ids main found for the words; null when no words were typed. */
  matching: ReadonlySet<string> | null;
  /** A local day, YYYY-MM-DD; '' for any day. */
  day: string;
  state: StateFilter;
}

function inState(status: ConsultStatus, state: StateFilter): boolean {
  switch (state) {
    case 'all':
      return true;
    case 'needs-you':
      return status.badge === 'Needs you';
    case 'ready':
      return status.tone === 'done';
    case 'failed':
      return status.tone === 'error';
    case 'on-the-way':
      return status.tone === 'progress' || status.badge === 'Waiting' || status.badge === 'Late';
  }
}

export function filterConsults(
  consults: readonly ConsultInfo[],
  filter: ConsultFilter,
  overdueMinutes?: number,
): ConsultInfo[] {
  const day = filter.day === '' ? null : (dayRange(filter.day) ?? { start: NaN, end: NaN });
  const onDay = (iso: string) => {
    const ms = Date.parse(iso);
    return day === null || (ms >= day.start && ms < day.end);
  };
  return consults.filter(
    (c) =>
      (filter.matching === null || filter.matching.has(c.recording.id)) &&
      onDay(c.recording.startedAt) &&
      // A consult's status is worked out only when a state is asked for: the list may hold thousands.
      (filter.state === 'all' ||
        inState(consultStatus(c, overdueMinutes === undefined ? {} : { overdueMinutes }), filter.state)),
  );
}

export function isFiltering(filter: ConsultFilter): boolean {
  return filter.matching !== null || filter.day !== '' || filter.state !== 'all';
}

/**
 * The clinic's consults from the service, found by the same search and filters: the words in
 * the patient, the visit, the template's name or the note once it was read (a note unread is on
 * the service only), the day of the service's last change, and the state its status says.
 */
export function filterClinic(consults: readonly ClinicConsult[], filter: ClinicFilter): ClinicConsult[] {
  return consults.filter((c) => {
    if (!clinicMatches(c, filter.words)) return false;
    if (filter.day !== '' && dayKey(new Date(c.updatedAt)) !== filter.day) return false;
    // A visit is in the state of one of the notes that could be its own.
    return clinicInState(c, filter.state) || (c.candidates ?? []).some((n) => clinicInState(n, filter.state));
  });
}

export interface ClinicFilter {
  words: string;
  day: string;
  state: StateFilter;
}

function clinicInState(c: ClinicConsult, state: StateFilter): boolean {
  if (state === 'all') return true;
  const kind = c.status === null ? null : scribeStatusKind(c.status);
  if (state === 'ready') return kind === 'completed';
  if (state === 'failed') return kind === 'failed';
  if (state === 'on-the-way') return kind === 'queued' || kind === 'processing' || kind === 'unknown';
  // Nothing from elsewhere waits for this vet.
  return false;
}
