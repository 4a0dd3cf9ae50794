// Consults grouped under a heading per day, the way a vet thinks of a clinic's list.
import type { ConsultInfo } from '../../../../shared/ipc.ts';

export interface DayGroup {
  key: string;
  heading: string;
  consults: ConsultInfo[];
}

export function dayKey(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

export function dayHeading(iso: string, now: Date = new Date()): string {
  const day = new Date(iso);
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  if (dayKey(day) === dayKey(now)) return 'Today';
  if (dayKey(day) === dayKey(yesterday)) return 'Yesterday';
  return day.toLocaleDateString([], { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
}

/** Keeps the order it is given (newest first) and starts a group at each new day. */
export function groupByDay(consults: readonly ConsultInfo[], now: Date = new Date()): DayGroup[] {
  const groups: DayGroup[] = [];
  for (const consult of consults) {
    const key = dayKey(new Date(consult.recording.startedAt));
    const last = groups.at(-1);
    if (last && last.key === key) last.consults.push(consult);
    else groups.push({ key, heading: dayHeading(consult.recording.startedAt, now), consults: [consult] });
  }
  return groups;
}
